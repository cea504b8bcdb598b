import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The current item's chapters, gathered from every source (the feed's
/// Podlove chapters, its Podcasting 2.0 chapters file, the media's own table
/// of contents, or for local files what GStreamer does not read: ID3 CHAP
/// frames and MP4 chapters) and merged by priority, and which of them the
/// play head is in.
@MainActor
final class ChapterTracker {
    private let library: LibraryModel
    private(set) var list = ChapterList([])
    /// Index into `list.chapters` of the chapter under the play head.
    private(set) var currentIndex: Int?
    private var sources: [Chapter.Source: [Chapter]] = [:]
    private var loads: [Task<Void, Never>] = []
    private var observers: [@MainActor () -> Void] = []
    private var lastPosition: TimeInterval = 0

    /// Whether it logs the chapters it finds and enters (the tests follow
    /// the player's tracker through those lines; an episode page's own
    /// tracker, for an episode not playing, stays quiet).
    private let announces: Bool

    init(library: LibraryModel, announces: Bool = true) {
        self.library = library
        self.announces = announces
    }

    /// Called when the list or the current chapter changes.
    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    var current: Chapter? { currentIndex.map { list.chapters[$0] } }

    /// A new item: forget the old chapters and start gathering the new ones.
    func begin(uri: String, episode: EpisodeID?) {
        for load in loads { load.cancel() }
        loads = []
        sources = [:]
        lastPosition = 0
        rebuild()
        if let episode { loads.append(Task { await loadFeedChapters(of: episode) }) }
        if let url = URL(string: uri), url.isFileURL {
            switch url.pathExtension.lowercased() {
            case "mp3": loads.append(Task { await loadFileChapters { Self.id3Chapters(of: url) } })
            case "m4a", "m4b", "mp4", "m4v", "mov": loads.append(Task { await loadFileChapters { MP4Chapters.read(contentsOf: url) } })
            default: break
            }
        }
    }

    /// The media's own table of contents, once the player has probed it.
    func embedded(_ chapters: [LoadedAsset.Chapter]) {
        guard !chapters.isEmpty else { return }
        add(chapters.map { Chapter(start: $0.start.seconds, title: $0.title, source: .embedded) }, as: .embedded)
    }

    /// The play head moved (a tick or a seek).
    func update(position: Duration) {
        lastPosition = position.seconds
        if enter(list.index(at: lastPosition)) { notify() }
    }

    /// Makes `index` the current chapter; returns whether it changed.
    private func enter(_ index: Int?) -> Bool {
        guard index != currentIndex else { return false }
        currentIndex = index
        if announces, let chapter = current { Log.debug("chapter: \(chapter.title ?? "")") }
        return true
    }

    private func loadFeedChapters(of episode: EpisodeID) async {
        guard let detail = await library.episodeDetail(episode), !Task.isCancelled else { return }
        add(detail.chapters.map {
            Chapter(start: $0.start, title: $0.title, url: $0.url, image: $0.imageURL.map(ChapterImage.remote), source: .feed)
        }, as: .feed)
        guard let url = detail.chaptersURL else { return }
        do {
            let chapters = try await library.chapterFetcher().chapters(at: url, for: episode)
            guard !Task.isCancelled else { return }
            add(chapters, as: .chaptersFile)
        } catch {
            // The feed's and the file's own chapters still serve.
            Log.warning("cannot read the chapters file \(url.absoluteString): \(error)")
        }
    }

    /// Reads a local file's chapters off the main thread.
    private func loadFileChapters(_ read: @escaping @Sendable () -> [Chapter]) async {
        let chapters = await Task.detached(operation: read).value
        guard !Task.isCancelled else { return }
        add(chapters, as: .embedded)
    }

    private nonisolated static func id3Chapters(of file: URL) -> [Chapter] {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return [] }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: ID3Chapters.headerLength),
              let length = ID3Chapters.tagLength(header: header) else { return [] }
        try? handle.seek(toOffset: 0)
        return ID3Chapters.read((try? handle.read(upToCount: length)) ?? Data())
    }

    private func add(_ chapters: [Chapter], as source: Chapter.Source) {
        guard !chapters.isEmpty else { return }
        sources[source] = chapters
        rebuild()
    }

    private func rebuild() {
        list = ChapterList.merged(Array(sources.values))
        if announces { Log.debug("chapters: \(list.chapters.count) (\(list.listed.count) listed)") }
        // A new list: even the same index may be another chapter.
        currentIndex = nil
        _ = enter(list.index(at: lastPosition))
        notify()
    }

    private func notify() {
        for observer in observers { observer() }
    }
}
