import Bindings
import Foundation
import TrackcastCore

/// Probes an item before it plays: duration, live or not, streams, tags,
/// cover art and chapters, as a `Sendable` `LoadedAsset`.
///
/// Nonisolated and stateless: the probe runs on the GStreamer helper thread
/// (see `Discoverer`), so awaiting it never blocks the caller's actor.
/// Cancelling the awaiting task stops the probe and its download at once.
public struct AssetLoader: Sendable {
    /// The longest a probe may take before it fails with `.timeout`.
    public var timeout: Duration
    /// The longest a network source may wait for data.
    public var networkTimeout: Duration

    public init(timeout: Duration = .seconds(20), networkTimeout: Duration = .seconds(15)) {
        self.timeout = timeout
        self.networkTimeout = networkTimeout
    }

    /// Throws `PlaybackError`, or `CancellationError` when cancelled.
    /// `timeout`, if given, replaces the loader's own for this probe.
    public func load(_ uri: String, timeout: Duration? = nil) async throws -> LoadedAsset {
        let networkTimeout = self.networkTimeout
        let media: DiscoveredMedia
        do {
            // A probe has a session of its own anyway; its source outwaits
            // the classifier's own check, so that one says "timeout".
            media = try await Discoverer.probe(uri, timeout: timeout ?? self.timeout) { source in
                SourceSettings(sourceTimeout: networkTimeout * 2).apply(to: source)
            }
        } catch let error as DiscoveryError {
            try Task.checkCancellation()
            throw await PlaybackErrorClassifier(checkTimeout: networkTimeout).classify(error, uri: uri)
        }
        return Self.asset(from: media)
    }

    /// Adaptive streaming playlists, and internet radio.
    static let streamTypes: Set<String> = [
        "application/x-hls", "application/dash+xml", "application/vnd.ms-sstr+xml", "application/x-icy",
    ]

    static func chapters(from entries: [TocEntry]) -> [LoadedAsset.Chapter] {
        entries.flatMap(\.chapters).compactMap { entry in
            entry.start.map { LoadedAsset.Chapter(title: entry.title, start: $0, end: entry.end) }
        }
    }

    static func asset(from media: DiscoveredMedia) -> LoadedAsset {
        let tracks = media.streams.map { stream in
            LoadedAsset.Track(kind: stream.kind.trackKind, codec: stream.codec, language: stream.language,
                              channels: stream.channels, sampleRate: stream.sampleRate,
                              width: stream.width, height: stream.height, bitrate: stream.bitrate)
        }
        // Ogg files keep their chapters in Vorbis comments, which GStreamer
        // makes no table of contents of.
        let tocChapters = Self.chapters(from: media.tableOfContents)
        let chapters = tocChapters.isEmpty
            ? VorbisCommentChapters.chapters(from: media.tags.comments, duration: media.duration) : tocChapters
        // GStreamer calls only sources that cannot preroll live. A playlist
        // without an end (HLS, DASH) prerolls and even seeks within its
        // window, yet has no duration: it is live too, and so is internet
        // radio (ICY). A file without a duration is not: Ogg served fast
        // over HTTP shows the probe neither duration nor seeking.
        let isStream = media.containerType.map(Self.streamTypes.contains) ?? false
        let isLive = media.isLive || (media.duration == nil && isStream)
        return LoadedAsset(duration: media.duration, isLive: isLive, isSeekable: media.isSeekable && !isLive,
                           tracks: tracks, title: media.tags.title, artist: media.tags.artist, album: media.tags.album,
                           artwork: media.tags.image.map { Data($0) }, artworkType: media.tags.imageType,
                           chapters: chapters, id3ChapterFrames: media.tags.id3ChapterFrames)
    }
}

extension DiscoveredMedia.Stream.Kind {
    var trackKind: LoadedAsset.Track.Kind {
        switch self {
        case .audio: .audio
        case .video: .video
        case .subtitle: .subtitle
        }
    }
}
