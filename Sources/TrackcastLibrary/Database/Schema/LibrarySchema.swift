/// The library database's schema, as the ordered list of migrations that build it.
///
/// Conventions: every table is `STRICT`; times are Unix seconds (`INTEGER`,
/// except resume positions' `updated`, see there); URLs are absolute strings;
/// booleans are 0/1 integers; children of an episode (enclosures, chapters, …)
/// keep the feed's order in `position`.
enum LibrarySchema {
    static let migrations: [SchemaMigration] = [version1, version2, version3, version4, version5, version6, version7,
                                                  version8, version9]

    /// Shows, episodes and their media, downloads, the queue, resume positions and settings.
    static let version1 = SchemaMigration(version: 1, sql: """
        CREATE TABLE shows (
            id INTEGER PRIMARY KEY,
            feed_url TEXT NOT NULL UNIQUE,
            title TEXT,
            link TEXT,
            description TEXT,
            author TEXT,
            language TEXT,
            image_url TEXT,
            new_feed_url TEXT,
            show_type TEXT,
            explicit INTEGER,
            complete INTEGER NOT NULL DEFAULT 0,
            etag TEXT,
            last_modified TEXT,
            last_refreshed INTEGER,
            last_error_kind TEXT,
            last_error_message TEXT,
            subscribed INTEGER NOT NULL
        ) STRICT;

        -- identity is FeedEpisodeIdentity.key; content_hash covers every field
        -- of the feed's episode, so a refresh rewrites only what changed.
        CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            show_id INTEGER NOT NULL REFERENCES shows(id) ON DELETE CASCADE,
            identity TEXT NOT NULL,
            content_hash INTEGER NOT NULL,
            guid TEXT,
            title TEXT,
            subtitle TEXT,
            author TEXT,
            published INTEGER,
            duration REAL,
            link TEXT,
            description TEXT,
            content_html TEXT,
            image_url TEXT,
            season INTEGER,
            season_name TEXT,
            number INTEGER,
            episode_type TEXT,
            explicit INTEGER,
            played INTEGER NOT NULL DEFAULT 0,
            is_new INTEGER NOT NULL DEFAULT 0,
            first_seen INTEGER NOT NULL,
            UNIQUE (show_id, identity)
        ) STRICT;
        -- A show's episodes by date, either direction, paged.
        CREATE INDEX episodes_by_show_date ON episodes(show_id, published, id);
        -- New episodes across shows by date.
        CREATE INDEX episodes_new_by_date ON episodes(published, id) WHERE is_new = 1;

        CREATE TABLE enclosures (
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            mime_type TEXT,
            length INTEGER,
            PRIMARY KEY (episode_id, position)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE downloads (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'complete', 'failed')),
            path TEXT,
            bytes INTEGER NOT NULL DEFAULT 0,
            total INTEGER,
            error TEXT,
            updated INTEGER NOT NULL
        ) STRICT;
        -- Downloaded episodes, most recent first.
        CREATE INDEX downloads_by_state ON downloads(state, updated);

        -- position is 0-based and kept dense by the store.
        CREATE TABLE queue (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX queue_by_position ON queue(position);

        -- Keyed by a library episode or by the URI of a file or stream opened
        -- directly, never both. updated is REAL: two saves of one position can
        -- fall in the same second, and the later must win.
        CREATE TABLE resume_positions (
            id INTEGER PRIMARY KEY,
            episode_id INTEGER UNIQUE REFERENCES episodes(id) ON DELETE CASCADE,
            uri TEXT UNIQUE,
            position REAL NOT NULL,
            duration REAL,
            updated REAL NOT NULL,
            CHECK ((episode_id IS NULL) <> (uri IS NULL))
        ) STRICT;
        -- In-progress episodes ("continue listening"), most recent first.
        CREATE INDEX resume_positions_by_update ON resume_positions(updated) WHERE episode_id IS NOT NULL;

        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        """)

