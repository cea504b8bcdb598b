/// Something to play: an episode's enclosure, a file, a stream.
public struct PlaybackItem: Sendable, Equatable {
    /// What the item is known to hold before it is probed (from a feed's MIME
    /// type, say). Audio items never decode video, even when the file has
    /// some (cover art as a video track, for instance).
    public enum Kind: Sendable, Equatable { case audio, video, unknown }

    public var uri: String
    public var kind: Kind
    /// For people: the episode title, if known.
    public var title: String?

    public init(uri: String, kind: Kind = .unknown, title: String? = nil) {
        self.uri = uri
        self.kind = kind
        self.title = title
    }
}
