import Bindings
import TrackcastCore

/// Everything the controller knows about the item it is playing, from
/// `load` until the next `load` or `stop`. The controller keeps exactly one;
/// anything that outlives it (a task finishing late) compares itself with
/// the controller's current session before acting, and does nothing if it
/// is not the same.
@MainActor
final class ItemSession {
    let id: PlaybackItemID
    let item: PlaybackItem
    let observers: ItemObservers

    /// What the item is: from the prerolled pipeline, with the probe's
    /// details merged in; nil until the pipeline has prerolled.
    var asset: LoadedAsset?
    /// The tags the pipeline has posted, for the asset it makes.
    var pipelineTags = MediaTags()
    /// The probe has been started (it runs once per item).
    var isProbed = false
    /// The probe's findings when they come before the preroll, to merge then.
    var probedAsset: LoadedAsset?
    /// The pipeline reached PAUSED with data (or is live and never will).
    var isPrerolled = false
    /// Playing from a progressive download rather than a stream.
    var isDownloading = false
    /// The pipeline said NO_PREROLL: a live source.
    var isLiveSource = false
    /// Where to start, until the first seek is made.
    var pendingStart: Duration?
    var isInitialSeekDone = false
    var isInitialSeekInFlight = false
    /// The rate the pipeline plays at, as last set by a seek.
    var appliedRate = 1.0
    /// `ready` has been published: from here on the pipeline's states are the item's.
    var isReady = false
    /// A seek the user asked for, until the pipeline says it landed.
    var isSeekInFlight = false
    var seekTarget = Duration.zero
    /// The seek in flight is a fast (key-unit) one: a scrubber is being dragged.
    var isFastSeekInFlight = false
    /// The newest seek asked for while a fast one was in flight; made when
    /// it lands, so a drag keeps one seek in flight, not one per step.
    var queuedSeek: (position: Duration, flags: SeekFlags)?
    /// A pause or play that completes later, with an ASYNC_DONE of its own.
    var isStateChangeInFlight = false
    /// A seek asked for while a state change was in flight; made when it completes.
    var deferredSeek: (position: Duration, flags: SeekFlags)?
    /// What the user wants: playing, or paused. Buffering pauses the pipeline, not this.
    var wantsPlaying: Bool
    /// An HLS item is to wait at ready, paused, until the app releases it
    /// (`PlayerController.releaseHold(of:)`): the app reads the playlist's
    /// interstitials first, so that a PRE one plays before any of the item.
    var holdsHLS = false
    /// While an HLS item waits at ready: whether it plays once released.
    /// `wantsPlaying` is false meanwhile, so nothing takes it to PLAYING.
    var playsOnRelease: Bool?
    /// Paused because the sound server corked the stream; it plays again
    /// when the server uncorks it, unless the listener paused or played since.
    var isCorked = false
    /// Where it was when its sound output went away with no other to move
    /// to: the pipeline is back at READY, and Play opens an output again from here.
    var outputLostAt: Duration?
    /// Play after a lost output: prerolling again and seeking back; PLAYING
    /// once the seek lands.
    var isReopeningOutput = false
    var bufferingPercent = 100
    var hasFailed = false
    var hasEnded = false
    /// The subtitle file shown beside the media's own streams (playbin's `suburi`).
    let subtitleFile: SubtitleFile?
    /// GStreamer could not tell what the subtitle file is (playbin then
    /// plays on without it, with only a warning).
    var isSubtitleFileUnrecognised = false
    /// Subtitles on (the flags' text bit); each item starts with them on.
    var showsSubtitles = true
    /// Descriptions from missing-plugin messages, for classifying the error that follows.
    var missingPlugins: [String] = []
    /// The probe, the load timeout, error classification.
    private var tasks: [Task<Void, Never>] = []
    /// Fails the item if the buffer stops filling; running while it is below 100%.
    var stallWatch: Task<Void, Never>?

    init(id: PlaybackItemID, item: PlaybackItem, subtitleFile: SubtitleFile?, wantsPlaying: Bool, start: Duration?,
         observers: ItemObservers) {
        self.id = id
        self.item = item
        self.subtitleFile = subtitleFile
        self.wantsPlaying = wantsPlaying
        self.pendingStart = start
        self.observers = observers
    }

    var isLive: Bool { isLiveSource || asset?.isLive == true }

    /// Closed: replaced or stopped. A task added now is cancelled at once:
    /// nothing else would ever cancel it.
    private(set) var isClosed = false

    func addTask(_ task: Task<Void, Never>) {
        guard !isClosed else {
            task.cancel()
            return
        }
        tasks.append(task)
    }

    func cancelTasks() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        stallWatch?.cancel()
        stallWatch = nil
    }

    /// The item is being replaced or stopped.
    func close() {
        isClosed = true
        cancelTasks()
        observers.close()
    }
}
