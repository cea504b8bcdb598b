import Bindings
import TrackcastCore
import TrackcastPlayback

/// The player as MPRIS describes it, at one moment. Position is left out on
/// purpose: the specification forbids PropertiesChanged for it, and clients
/// read it live.
struct MPRISSnapshot: Equatable {
    var status: String
    var rate: Double
    var volume: Double
    var trackID: String
    var metadata: Variant
    var canGoNext: Bool
    var canGoPrevious: Bool
    var canPlay: Bool
    var canPause: Bool
    var canSeek: Bool

    /// The object path that stands for "no track", from the specification.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    @MainActor
    init(player: PlayerController, phase: PlaybackPhase, host: (any MPRISHost)?) {
        status = switch phase {
        case .playing, .buffering: "Playing"
        case .paused, .ready: "Paused"
        case .idle, .loading, .ended, .failed: "Stopped"
        }
        rate = player.rate.value
        volume = player.volume
        let item = player.currentItem
        trackID = player.currentItemID.map { "\(AppIdentity.objectPath)/Track/\($0.rawValue)" } ?? Self.noTrack
        var entries: [String: Variant] = ["mpris:trackid": Variant(objectPath: trackID)!]
        let known = item.flatMap { host?.libraryMetadata(forURI: $0.uri) }
        if let item {
            let asset = player.asset
            if let title = known?.title ?? item.title ?? asset?.title { entries["xesam:title"] = Variant(title) }
            if let artist = known?.artist ?? asset?.artist { entries["xesam:artist"] = Variant(strings: [artist]) }
            if let album = known?.album ?? asset?.album { entries["xesam:album"] = Variant(album) }
            if let art = known?.artURL { entries["mpris:artUrl"] = Variant(art) }
            if let interstitial = known?.interstitial { entries["trackcast:interstitial"] = Variant(interstitial) }
            // A live item has no length, whatever the pipeline guesses.
            if asset?.isLive != true, let duration = player.duration {
                entries["mpris:length"] = Variant(duration.microseconds)
            }
            entries["xesam:url"] = Variant(item.uri)
        }
        metadata = Variant(dictionary: entries)
        let loaded = item != nil && !phase.isFailure
        canGoNext = host?.canGoNext ?? false
        canGoPrevious = loaded || (host?.hasPrevious ?? false)
        canPlay = loaded
        canPause = loaded
        // A live item seeks as far as its window (a DVR playlist) allows.
        canSeek = loaded && known?.forbidsSeeking != true
            && player.asset.map { $0.isLive ? player.liveSeekWindow != nil : $0.isSeekable } ?? false
    }

    /// The Player interface's properties, Position aside.
    var properties: [String: Variant] {
        [
            "PlaybackStatus": Variant(status),
            "Rate": Variant(rate),
            "Volume": Variant(volume),
            "Metadata": metadata,
            "CanGoNext": Variant(canGoNext),
            "CanGoPrevious": Variant(canGoPrevious),
            "CanPlay": Variant(canPlay),
            "CanPause": Variant(canPause),
            "CanSeek": Variant(canSeek),
        ]
    }
}

extension Duration {
    /// Whole microseconds, MPRIS's unit of time.
    var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }

    init(microseconds: Int64) {
        self = .microseconds(microseconds)
    }
}
