/// What the MPRIS service asks of the application around the player: the
/// window, the queue, and what is known about the current item beyond its
/// media file.
@MainActor
public protocol MPRISHost: AnyObject {
    /// Whether there is a window to bring forward (false for the headless player).
    var canRaise: Bool { get }
    func raise()
    /// Quits after saving what needs saving.
    func quit()
    var canGoNext: Bool { get }
    var hasPrevious: Bool { get }
    func next()
    func previous()
    func open(uri: String)
    /// The show, artist and artwork of the item at `uri`, when the library knows it.
    func libraryMetadata(forURI uri: String) -> MPRISLibraryMetadata?
}

/// What the library knows of an item that its media file may not say.
public struct MPRISLibraryMetadata: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    /// The show.
    public var album: String?
    /// A `file://` URL of cached artwork.
    public var artURL: String?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, artURL: String? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.artURL = artURL
    }
}
