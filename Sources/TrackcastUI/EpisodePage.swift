import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// One episode: artwork, title, show, date and length, Play and Queue; below,
/// switched between, its notes (the sanitised description, links, funding and
/// people), its chapters and its transcript. While the episode plays, the
/// chapter and the transcript cue under the play head are highlighted;
/// choosing either plays the episode from there.
@MainActor
final class EpisodePage {
    private static let artworkSize: Int32 = 96

    let root = Box(.vertical)
    private let library: LibraryModel
    private let artworkCache: ArtworkCache
    private let nowPlaying: NowPlaying
    private let artwork = Image(iconName: "audio-x-generic-symbolic", pixelSize: EpisodePage.artworkSize)
    private let title = Label()
    private let showTitle = Label()
    private let details = Label()
    private let play = Button(label: tr("_Play"))
    /// "Play from 41:10": shown when the page was opened at a moment a search found.
    private let playFrom = Button(label: "")
    private let queueMenu = MenuButton(iconName: "list-add-symbolic", tooltip: tr("Add to Queue"), menu: Menu())
    private let notes = Label()
    private let extras = Bin()
    private let sections = ViewStack()
    private let chaptersView: EpisodeChaptersView
    /// The episode's own picture (or its show's), and the one shown: the
    /// current chapter's replaces it while this episode plays.
    private var episodeArtwork: URL?
    private var shownArtwork: URL?
    private let transcriptView = TranscriptView()
    /// The chapters of the episode shown, for when it is not the one playing
    /// (the player's own tracker has them, media's included, when it is).
    private let ownChapters: ChapterTracker
    private(set) var episodeID: EpisodeID?
    private var detail: EpisodeDetail?
    private var loadTask: Task<Void, Never>?
    private var transcriptTask: Task<Void, Never>?
    /// The time of the transcript cue a search found, to show once the transcript is read.
    private var cueToReveal: TimeInterval?

    /// - Parameter seek: plays `episode` from a position (a chapter or cue chosen).
    init(library: LibraryModel, artworkCache: ArtworkCache, nowPlaying: NowPlaying,
         seek: @escaping @MainActor (EpisodeID, TimeInterval) -> Void) {
        self.library = library
        self.artworkCache = artworkCache
        self.nowPlaying = nowPlaying
        ownChapters = ChapterTracker(library: library, announces: false)
        chaptersView = EpisodeChaptersView(pictures: ChapterPictures(library: library, artworkCache: artworkCache))
        Self.addStyles()

        let header = Box(.horizontal, spacing: 12)
        header.setMargins(top: 12, bottom: 6, start: 12, end: 12)
        artwork.addCSSClass("card")
        artwork.align(horizontal: .start, vertical: .start)
        header.append(artwork)
        let text = Box(.vertical, spacing: 4)
        text.expandHorizontally()
        title.alignStart()
        title.wrap(lines: 3)
        title.addCSSClass("title-3")
        showTitle.alignStart()
        showTitle.wrap(lines: 2)
        details.alignStart()
        details.wrap()
        details.addCSSClass("dim-label")
        details.addCSSClass("caption")
        details.useTabularNumbers()
        for label in [title, showTitle, details] { text.append(label) }
        let buttons = Box(.horizontal, spacing: 6)
        buttons.setMargins(top: 6)
        play.addCSSClass("suggested-action")
        play.addCSSClass("pill")
        buttons.append(play)
        playFrom.addCSSClass("pill")
        playFrom.isVisible = false
        buttons.append(playFrom)
        queueMenu.addCSSClass("circular")
        queueMenu.align(horizontal: .center, vertical: .center)
        buttons.append(queueMenu)
        text.append(buttons)
        header.append(text)
        root.append(header)

        notes.alignStart()
        notes.wrap()
        notes.makeSelectable()
        let notesBox = Box(.vertical, spacing: 18)
        notesBox.setMargins(top: 12, bottom: 18, start: 12, end: 12)
        notesBox.append(notes)
        notesBox.append(extras)
        sections.add(ScrolledWindow(child: notesBox), name: "notes", title: tr("Notes"), iconName: "text-x-generic-symbolic")
        sections.add(chaptersView.root, name: "chapters", title: tr("Chapters"), iconName: "view-list-ordered-symbolic")
        sections.add(transcriptView.root, name: "transcript", title: tr("Transcript"),
                     iconName: "format-justify-left-symbolic")
        sections.expandVertically()
        let switcher = ViewSwitcher(stack: sections)
        switcher.align(horizontal: .center, vertical: .start)
        switcher.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        root.append(switcher)
        root.append(Separator())
        root.append(sections)

        chaptersView.onSeek { [weak self] seconds in
            if let id = self?.episodeID { seek(id, seconds) }
        }
        transcriptView.onSeek { [weak self] seconds in
            if let id = self?.episodeID { seek(id, seconds) }
        }
        transcriptView.onRetry { [weak self] in
            if let detail = self?.detail { self?.loadTranscript(of: detail) }
        }
        nowPlaying.observe { [weak self] in self?.followPlayback() }
        nowPlaying.chapters.observe { [weak self] in self?.followPlayback() }
        ownChapters.observe { [weak self] in self?.followPlayback() }
    }

