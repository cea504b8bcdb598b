import Testing

/// Libraries as older Trackcast versions left them: each schema exactly as it
/// shipped (frozen copies, not the migration list, so that editing a shipped
/// migration fails the tests) and rows that version could hold.
struct SchemaSnapshot: Sendable, CustomTestStringConvertible {
    let version: Int
    let schema: String
    let sampleData: String

    var testDescription: String { "schema version \(version)" }

    /// Every version before the newest; `SchemaMigrationTests` checks none is missing.
    static let older: [SchemaSnapshot] = [version1, version2, version3, version4, version5, version6, version7,
                                          version8]

    static let version1 = SchemaSnapshot(version: 1, schema: """
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
        """, sampleData: """
        INSERT INTO shows (id, feed_url, title, etag, subscribed)
            VALUES (7, 'https://feeds.example.org/show.xml', 'Old Show', '"v1"', 1700000000);
        INSERT INTO episodes (id, show_id, identity, content_hash, guid, title, published, duration,
                              played, is_new, first_seen)
            VALUES (70, 7, 'guid:a', 1, 'a', 'First', 1700000000, 1200.5, 1, 0, 1700000000),
                   (71, 7, 'guid:b', 2, 'b', 'Second', 1700086400, NULL, 0, 1, 1700086400);
        INSERT INTO enclosures (episode_id, position, url, mime_type, length)
            VALUES (71, 0, 'https://media.example.org/b.mp3', 'audio/mpeg', 1234);
        INSERT INTO downloads (episode_id, state, path, bytes, total, updated)
            VALUES (70, 'complete', '/home/me/a.mp3', 99, 99, 1700000100);
        INSERT INTO queue (episode_id, position) VALUES (71, 0), (70, 1);
        INSERT INTO resume_positions (episode_id, uri, position, duration, updated)
            VALUES (71, NULL, 42.5, 1800, 1700090000.25),
                   (NULL, 'file:///home/me/talk.ogg', 12, NULL, 1700090001);
        INSERT INTO settings (key, value) VALUES ('volume', '0.8');
        """)

    /// Version 1 followed by the version 2 migration as it shipped; the same
    /// rows, the counters kept by its triggers.
    static let version2 = SchemaSnapshot(version: 2, schema: """
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
        """, sampleData: """
        INSERT INTO shows (id, feed_url, title, etag, subscribed)
            VALUES (7, 'https://feeds.example.org/show.xml', 'Old Show', '"v1"', 1700000000);
        INSERT INTO episodes (id, show_id, identity, content_hash, guid, title, published, duration,
                              played, is_new, first_seen)
            VALUES (70, 7, 'guid:a', 1, 'a', 'First', 1700000000, 1200.5, 1, 0, 1700000000),
                   (71, 7, 'guid:b', 2, 'b', 'Second', 1700086400, NULL, 0, 1, 1700086400);
        INSERT INTO enclosures (episode_id, position, url, mime_type, length)
            VALUES (71, 0, 'https://media.example.org/b.mp3', 'audio/mpeg', 1234);
        INSERT INTO downloads (episode_id, state, path, bytes, total, updated)
            VALUES (70, 'complete', '/home/me/a.mp3', 99, 99, 1700000100);
        INSERT INTO queue (episode_id, position) VALUES (71, 0), (70, 1);
        INSERT INTO resume_positions (episode_id, uri, position, duration, updated)
            VALUES (71, NULL, 42.5, 1800, 1700090000.25),
                   (NULL, 'file:///home/me/talk.ogg', 12, NULL, 1700090001);
        INSERT INTO settings (key, value) VALUES ('volume', '0.8');
        """)

    /// Version 2 followed by the version 3 migration as it shipped (when
    /// episodes were marked played); the same rows.
    static let version3 = SchemaSnapshot(version: 3, schema: version2.schema + """

        ALTER TABLE episodes ADD COLUMN played_at INTEGER;
        UPDATE episodes SET played_at = unixepoch() WHERE played = 1;
        CREATE TRIGGER episodes_played_at AFTER UPDATE OF played ON episodes
            WHEN new.played IS NOT old.played BEGIN
            UPDATE episodes SET played_at = CASE WHEN new.played = 1 THEN unixepoch() END WHERE id = new.id;
        END;
        """, sampleData: version2.sampleData)

    /// Version 3 followed by the version 4 migration as it shipped (feed
    /// document digests); the same rows.
    static let version4 = SchemaSnapshot(version: 4, schema: version3.schema + """

        ALTER TABLE shows ADD COLUMN feed_digest INTEGER;
        """, sampleData: version3.sampleData)

    /// Version 4 followed by the version 5 migration as it shipped (sync's
    /// account and pending changes); the same rows.
    static let version5 = SchemaSnapshot(version: 5, schema: version4.schema + """

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
        """, sampleData: version4.sampleData)

    static let version6 = SchemaSnapshot(version: 6, schema: version5.schema + """
        CREATE TABLE search_places (
            id INTEGER PRIMARY KEY,
            episode_id INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
            kind INTEGER NOT NULL,
            start REAL
        ) STRICT;
        CREATE INDEX search_places_by_episode ON search_places(episode_id, kind);
        CREATE VIRTUAL TABLE search_text USING fts5(
            title, show, chapter, notes, transcript,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3'
        );
        """, sampleData: version5.sampleData + """
        INSERT INTO search_places (id, episode_id, kind, start) VALUES (1, 70, 0, NULL);
        INSERT INTO search_text (rowid, title, show) VALUES (1, 'An indexed title', 'Old Show');
        """)

    static let version7 = SchemaSnapshot(version: 7, schema: version6.schema + """
        DROP TABLE search_text;
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
        """, sampleData: version5.sampleData + """
        UPDATE shows SET feed_digest = -42 WHERE id = 7;
        INSERT INTO search_places (id, episode_id, kind, start) VALUES (1, 70, 0, NULL);
        INSERT INTO search_heads (rowid, title, show) VALUES (1, 'An indexed title', 'Old Show');
        """)

    static let version8 = SchemaSnapshot(version: 8, schema: version7.schema + """
        ALTER TABLE shows DROP COLUMN feed_digest;
        ALTER TABLE shows ADD COLUMN feed_head_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_head_digest INTEGER;
        ALTER TABLE shows ADD COLUMN feed_prologue_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_prologue_digest INTEGER;
        ALTER TABLE shows ADD COLUMN feed_items BLOB;
        ALTER TABLE shows ADD COLUMN feed_end_length INTEGER;
        ALTER TABLE shows ADD COLUMN feed_end_digest INTEGER;
        """, sampleData: version5.sampleData + """
        INSERT INTO search_places (id, episode_id, kind, start) VALUES (1, 70, 0, NULL);
        INSERT INTO search_heads (rowid, title, show) VALUES (1, 'An indexed title', 'Old Show');
        """)
}
