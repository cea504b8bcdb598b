import TrackcastCore
import TrackcastMPRIS
import TrackcastPlayback

/// The smallest real host: the owner of a real player that MPRIS's
/// commands reach, a fixed queue of files that Next and Previous walk
/// through, and a record of what else MPRIS asked for.
@MainActor
final class QueueHost: MPRISHost {
    let player: PlayerController
    let items: [PlaybackItem]
    /// For Seeked after a jump.
    weak var service: MPRISService?
    private(set) var index = 0
    private(set) var raised = 0
    private(set) var quitRequests = 0
    private(set) var nextRequests = 0
    private(set) var opened: [String] = []

    init(player: PlayerController, items: [PlaybackItem]) {
        self.player = player
        self.items = items
    }

    func playCurrent() { player.load(items[index]) }

    func play() { player.play() }
    func pause() { player.pause() }
    func playPause() { player.toggle() }
    func stop() { player.stop() }

    func seek(to position: Duration) {
        player.seek(to: position)
        service?.didSeek(to: position)
    }

    func setRate(_ rate: Double) { player.setRate(PlaybackRate(rate)) }
    func setVolume(_ volume: Double) { player.volume = volume }

    var canRaise: Bool { false }
    func raise() { raised += 1 }
    func quit() { quitRequests += 1 }
    var canGoNext: Bool { index + 1 < items.count }
    var hasPrevious: Bool { index > 0 }

    func next() {
        nextRequests += 1
        guard canGoNext else { return }
        index += 1
        playCurrent()
    }

    func previous() {
        guard hasPrevious else { return }
        index -= 1
        playCurrent()
    }

    func open(uri: String) { opened.append(uri) }

    func libraryMetadata(forURI uri: String) -> MPRISLibraryMetadata? {
        MPRISLibraryMetadata(artist: "The Trackcast developers", album: "Trackcast Sample Show",
                             artURL: "file:///usr/share/trackcast/sample/cover.png")
    }
}
