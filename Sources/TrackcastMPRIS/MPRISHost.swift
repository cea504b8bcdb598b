/// The owner of "what is playing" that MPRIS is a remote of, and what it
/// asks of the application around the player: the window, the queue, and
/// what is known about the current item beyond its media file.
///
/// Every command MPRIS receives goes here; the service itself only reads the
/// player, so a media key takes the same path as the window's own button.
@MainActor
public protocol MPRISHost: AnyObject {
    func play()
    func pause()
    func playPause()
    func stop()
    /// A jump the listener asked for (Seek, SetPosition, Previous's restart).
    func seek(to position: Duration)
    /// A rate in `PlaybackRate.range`; 0 has already become a pause.
    func setRate(_ rate: Double)
    /// A volume in 0…1.
    func setVolume(_ volume: Double)

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
    /// The ID of the HLS interstitial the item is (`trackcast:interstitial`), nil for content.
    public var interstitial: String?
    /// No seeking now (an interstitial that may not be skipped): CanSeek is false.
    public var forbidsSeeking: Bool

    public init(title: String? = nil, artist: String? = nil, album: String? = nil, artURL: String? = nil,
                interstitial: String? = nil, forbidsSeeking: Bool = false) {
        self.title = title
        self.artist = artist
        self.album = album
        self.artURL = artURL
        self.interstitial = interstitial
        self.forbidsSeeking = forbidsSeeking
    }
}
