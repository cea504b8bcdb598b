import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// The current item's chapters, gathered from every source (the feed's
/// Podlove chapters, its Podcasting 2.0 chapters file, the media's own: ID3
/// CHAP frames as the player passes them on, a table of contents, Vorbis
/// comments, and MP4 chapters read from the file or by Range requests) and
/// merged by priority, and which of them the play head is in.
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
    /// The library's episode being played, whose chapters found after its
    /// refresh go into the search index.
    private var episode: EpisodeID?

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
        self.episode = episode
        rebuild()
        if let episode { loads.append(Task { await loadFeedChapters(of: episode) }) }
        // GStreamer reads no MP4 chapters; Trackcast reads them itself, from
        // the file or, streamed, by Range requests for just the boxes it needs.
        if let url = URL(string: uri), ["m4a", "m4b", "mp4", "m4v", "mov"].contains(url.pathExtension.lowercased()) {
            if url.isFileURL {
                loads.append(Task { await readEmbeddedChapters { MP4Chapters.read(contentsOf: url) } })
            } else if ["http", "https"].contains(url.scheme?.lowercased()) {
                loads.append(Task { await readRemoteMP4Chapters(url) })
            }
        }
    }

    /// The media's own chapters, once the player has them: an MP3's ID3
    /// CHAP frames (with their links and pictures), else the container's
    /// table of contents or Vorbis comments.
    func embedded(in asset: LoadedAsset?) {
        if let frames = asset?.id3ChapterFrames, !frames.isEmpty {
            loads.append(Task { await readEmbeddedChapters { ID3Chapters.read(frames: frames) } })
        } else if let chapters = asset?.chapters, !chapters.isEmpty {
            add(chapters.map { Chapter(start: $0.start.seconds, title: $0.title, source: .embedded) }, as: .embedded)
        }
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

    /// Reads the media's own chapters (a file, or frames with pictures in
    /// them) off the main thread.
    private func readEmbeddedChapters(_ read: @escaping @Sendable () -> [Chapter]) async {
        let chapters = await Task.detached(operation: read).value
        guard !Task.isCancelled else { return }
        add(chapters, as: .embedded)
    }

    private func readRemoteMP4Chapters(_ url: URL) async {
        let reading = await library.remoteMP4Chapters().read(url)
        guard !Task.isCancelled else { return }
        if announces {
            Log.debug("MP4 chapters over HTTP: \(reading.chapters.count), \(reading.bytesFetched) bytes in \(reading.requests) requests")
        }
        add(reading.chapters, as: .embedded)
    }

    private func add(_ chapters: [Chapter], as source: Chapter.Source) {
        // The same again (the player's and then the probe's view of one file): nothing changes.
        guard !chapters.isEmpty, sources[source] != chapters else { return }
        sources[source] = chapters
        rebuild()
        // The feed's chapters are indexed by the refresh; the others only Trackcast's reading of them finds.
        if source != .feed, let episode {
            let learned = list.chapters.filter { $0.source != .feed && $0.isListed }
            Task { [library] in await library.indexChapters(learned, of: episode) }
        }
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