    /// Podcasting 2.0 details (podcast guid, locked, chapters, transcripts,
    /// persons, funding), per-show playback settings, and per-show unplayed and
    /// new counts kept by triggers.
    static let version2 = SchemaMigration(version: 2, sql: """
        ALTER TABLE shows ADD COLUMN podcast_guid TEXT;
        ALTER TABLE shows ADD COLUMN locked INTEGER;
        ALTER TABLE shows ADD COLUMN playback_speed REAL;
        ALTER TABLE shows ADD COLUMN skip_intro REAL NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN skip_outro REAL NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN auto_download INTEGER NOT NULL DEFAULT 0;

        -- Counting a show's unplayed episodes on every read of the shows list
        -- costs time in proportion to the whole library (about 7 ms at 100,000
        -- unplayed episodes); counters kept by triggers cost one row update
        -- per episode write and make the list independent of library size.
        ALTER TABLE shows ADD COLUMN unplayed_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN new_count INTEGER NOT NULL DEFAULT 0;
        UPDATE shows SET
            unplayed_count = (SELECT count(*) FROM episodes WHERE show_id = shows.id AND played = 0),
            new_count = (SELECT count(*) FROM episodes WHERE show_id = shows.id AND is_new = 1);
        CREATE TRIGGER episodes_counted_on_insert AFTER INSERT ON episodes BEGIN
            UPDATE shows SET unplayed_count = unplayed_count + (new.played = 0),
                             new_count = new_count + (new.is_new = 1)
            WHERE id = new.show_id;
        END;
        CREATE TRIGGER episodes_counted_on_delete AFTER DELETE ON episodes BEGIN
            UPDATE shows SET unplayed_count = unplayed_count - (old.played = 0),
                             new_count = new_count - (old.is_new = 1)
            WHERE id = old.show_id;
        END;
        CREATE TRIGGER episodes_counted_on_update AFTER UPDATE OF played, is_new, show_id ON episodes BEGIN
            UPDATE shows SET unplayed_count = unplayed_count - (old.played = 0),
                             new_count = new_count - (old.is_new = 1)
            WHERE id = old.show_id;
            UPDATE shows SET unplayed_count = unplayed_count + (new.played = 0),
                             new_count = new_count + (new.is_new = 1)
            WHERE id = new.show_id;
        END;

        ALTER TABLE episodes ADD COLUMN chapters_url TEXT;
        ALTER TABLE episodes ADD COLUMN chapters_type TEXT;

        CREATE TABLE chapters (
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            start REAL NOT NULL,
            title TEXT NOT NULL,
            url TEXT,
            image_url TEXT,
            PRIMARY KEY (episode_id, position)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE transcripts (
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            type TEXT,
            language TEXT,
            rel TEXT,
            PRIMARY KEY (episode_id, position)
        ) STRICT, WITHOUT ROWID;

        -- Persons and funding belong to a show (channel level) or to an episode.
        CREATE TABLE persons (
            id INTEGER PRIMARY KEY,
            show_id INTEGER REFERENCES shows(id) ON DELETE CASCADE,
            episode_id INTEGER REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            group_name TEXT NOT NULL,
            href TEXT,
            image_url TEXT,
            CHECK ((show_id IS NULL) <> (episode_id IS NULL))
        ) STRICT;
        CREATE INDEX persons_by_show ON persons(show_id, position);
        CREATE INDEX persons_by_episode ON persons(episode_id, position);

        CREATE TABLE funding (
            id INTEGER PRIMARY KEY,
            show_id INTEGER REFERENCES shows(id) ON DELETE CASCADE,
            episode_id INTEGER REFERENCES episodes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            url TEXT NOT NULL,
            title TEXT,
            CHECK ((show_id IS NULL) <> (episode_id IS NULL))
        ) STRICT;
        CREATE INDEX funding_by_show ON funding(show_id, position);
        CREATE INDEX funding_by_episode ON funding(episode_id, position);
        """)

    /// When each episode was marked played, so that downloads of played
    /// episodes can be deleted a chosen number of days later. Kept by a
    /// trigger, so every way of marking played stamps it; episodes played
    /// before this version count as played when it was installed.
    static let version3 = SchemaMigration(version: 3, sql: """
        ALTER TABLE episodes ADD COLUMN played_at INTEGER;
        UPDATE episodes SET played_at = unixepoch() WHERE played = 1;
        CREATE TRIGGER episodes_played_at AFTER UPDATE OF played ON episodes
            WHEN new.played IS NOT old.played BEGIN
            UPDATE episodes SET played_at = CASE WHEN new.played = 1 THEN unixepoch() END WHERE id = new.id;
        END;
        """)