    private static func addStyles() {
        // Padding, not margins, so a highlighted row's background frames its text.
        StyleSheet.add(".episode-page-row { padding: 6px 10px; border-radius: 6px; }"
                       + " .current-cue, .current-chapter { background-color: alpha(@accent_bg_color, 0.18); }"
                       + " .transcript-match { box-shadow: inset 4px 0 @warning_color; }")
    }

    /// The title for the header bar, once the episode is read.
    var headerTitle: String? { detail.map { $0.summary.title ?? tr("Untitled episode") } }

    /// Opens the episode's page; at `moment`, a chapter or transcript cue a
    /// search found, it shows that section and offers to play from there.
    func present(_ id: EpisodeID, at moment: SearchPlace? = nil, loaded: @escaping @MainActor () -> Void) {
        episodeID = id
        detail = nil
        loadTask?.cancel()
        transcriptTask?.cancel()
        sections.visibleChildName = switch moment {
        case .chapter?: "chapters"
        case .transcript?: "transcript"
        default: "notes"
        }
        showPlayFrom(moment.flatMap(\.time), of: id)
        if case .transcript(let start)? = moment { cueToReveal = start } else { cueToReveal = nil }
        transcriptView.searchFor("")
        transcriptView.showLoading()
        loadTask = Task { [weak self, library] in
            let detail = await library.episodeDetail(id)
            let localFile = await library.localFile(for: id)
            guard let self, !Task.isCancelled, self.episodeID == id else { return }
            guard let detail else {
                Log.debug("episode page: no \(id)")
                return
            }
            self.show(detail, localFile: localFile)
            loaded()
        }
    }

    private func show(_ detail: EpisodeDetail, localFile: URL?) {
        self.detail = detail
        let episode = detail.summary
        title.text = episode.title ?? tr("Untitled episode")
        showTitle.text = episode.showTitle ?? ""
        showTitle.isVisible = episode.showTitle != nil
        var parts: [String] = []
        if let published = episode.published { parts.append(TimeText.date(published)) }
        if let duration = episode.duration, duration > 0 { parts.append(TimeText.length(duration)) }
        if episode.isPlayed { parts.append(tr("Played")) }
        details.text = parts.joined(separator: " · ")
        details.isVisible = !parts.isEmpty

        let id = Variant(episode.id.rawValue)
        play.setAction("app.play-episode", target: id)
        let menu = Menu()
        menu.append(tr("Play Next"), action: "app.queue-next(int64 \(episode.id.rawValue))")
        menu.append(tr("Play Last"), action: "app.queue-last(int64 \(episode.id.rawValue))")
        queueMenu.setMenu(menu)

        episodeArtwork = episode.imageURL ?? episode.showImageURL
        showArtwork(episodeArtwork, force: true)

        // Only the description is markup, and only what SafeMarkup lets through.
        let markup = if let html = detail.contentHTML, !html.isEmpty { SafeMarkup.fromHTML(html) }
            else { SafeMarkup.fromPlainText(detail.description ?? "") }
        notes.setMarkup(markup)
        notes.isVisible = !markup.isEmpty
        extras.setChild(Self.extras(of: detail))
        Log.debug("episode page: \(episode.id) \(title.text)")
        Log.debug("episode page notes: \(notes.text)")

        ownChapters.begin(uri: (localFile ?? episode.mediaURL)?.absoluteString ?? "", episode: episode.id)
        loadTranscript(of: detail)
        followPlayback()
    }

    /// Links, ways to support the show and the people in the episode, as
    /// the feed gave them; buttons open only web and mail addresses.
    private static func extras(of detail: EpisodeDetail) -> Widget? {
        let box = Box(.vertical, spacing: 18)
        var sections = 0
        func section(_ heading: String, _ rows: [Widget]) {
            guard !rows.isEmpty else { return }
            let part = Box(.vertical, spacing: 6)
            let label = Label(heading)
            label.alignStart()
            label.addCSSClass("heading")
            part.append(label)
            for row in rows { part.append(row) }
            box.append(part)
            sections += 1
        }
        func link(_ url: URL?, _ label: String) -> Widget? {
            guard let url, let address = SafeMarkup.allowedLink(url.absoluteString) else { return nil }
            let button = LinkButton(uri: address, label: label)
            button.align(horizontal: .start, vertical: .center)
            button.setTooltip(address)
            return button
        }
        section(tr("Links"), [link(detail.link, tr("Episode Website"))].compactMap { $0 })
        section(tr("Support the Show"), detail.funding.compactMap { funding in
            link(funding.url, funding.title.flatMap { $0.isEmpty ? nil : $0 } ?? funding.url.host ?? funding.url.absoluteString)
        })
        section(tr("People"), detail.persons.map { person in
            let row = Box(.horizontal, spacing: 12)
            let text = Box(.vertical, spacing: 2)
            text.expandHorizontally()
            let name = Label(person.name)
            name.alignStart()
            name.wrap()
            let role = Label(person.role.capitalized)
            role.alignStart()
            role.addCSSClass("dim-label")
            role.addCSSClass("caption")
            text.append(name)
            text.append(role)
            row.append(text)
            if let website = link(person.href, tr("Website")) { row.append(website) }
            return row
        })
        return sections > 0 ? box : nil
    }

