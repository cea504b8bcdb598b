import Foundation

/// What probing an item found: everything a player shows before and while it plays.
public struct LoadedAsset: Sendable, Equatable {
    public struct Track: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case audio, video, subtitle }

        public var kind: Kind
        /// The codec in words, e.g. "Opus".
        public var codec: String?
        public var language: String?
        public var channels: Int?
        public var sampleRate: Int?
        public var width: Int?
        public var height: Int?
        public var bitrate: Int?

        public init(kind: Kind, codec: String? = nil, language: String? = nil, channels: Int? = nil,
                    sampleRate: Int? = nil, width: Int? = nil, height: Int? = nil, bitrate: Int? = nil) {
            self.kind = kind
            self.codec = codec
            self.language = language
            self.channels = channels
            self.sampleRate = sampleRate
            self.width = width
            self.height = height
            self.bitrate = bitrate
        }
    }

    public struct Chapter: Sendable, Equatable {
        public var title: String?
        public var start: Duration
        public var end: Duration?

        public init(title: String?, start: Duration, end: Duration?) {
            self.title = title
            self.start = start
            self.end = end
        }
    }

    /// nil for live streams and when the container does not say.
    public var duration: Duration?
    public var isLive: Bool
    public var isSeekable: Bool
    public var tracks: [Track]
    public var title: String?
    public var artist: String?
    public var album: String?
    /// Embedded cover art as stored (JPEG, PNG), and its media type.
    public var artwork: Data?
    public var artworkType: String?
    /// Chapters from the container's table of contents, in order.
    public var chapters: [Chapter]
    /// An MP3's ID3v2 CHAP frames, each whole, as the demuxer handed them
    /// on: the library reads them (`ID3Chapters.read(frames:)`), with the
    /// links and pictures `Chapter` has no room for.
    public var id3ChapterFrames: [[UInt8]]

    public init(duration: Duration?, isLive: Bool, isSeekable: Bool, tracks: [Track] = [],
                title: String? = nil, artist: String? = nil, album: String? = nil,
                artwork: Data? = nil, artworkType: String? = nil, chapters: [Chapter] = [],
                id3ChapterFrames: [[UInt8]] = []) {
        self.duration = duration
        self.isLive = isLive
        self.isSeekable = isSeekable
        self.tracks = tracks
        self.title = title
        self.artist = artist
        self.album = album
        self.artwork = artwork
        self.artworkType = artworkType
        self.chapters = chapters
        self.id3ChapterFrames = id3ChapterFrames
    }

    public var hasVideo: Bool { tracks.contains { $0.kind == .video } }
    public var hasAudio: Bool { tracks.contains { $0.kind == .audio } }
}