    /// A fingerprint of the last feed document applied to each show
    /// (`FeedDocumentDigest`), so a refresh that brings the same bytes from the
    /// same address again skips parsing, as a 304 does, for servers that send
    /// no validators.
    static let version4 = SchemaMigration(version: 4, sql: """
        ALTER TABLE shows ADD COLUMN feed_digest INTEGER;
        """)

    /// Sync with a gpodder.net-compatible server (`Synchronizer`): the one
    /// account, and the changes not yet sent. Triggers record the changes, so
    /// every way of subscribing, playing or downloading (app, command line)
    /// is recorded in the same transaction as the change itself, and a crash
    /// cannot lose one. They record only while an account exists, and not
    /// while the account's `applying` is set: the changes that came from the
    /// server are applied with it set, inside one transaction, and are not
    /// sent back. A pending action keeps its podcast and episode URLs, so an
    /// unsubscribe (which deletes the episodes) does not take it along.
    static let version5 = SchemaMigration(version: 5, sql: """
        CREATE TABLE sync_account (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            server TEXT NOT NULL,
            user TEXT NOT NULL,
            device TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('gpodder', 'nextcloud')),
            subscriptions_since INTEGER NOT NULL DEFAULT 0,
            actions_since INTEGER NOT NULL DEFAULT 0,
            applying INTEGER NOT NULL DEFAULT 0,
            failures INTEGER NOT NULL DEFAULT 0,
            next_attempt REAL,
            last_sync REAL,
            last_result TEXT
        ) STRICT;

        -- revision tells a change sent from the same change made again since.
        CREATE TABLE sync_pending_subscriptions (
            feed_url TEXT PRIMARY KEY,
            change TEXT NOT NULL CHECK (change IN ('add', 'remove')),
            revision INTEGER NOT NULL
        ) STRICT;

        -- One pending action per episode and kind: the newest position
        -- replaces an older one not yet sent. in_flight marks a batch whose
        -- POST was under way; a crash leaves it set, and the next sync asks
        -- the server whether the batch arrived before sending it again.
        CREATE TABLE sync_pending_actions (
            id INTEGER PRIMARY KEY,
            podcast TEXT NOT NULL,
            episode TEXT NOT NULL,
            guid TEXT,
            action TEXT NOT NULL CHECK (action IN ('play', 'download', 'delete', 'new')),
            timestamp REAL NOT NULL,
            position REAL,
            total REAL,
            in_flight INTEGER NOT NULL DEFAULT 0,
            UNIQUE (episode, action)
        ) STRICT;

        CREATE TRIGGER sync_show_added AFTER INSERT ON shows
            WHEN EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_subscriptions (feed_url, change, revision)
            VALUES (new.feed_url, 'add', (SELECT coalesce(max(revision), 0) + 1 FROM sync_pending_subscriptions))
            ON CONFLICT (feed_url) DO UPDATE SET change = 'add', revision = excluded.revision;
        END;
        CREATE TRIGGER sync_show_removed AFTER DELETE ON shows
            WHEN EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_subscriptions (feed_url, change, revision)
            VALUES (old.feed_url, 'remove', (SELECT coalesce(max(revision), 0) + 1 FROM sync_pending_subscriptions))
            ON CONFLICT (feed_url) DO UPDATE SET change = 'remove', revision = excluded.revision;
        END;
        CREATE TRIGGER sync_show_moved AFTER UPDATE OF feed_url ON shows
            WHEN new.feed_url IS NOT old.feed_url AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_subscriptions (feed_url, change, revision)
            VALUES (old.feed_url, 'remove', (SELECT coalesce(max(revision), 0) + 1 FROM sync_pending_subscriptions))
            ON CONFLICT (feed_url) DO UPDATE SET change = 'remove', revision = excluded.revision;
            INSERT INTO sync_pending_subscriptions (feed_url, change, revision)
            VALUES (new.feed_url, 'add', (SELECT coalesce(max(revision), 0) + 1 FROM sync_pending_subscriptions))
            ON CONFLICT (feed_url) DO UPDATE SET change = 'add', revision = excluded.revision;
        END;

        CREATE VIEW sync_episode_urls AS
            SELECT e.id AS episode_id, s.feed_url AS podcast, enc.url AS episode, e.guid AS guid, e.duration AS duration
            FROM episodes e JOIN shows s ON s.id = e.show_id
            JOIN enclosures enc ON enc.episode_id = e.id AND enc.position = 0;

        CREATE TRIGGER sync_position_added AFTER INSERT ON resume_positions
            WHEN new.episode_id IS NOT NULL AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_actions (podcast, episode, guid, action, timestamp, position, total)
            SELECT podcast, episode, guid, 'play', new.updated, new.position, coalesce(new.duration, duration)
            FROM sync_episode_urls WHERE episode_id = new.episode_id
            ON CONFLICT (episode, action) DO UPDATE SET podcast = excluded.podcast, guid = excluded.guid,
                timestamp = excluded.timestamp, position = excluded.position, total = excluded.total, in_flight = 0;
        END;
        CREATE TRIGGER sync_position_updated AFTER UPDATE ON resume_positions
            WHEN new.episode_id IS NOT NULL AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_actions (podcast, episode, guid, action, timestamp, position, total)
            SELECT podcast, episode, guid, 'play', new.updated, new.position, coalesce(new.duration, duration)
            FROM sync_episode_urls WHERE episode_id = new.episode_id
            ON CONFLICT (episode, action) DO UPDATE SET podcast = excluded.podcast, guid = excluded.guid,
                timestamp = excluded.timestamp, position = excluded.position, total = excluded.total, in_flight = 0;
        END;
        -- Played is a play action to the end, as AntennaPod and gPodder send it.
        CREATE TRIGGER sync_episode_played AFTER UPDATE OF played ON episodes
            WHEN new.played = 1 AND old.played = 0 AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_actions (podcast, episode, guid, action, timestamp, position, total)
            SELECT podcast, episode, guid, 'play', (julianday('now') - 2440587.5) * 86400.0,
                   coalesce(duration, 0), coalesce(duration, 0)
            FROM sync_episode_urls WHERE episode_id = new.id
            ON CONFLICT (episode, action) DO UPDATE SET podcast = excluded.podcast, guid = excluded.guid,
                timestamp = excluded.timestamp, position = excluded.position, total = excluded.total, in_flight = 0;
        END;
        CREATE TRIGGER sync_download_completed AFTER UPDATE OF state ON downloads
            WHEN new.state = 'complete' AND old.state IS NOT 'complete'
                AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_actions (podcast, episode, guid, action, timestamp)
            SELECT podcast, episode, guid, 'download', (julianday('now') - 2440587.5) * 86400.0
            FROM sync_episode_urls WHERE episode_id = new.episode_id
            ON CONFLICT (episode, action) DO UPDATE SET timestamp = excluded.timestamp, in_flight = 0;
        END;
        CREATE TRIGGER sync_download_deleted AFTER DELETE ON downloads
            WHEN old.state = 'complete' AND EXISTS (SELECT 1 FROM sync_account WHERE applying = 0) BEGIN
            INSERT INTO sync_pending_actions (podcast, episode, guid, action, timestamp)
            SELECT podcast, episode, guid, 'delete', (julianday('now') - 2440587.5) * 86400.0
            FROM sync_episode_urls WHERE episode_id = old.episode_id
            ON CONFLICT (episode, action) DO UPDATE SET timestamp = excluded.timestamp, in_flight = 0;
        END;
        """)