    private func loadTranscript(of detail: EpisodeDetail) {
        transcriptTask?.cancel()
        let id = detail.summary.id
        guard !detail.transcripts.isEmpty else {
            transcriptView.showNone()
            Log.debug("transcript: none")
            return
        }
        transcriptView.showLoading()
        let fetcher = library.transcriptFetcher()
        let transcripts = detail.transcripts
        transcriptTask = Task { [weak self] in
            do {
                // A nonisolated async call: the fetch, the cache's file and
                // the parsing run on the global executor, off the main thread.
                let fetched = try await fetcher.transcript(for: id, from: transcripts)
                guard let self else { return }
                if !fetched.fromCache { await self.library.indexTranscript(fetched.transcript, of: id) }
                guard !Task.isCancelled, self.episodeID == id else { return }
                self.transcriptView.show(fetched.transcript)
                if let time = self.cueToReveal { self.transcriptView.reveal(at: time) }
                Log.debug("transcript: \(fetched.transcript.cues.count) cues\(fetched.transcript.isTimed ? "" : ", untimed") from \(fetched.fromCache ? "the cache" : fetched.source.url.absoluteString)")
                self.followPlayback()
            } catch {
                guard let self, !Task.isCancelled, self.episodeID == id else { return }
                if case TranscriptFetcher.Failure.noReadableTranscript = error {
                    self.transcriptView.showNone()
                    Log.debug("transcript: none readable")
                } else {
                    self.transcriptView.showFailure(FailureText.transcript(error))
                    Log.debug("transcript failed: \(error)")
                }
            }
        }
    }

    /// Highlights the chapter and cue under the play head while this episode
    /// is the one playing, and nothing otherwise.
    private func followPlayback() {
        guard let id = episodeID, detail != nil else { return }
        let isCurrent = nowPlaying.item?.episode == id
        // The player's list merges the media's own chapters too, once it has any.
        let list = isCurrent && !nowPlaying.chapters.list.isEmpty ? nowPlaying.chapters.list : ownChapters.list
        let position = isCurrent ? nowPlaying.position.seconds : nil
        chaptersView.update(list, current: position.flatMap { list.index(at: $0) })
        transcriptView.update(position: position)
        showArtwork(isCurrent ? nowPlaying.chapterArtwork ?? episodeArtwork : episodeArtwork)
    }

    private func showArtwork(_ url: URL?, force: Bool = false) {
        guard force || url != shownArtwork else { return }
        shownArtwork = url
        artwork.setIconName("audio-x-generic-symbolic")
        Log.debug("episode page: artwork \(url?.lastPathComponent ?? "none")")
        guard let url else { return }
        artworkCache.texture(for: url, size: Self.artworkSize) { [weak self] texture in
            guard self?.shownArtwork == url else { return }
            self?.artwork.setTexture(texture)
        }
    }

    private func showPlayFrom(_ time: TimeInterval?, of id: EpisodeID) {
        guard let time else {
            playFrom.isVisible = false
            return
        }
        playFrom.setLabel(String(format: tr("Play from %@"), TimeText.clock(seconds: time)))
        playFrom.setAction("app.seek-episode", target: Variant(tuple: [Variant(id.rawValue), Variant(time)]))
        playFrom.isVisible = true
        Log.debug("episode page: offers play from \(TimeText.clock(seconds: time)) in \(sections.visibleChildName ?? "")")
    }

    /// What a click on the transcript's `index`th cue does.
    func activateCue(_ index: Int) { transcriptView.activate(index) }

    /// Types into the transcript's search entry.
    func searchTranscript(_ text: String) {
        sections.visibleChildName = "transcript"
        transcriptView.searchFor(text)
    }

    /// Shows one of the sections, as its switcher does: "notes", "chapters" or
    /// "transcript"; any other name changes nothing.
    func showSection(_ name: String) {
        guard ["notes", "chapters", "transcript"].contains(name) else { return }
        sections.visibleChildName = name
    }
}