    /// The search index (`SearchIndexWriter`): one row per place a word can be
    /// found (an episode's title, its notes, a chapter, a transcript cue), in
    /// an FTS5 table that keeps its own copy of the text, beside a plain
    /// table saying whose place each row is.
    ///
    /// The places are not kept by triggers: the connection runs with
    /// `trusted_schema` off, under which a trigger may not write a virtual
    /// table. The store writes them beside the rows they index, in the same
    /// transactions, and `search_places`' cascades tell it nothing: rows of
    /// the FTS table are deleted by the code that deletes their places.
    ///
    /// A library that already has episodes is indexed after this migration,
    /// a batch at a time (`SearchIndexBuilder`), newest episode first, from
    /// `search.unindexed-through` down.
    static let version6 = SchemaMigration(version: 6, sql: """
        -- kind: 0 title (with the show's title and author), 1 notes,
        -- 2 chapter, 3 transcript cue. start: seconds, for chapters and cues.
        CREATE TABLE search_places (
            id INTEGER PRIMARY KEY,
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            kind INTEGER NOT NULL,
            start REAL
        ) STRICT;
        CREATE INDEX search_places_by_episode ON search_places(episode_id, kind);

        -- rowid is search_places.id. remove_diacritics 2 folds every accent
        -- Unicode knows ("zurich" finds "Zürich"); prefix indexes of 2 and 3
        -- characters make a query typed a letter at a time cheap.
        CREATE VIRTUAL TABLE search_text USING fts5(
            title, show, chapter, notes, transcript,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3'
        );

        INSERT INTO settings (key, value)
            SELECT 'search.unindexed-through', CAST(max(id) AS TEXT) FROM episodes HAVING count(*) > 0;
        """)

    /// The search index split by kind of place, one FTS5 table each:
    /// titles and chapters (`search_heads`), notes (`search_notes`) and
    /// transcript cues (`search_cues`). In one table, a word found in a
    /// title was found by walking its postings in every cue too, and BM25
    /// scored every match before the best were known: a common word took
    /// half a second on a big library. Apart, titles are found first from a
    /// small table, and each kind is ranked on its own (`LibraryStore.search`).
    ///
    /// Each table merges its segments once 8 wait at a level, not FTS5's 4:
    /// a refresh writes each show in a transaction of its own, and with two
    /// tables written where one was, merging at 4 cost a refresh of 500
    /// shows about 0.3 ms more a show (a sqlite3 trial of 500 such
    /// transactions: 0.33 s at 4, 0.24 s at 8, one table 0.24 s at 4).
    ///
    /// The old table's rows are not copied (that would hold the library's
    /// opening for minutes): the library is indexed again in the
    /// background, as after version 6.
    static let version7 = SchemaMigration(version: 7, sql: """
        DROP TABLE search_text;
        DELETE FROM search_places;

        CREATE VIRTUAL TABLE search_heads USING fts5(
            title, show, chapter,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3'
        );
        CREATE VIRTUAL TABLE search_notes USING fts5(
            notes,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3'
        );
        CREATE VIRTUAL TABLE search_cues USING fts5(
            transcript,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3'
        );
        INSERT INTO search_heads (search_heads, rank) VALUES ('automerge', 8);
        INSERT INTO search_notes (search_notes, rank) VALUES ('automerge', 8);
        INSERT INTO search_cues (search_cues, rank) VALUES ('automerge', 8);

        INSERT INTO settings (key, value)
            SELECT 'search.unindexed-through', CAST(max(id) AS TEXT) FROM episodes WHERE true HAVING count(*) > 0
            ON CONFLICT (key) DO UPDATE SET value = excluded.value;
        """)

    /// The last applied feed document's `FeedDocumentLayout` instead of one
    /// digest of it all, so a refresh parses only the items a feed gained at
    /// its top; `feed_items` holds each item's lengths and digests
    /// (`FeedDocumentLayout.itemsBlob`). The first refresh after migrating
    /// parses every feed whole.
    static let version8 = SchemaMigration(version: 8, sql: """
        ALTER TABLE shows DROP COLUMN feed_digest;
        ALTER TABLE shows ADD COLUMN feed_head_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_head_digest INTEGER;
        ALTER TABLE shows ADD COLUMN feed_prologue_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_prologue_digest INTEGER;
        ALTER TABLE shows ADD COLUMN feed_items BLOB;
        ALTER TABLE shows ADD COLUMN feed_end_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_end_digest INTEGER;
        """)

    /// Episodes a refresh brought to shows set to download new episodes,
    /// waiting for their automatic download (`AutoDownloads` holds them
    /// while the network is metered), so that a quit does not forget them:
    /// they come from a refresh once only. Any download record of the
    /// episode, the user's or the automatic one, takes it off the list, so
    /// a download the user deletes never comes back; turning the show's
    /// setting off drops its episodes.
    static let version9 = SchemaMigration(version: 9, sql: """
        CREATE TABLE auto_downloads_waiting (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE
        ) STRICT;
        CREATE TRIGGER auto_downloads_waiting_end_at_download AFTER INSERT ON downloads BEGIN
            DELETE FROM auto_downloads_waiting WHERE episode_id = NEW.episode_id;
        END;
        CREATE TRIGGER auto_downloads_waiting_end_at_setting_off AFTER UPDATE OF auto_download ON shows
            WHEN NEW.auto_download = 0 BEGIN
            DELETE FROM auto_downloads_waiting WHERE episode_id IN (SELECT id FROM episodes WHERE show_id = NEW.id);
        END;
        """)
}
