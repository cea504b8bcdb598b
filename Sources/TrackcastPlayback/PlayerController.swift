import Bindings
import TrackcastCore

/// How a seek lands.
public enum SeekMode: Sendable {
    /// On the exact position (GStreamer's ACCURATE): for "resume at 12:03"
    /// and when a scrubber is released.
    case exact
    /// On the nearest key frame (KEY_UNIT): cheap, while a scrubber is dragged.
    case fast
}

/// How many seeks of each kind a controller has made.
public struct SeekCounts: Sendable, Equatable {
    public var fast = 0
    public var exact = 0
}

/// Plays one item at a time through one `playbin`.
///
/// Ordering is the point. Every load gets a fresh `PlaybackItemID` and an
/// `ItemSession`; `load` first tears the previous item down (its tasks, its
/// observers, the pipeline to NULL and the bus emptied), so whatever the
/// bus delivers afterwards belongs to the new item. Work that awaits (the
/// asset probe, error classification) checks, when it resumes, that its
/// session is still the current one. States go to the `PlaybackStateStore`
/// in order through one queue, and the store drops anything not tagged with
/// the active load: an error from an episode the user has left behind can
/// never reach the screen.
@MainActor
public final class PlayerController {
    public let store: PlaybackStateStore
    public let configuration: PlayerConfiguration
    /// Applies to every item until changed.
    public private(set) var rate = PlaybackRate.normal

    /// Internal, not private, so that tests can post to its bus what its elements would.
    let playbin: Playbin
    /// playbin's audio sink: our volume, then the sink; the listening
    /// effects go in front of the volume when an item needs them. The
    /// volume is ours, not playbin's soft-volume: 1.22's playsink leaks the
    /// volume element it makes for soft-volume at every return to NULL, one
    /// per item (PlaybackLeakTests found it).
    private var audioOutput: AudioOutputBin
    private let bus: Bus
    private var busWatch: BusWatch?
    private let loader: AssetLoader
    private let classifier: PlaybackErrorClassifier
    private let storeQueue: AsyncStream<StoreCommand>.Continuation
    private var session: ItemSession?
    private let plugged = PluggedElements()
    /// The seeks handed to the pipeline, for the scrubbing tests: a drag of
    /// many steps makes few fast seeks, since one waits for the last to land.
    public private(set) var seeksMade = SeekCounts()
    /// The data saver's caps, read by adaptive demuxers as they are made
    /// (on GStreamer's threads) and pushed to the playing one when they change.
    private let streamLimitSetting: StreamLimitSetting

    /// Caps on the variants adaptive streams choose (the data saver): they
    /// apply at once to the stream playing, and to every item after.
    public var streamLimits: StreamLimits {
        get { streamLimitSetting.limits }
        set {
            guard newValue != streamLimitSetting.limits else { return }
            streamLimitSetting.limits = newValue
            applyStreamLimits()
        }
    }

    /// Tells the player the variants of item `id`'s stream (its master
    /// playlist's, which the app reads), so that a height cap reaches a
    /// demuxer that chooses by bandwidth alone. A new load replaces them
    /// with its own (`load(_:streamVariants:)`).
    public func setStreamVariants(_ variants: [StreamVariant], of id: PlaybackItemID) {
        guard session?.id == id, variants != streamLimitSetting.variants else { return }
        streamLimitSetting.variants = variants
        applyStreamLimits()
    }

    /// The caps to playbin (for demuxers to come) and to the demuxers there are.
    private func applyStreamLimits() {
        playbin.connectionSpeed = streamLimitSetting.connectionSpeed
        let demuxers = playbin.descendants(withProperty: "connection-speed").filter(StreamLimitSetting.isAdaptiveDemuxer)
        for demuxer in demuxers { streamLimitSetting.apply(to: demuxer) }
        // What the demuxers now hold, read back from them.
        let held = demuxers.compactMap { try? $0.property("connection-speed", as: UInt32.self) }.map(String.init)
        Log.debug("stream limits: \(streamLimitSetting.limits), \(streamLimitSetting.variants.count) variants "
                  + "(\(demuxers.count) demuxers, connection-speed \(held.joined(separator: " ")))")
    }

    /// What `stop` stopped, so `play` can start it again.
    private var stoppedItem: PlaybackItem?
    /// playbin's flags and ring buffer as last set (`setFlags`).
    private var appliedFlags: String?
    private var appliedRingBuffer: UInt64 = 0
    /// Pauses the item whose output device went away (`outputDeviceLost`).
    private let outputWatch: OutputDeviceWatch

    public init(configuration: PlayerConfiguration = .fromEnvironment(),
                store: PlaybackStateStore = PlaybackStateStore()) throws {
        self.configuration = configuration
        self.store = store
        loader = AssetLoader(timeout: configuration.loadTimeout, networkTimeout: configuration.networkTimeout)
        classifier = PlaybackErrorClassifier(checkTimeout: configuration.networkTimeout)

        playbin = try Playbin(.playbin)
        // Set up before the element-setup handler below can call it; it
        // reaches the controller through a weak reference set at the end.
        let controllerRef = WeakController()
        outputWatch = OutputDeviceWatch { id in
            Task { @MainActor in controllerRef.controller?.outputDeviceLost(id) }
        }
        audioOutput = try AudioOutputBin(sink: try configuration.audioSink.map(Element.bin(describedBy:))
            ?? Element.make("autoaudiosink"))
        playbin.setAudioSink(audioOutput)
        if configuration.decodesVideo, let sink = configuration.videoSink {
            playbin.setVideoSink(try Element.bin(describedBy: sink))
        }
        playbin.bufferDuration = configuration.forwardBuffer
        let limits = StreamLimitSetting(StreamLimits(maximumBitrate: configuration.maximumBitrate),
                                        connectionSpeed: configuration.connectionSpeed)
        streamLimitSetting = limits
        playbin.connectionSpeed = limits.connectionSpeed
        let sourceSettings = SourceSettings()
        playbin.onSourceSetup { source in sourceSettings.apply(to: source) }
        playbin.onElementSetup { [plugged, outputWatch] element in
            if let factory = element.factoryName {
                plugged.note(factory, isDecoder: element.factoryClassification?.contains("Decoder") == true)
            }
            // playbin's flags keep video from the screen, not from the
            // decoder: audio items tell decodebin to skip video decoders.
            if element.hasSignal("autoplug-select") {
                element.onAutoplugSelect { _, classification in
                    let isVideoDecoder = classification.contains("Decoder") && classification.contains("Video")
                    return isVideoDecoder && !plugged.decodesVideo ? .skip : .tryIt
                }
            }
            // The sound server's view of the stream (volume mixers, GNOME
            // Settings, ducking): who plays it and what it is.
            if element.hasProperty("stream-properties") {
                element.setProperty("stream-properties", structureNamed: "props", strings: [
                    "media.role": plugged.decodesVideo ? "video" : "music",
                    "application.name": AppIdentity.name,
                    "application.id": AppIdentity.id,
                    "application.icon_name": AppIdentity.id,
                ])
            }
            outputWatch.watch(element)
            // Adaptive demuxers choose variants under the data saver's caps.
            if StreamLimitSetting.isAdaptiveDemuxer(element) {
                limits.apply(to: element)
                let held = (try? element.property("connection-speed", as: UInt32.self)).map(String.init) ?? "?"
                Log.debug("stream limits: \(element.factoryName ?? "a demuxer") made with connection-speed \(held)")
            }
        }
        bus = playbin.bus!

        // One consumer, so the store sees states in the order they were sent.
        let (commands, queue) = AsyncStream.makeStream(of: StoreCommand.self)
        storeQueue = queue
        Task.detached { [store] in
            for await command in commands { await command.run(on: store) }
        }
        busWatch = BusWatch(bus: bus, kinds: Self.handledMessages, stateChangesOf: playbin) { [weak self] message in
            self?.handle(message)
        }
        controllerRef.controller = self
    }

    isolated deinit {
        session?.close()
        busWatch?.remove()
        playbin.setState(.null)
        storeQueue.finish()
    }

    /// Replaces the audio output. Call it before the first load: playbin
    /// takes a new sink only in NULL or READY.
    public func setAudioSink(_ sink: Element) throws(GStreamerError) {
        audioOutput = try AudioOutputBin(sink: sink)
        effectsChain = nil
        playbin.setAudioSink(audioOutput)
        applyVolume()
    }

    /// Replaces the video output (e.g. a `VideoPaintable`'s sink and
    /// filter). Call it before the first load: playbin takes a new sink only
    /// in NULL or READY.
    public func setVideoSink(_ sink: Element, filter: Element? = nil) {
        guard configuration.decodesVideo else { return }
        playbin.setVideoSink(sink)
        playbin.setVideoFilter(filter)
    }

    // MARK: What is playing

    public var currentItemID: PlaybackItemID? { session?.id }
    public var currentItem: PlaybackItem? { session?.item }
    /// What is known about the current item: from `ready` on, what the
    /// pipeline found, with the probe's details merged in when they come
    /// (`assetUpdates(of:)`); nil while it loads.
    public var asset: LoadedAsset? { session?.asset }

    public var position: Duration? {
        guard let session else { return nil }
        return session.outputLostAt ?? playbin.position
    }

    public var duration: Duration? {
        guard let session else { return nil }
        return session.asset?.duration ?? playbin.duration
    }

    /// The stream demuxer the current item plays through ("hlsdemux",
    /// "dashdemux", "icydemux"), nil for a file.
    public var streamDemuxer: String? { session == nil ? nil : plugged.streamDemuxer }

    /// The decoders (element factories) the current item uses, e.g. ["opusdec"].
    public var activeDecoders: [String] { plugged.decoders }

    /// Linear, 0–1: the listener's volume, as MPRIS and the volume control show it.
    public var volume: Double = 1 {
        didSet {
            volume = min(max(volume.isNaN ? 1 : volume, 0), 1)
            applyVolume()
        }
    }

    public var isMuted = false {
        didSet { applyVolume() }
    }

    /// Linear, 0–1, applied over `volume`: a fade out (the sleep timer's)
    /// that leaves the listener's own volume as it was.
    public var fadeLevel: Double = 1 {
        didSet {
            fadeLevel = min(max(fadeLevel.isNaN ? 1 : fadeLevel, 0), 1)
            applyVolume()
        }
    }

    private func applyVolume() {
        try? audioOutput.volume.setProperty("volume", volume * fadeLevel)
        try? audioOutput.volume.setProperty("mute", isMuted)
    }

    // MARK: Loading

    /// Stops whatever was playing and loads `item`; plays it when ready if
    /// `autoplay`, from `start` if given, with `subtitles` over its video
    /// if given. Returns the load's ID, which every state and observer
    /// event of this item carries.
    ///
    /// `streamVariants` are the item's stream's variants, when the caller
    /// has read them already (see `setStreamVariants`); none otherwise.
    ///
    /// With `holdsHLS`, an item that turns out to be HLS (hlsdemux) waits
    /// at ready, paused, until `releaseHold(of:)`, whatever `autoplay`
    /// says (which it then follows): the app reads the playlist's
    /// interstitials meanwhile. A release before ready costs nothing; any
    /// other item never waits.
    @discardableResult
    public func load(_ item: PlaybackItem, startingAt start: Duration? = nil, autoplay: Bool = true,
                     subtitles: SubtitleFile? = nil, holdsHLS: Bool = false,
                     streamVariants: [StreamVariant] = []) -> PlaybackItemID {
        endSession()
        let id = PlaybackItemID.next()
        let observers = ItemObservers(itemID: id, interval: configuration.tickInterval) { [weak self] in
            (self?.playbin.position, self?.duration, self?.rate.value ?? 1)
        }
        let subtitles = decodesVideo(item) ? subtitles : nil
        let session = ItemSession(id: id, item: item, subtitleFile: subtitles, wantsPlaying: autoplay, start: start,
                                  observers: observers)
        session.holdsHLS = holdsHLS
        self.session = session
        if streamLimitSetting.variants != streamVariants {
            streamLimitSetting.variants = streamVariants
            playbin.connectionSpeed = streamLimitSetting.connectionSpeed
        }
        stoppedItem = nil
        outputWatch.begin(id)

        plugged.reset(decodesVideo: decodesVideo(item))
        session.isDownloading = Self.isHTTP(item.uri) && Self.namesOggFile(item.uri)
        setFlags(for: session)
        audioOutput.removeEffects()
        effectsChain = nil
        addEffectsIfNeeded()
        playbin.uri = item.uri
        // Always set, so an item without one does not inherit the last one's.
        playbin.subtitleURI = subtitles?.url.absoluteString
        // Not straight to PLAYING, though it would save a main-loop turn:
        // GStreamer 1.22 then sometimes finalises a failing demuxer on its
        // own streaming thread (a truncated MP4: a GstTask leaked, or a crash).
        if playbin.setState(.paused) == .noPreroll {
            session.isLiveSource = true
            session.isPrerolled = true
        }
        // The store hears of the item once its pipeline has started; every
        // state of its comes later, through the bus or its tasks.
        send(.begin(id))
        // A second opinion for an item that is slow to preroll: a pipeline
        // can stall without an error (decodebin drops a demuxer's error that
        // races its plugging), and a probe that fails says why.
        session.addTask(Task { [weak self] in
            guard (try? await Task.sleep(for: Self.secondOpinionAfter)) != nil else { return }
            if !session.isReady { self?.probe(session) }
        })
        let loadTimeout = configuration.loadTimeout
        session.addTask(Task { [weak self] in
            guard (try? await Task.sleep(for: loadTimeout)) != nil else { return }
            if !session.isReady { self?.fail(session, .timeout) }
        })
        return id
    }

    /// How long an item may take to preroll before the probe is asked why.
    private static let secondOpinionAfter: Duration = .milliseconds(750)

    /// Probes the item once: for its details once it is ready, or sooner
    /// for a second opinion on an item that is slow to get there.
    private func probe(_ session: ItemSession) {
        // A second-opinion timer that woke just before the item was replaced.
        guard isCurrent(session), !session.isProbed else { return }
        session.isProbed = true
        let uri = session.item.uri
        // A second opinion on a local file is asked again while it times
        // out: such a probe takes milliseconds, unless it meets by chance the
        // race it is asked about (decodebin dropping a demuxer's error while
        // it plugs, which leaves a pipeline waiting), as the pipeline did.
        let attempt: Duration? = !session.isReady && uri.hasPrefix("file:") ? Self.localSecondOpinionAttempt : nil
        session.addTask(Task { [weak self, loader] in
            while true {
                do {
                    let asset = try await loader.load(uri, timeout: attempt)
                    self?.probed(asset, for: session)
                } catch PlaybackError.timeout where attempt != nil && !session.isReady && !session.hasFailed
                            && !session.isClosed && !Task.isCancelled {
                    continue
                } catch let error as PlaybackError {
                    self?.probeFailed(session, error)
                } catch {
                    // Cancelled: the item was replaced or stopped.
                }
                return
            }
        })
    }

    /// How long each second-opinion probe of a local file may take; the
    /// load's own timeout still bounds them all.
    private static let localSecondOpinionAttempt: Duration = .seconds(2)

    private func decodesVideo(_ item: PlaybackItem) -> Bool {
        configuration.decodesVideo && item.kind != .audio
    }

    private func flags(for session: ItemSession) -> String {
        let item = session.item
        // "text" draws the chosen subtitle stream into the picture
        // (playbin's subtitleoverlay); without it no subtitle is decoded.
        var flags = decodesVideo(item)
            ? "video+audio+deinterlace+soft-colorbalance" + (session.showsSubtitles ? "+text" : "")
            : "audio"
        if buffers(item) { flags += "+buffering" }
        return session.isDownloading ? flags + "+download" : flags
    }

    /// Whether playbin buffers the item's demuxed data and reports it (network
    /// streams); a local file would only wait for a buffer it does not need.
    private func buffers(_ item: PlaybackItem) -> Bool {
        !item.uri.hasPrefix("file:")
    }

    /// Sets what changed since the last item: playbin keeps both through
    /// NULL, and parsing the flags and setting them cost each load about
    /// 0.1 ms before its pipeline started.
    private func setFlags(for session: ItemSession) {
        let flags = flags(for: session)
        if flags != appliedFlags {
            playbin.setFlags(flags)
            appliedFlags = flags
        }
        // A download keeps a ring buffer, so that a stream that never ends
        // cannot fill the disk. Streaming keeps none: with one, it would stop
        // asking the server for byte ranges.
        let ringBuffer = UInt64(session.isDownloading ? 256 << 20 : 0)
        if ringBuffer != appliedRingBuffer {
            try? playbin.setProperty("ring-buffer-max-size", ringBuffer)
            appliedRingBuffer = ringBuffer
        }
    }

    private static func isHTTP(_ uri: String) -> Bool {
        uri.hasPrefix("http://") || uri.hasPrefix("https://")
    }

    /// Whether the address ends in an Ogg file name (…/episode.opus?x=1).
    /// Such files are downloaded from the start, saving the second preroll
    /// that `needsDownload` costs the Ogg files whose address does not say so.
    private static func namesOggFile(_ uri: String) -> Bool {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return ["ogg", "oga", "opus", "spx"].contains(path[path.index(after: dot)...].lowercased())
    }

    /// Whether the prerolled item is better played from a progressive
    /// download than streamed: an HTTP file whose streaming pipeline knows
    /// neither its length nor how to seek (Ogg: its demuxer knows both when
    /// it reads a download). Live streams keep streaming.
    private func needsDownload(_ session: ItemSession) -> Bool {
        Self.isHTTP(session.item.uri) && !session.isLive && plugged.streamDemuxer == nil && !session.isDownloading
            && playbin.duration == nil && playbin.seeking?.isSeekable != true
    }

    /// Prerolls the current item again, downloading. From NULL, so that no
    /// message of the first preroll is left on the bus to be taken for this one.
    private func prerollDownloading(_ session: ItemSession) {
        session.isDownloading = true
        playbin.setState(.null)
        setFlags(for: session)
        session.isPrerolled = false
        if playbin.setState(.paused) == .noPreroll {
            session.isLiveSource = true
            session.isPrerolled = true
        }
    }

    private func probed(_ asset: LoadedAsset, for session: ItemSession) {
        guard isCurrent(session), !session.hasFailed else { return }
        if let known = session.asset {
            assetChanged(known.merging(probe: asset), for: session)
        } else {
            session.probedAsset = asset
        }
    }

    /// Once the item is ready the probe only added details: it plays on
    /// without them. Before, the probe says why the pipeline is stuck.
    private func probeFailed(_ session: ItemSession, _ error: PlaybackError) {
        guard isCurrent(session), !session.hasFailed else { return }
        Log.debug("playback \(session.id): the probe failed: \(error)")
        if !session.isReady { fail(session, error) }
    }

    private func assetChanged(_ asset: LoadedAsset, for session: ItemSession) {
        guard asset != session.asset else { return }
        session.asset = asset
        if session.isReady { session.observers.assetChanged(asset) }
    }

    /// Moves a loading item on once its parts are there: the preroll, the
    /// first seek (start position and rate), a full buffer.
    private func advanceLoad(_ session: ItemSession) {
        guard isCurrent(session), !session.hasFailed, !session.isReady,
              session.isPrerolled, !session.isInitialSeekInFlight else { return }
        if needsDownload(session) {
            prerollDownloading(session)
            return
        }
        if session.asset == nil {
            let asset = LoadedAsset(prerolled: playbin, isLiveSource: session.isLiveSource,
                                    streamDemuxer: plugged.streamDemuxer, tags: session.pipelineTags)
            session.asset = session.probedAsset.map(asset.merging(probe:)) ?? asset
        }
        if !session.isInitialSeekDone {
            session.isInitialSeekDone = true
            if !session.isLive, session.pendingStart != nil || rate != .normal {
                let target = clamped(session.pendingStart ?? .zero, for: session)
                session.pendingStart = nil
                session.isInitialSeekInFlight = true
                session.appliedRate = rate.value
                playbin.seek(to: target, rate: rate.value, flags: [.flush, .accurate])
                session.observers.jumped(to: target)
                return
            }
        }
        guard session.bufferingPercent == 100 || session.isLive else { return }
        session.isReady = true
        if session.holdsHLS, plugged.streamDemuxer?.hasPrefix("hlsdemux") == true {
            Log.debug("playback \(session.id): held at ready until its playlist is read")
            session.playsOnRelease = session.wantsPlaying
            session.wantsPlaying = false
        }
        // Playing first: the rest only reads the pipeline and tells others,
        // and the first sound need wait for none of it. Its PLAYING comes
        // through the bus, so the store still hears "ready" first.
        if !session.isLive, session.appliedRate != rate.value { applyRate(to: session) }
        if session.wantsPlaying { playbin.setState(.playing) }
        // The prerolled pipeline knows better than the probe: some containers
        // (Ogg over HTTP) only know their duration now, and HTTP sources
        // often only now know they can seek.
        if !session.isLive {
            if session.asset?.duration == nil { session.asset?.duration = playbin.duration }
            if let seeking = playbin.seeking { session.asset?.isSeekable = seeking.isSeekable }
        }
        send(.apply(.ready(isLive: session.isLive), session.id))
        session.observers.happened(.ready(isLive: session.isLive))
        if decodesVideo(session.item) { Log.debug("playback \(session.id): tracks: \(tracks.summary)") }
        // Only now: the probe would slow the preroll down, and it only adds
        // details. Not over the network: it would download the start again,
        // and GStreamer 1.22's discoverer, stopped in the middle of an HTTP
        // probe when the item changes, now and then crashed in its queue2
        // thread (the leak check's 200 item changes found it); the playing
        // pipeline's own tags and table of contents serve there.
        if configuration.probesAssets, !Self.isHTTP(session.item.uri) { probe(session) }
    }

    // MARK: Transport

    /// Lets item `id` play, as `load(_:startingAt:autoplay:subtitles:holdsHLS:)` says.
    public func releaseHold(of id: PlaybackItemID) {
        guard let session, session.id == id else { return }
        session.holdsHLS = false
        guard let playsOnRelease = session.playsOnRelease else { return }
        session.playsOnRelease = nil
        Log.debug("playback \(id): released")
        if playsOnRelease { play() }
    }

    public func play() {
        guard let session else {
            if let stoppedItem { load(stoppedItem) }
            return
        }
        guard !session.hasFailed else { return }
        if session.playsOnRelease != nil {
            session.playsOnRelease = true
            return
        }
        session.wantsPlaying = true
        session.isCorked = false
        if let lostAt = session.outputLostAt {
            reopenOutput(session, at: lostAt)
            return
        }
        guard session.isReady else { return }
        if session.hasEnded {
            session.hasEnded = false
            playbin.seek(to: .zero, rate: rate.value, flags: [.flush, .accurate])
            session.observers.jumped(to: .zero)
        }
        if session.bufferingPercent == 100 || session.isLive {
            changeState(to: .playing, of: session)
        } else {
            send(.apply(.buffering(percent: session.bufferingPercent), session.id))
        }
    }

    public func pause() {
        guard let session, !session.hasFailed else { return }
        if session.playsOnRelease != nil { session.playsOnRelease = false }
        session.wantsPlaying = false
        session.isCorked = false
        guard session.isReady, !session.hasEnded, session.outputLostAt == nil else { return }
        changeState(to: .paused, of: session)
        session.observers.playbackStopped()
        send(.apply(.paused, session.id))
    }

    public func toggle() {
        if wantsPlaying { pause() } else { play() }
    }

    /// Whether the current item plays or is to play once it can (loading,
    /// buffering, a seek under way): the controller's intent, not its phase.
    public var wantsPlaying: Bool { session.map { $0.wantsPlaying || $0.playsOnRelease == true } ?? false }

    /// Unloads the item; `play()` loads it again from the start.
    public func stop() {
        guard let session else { return }
        let id = session.id
        stoppedItem = session.item
        endSession()
        prepareEffectsChain()
        send(.apply(.idle, id))
    }

    /// The span a live item can be sought within (the playlist's DVR window),
    /// as the pipeline answers a seeking query; nil for an item that is not
    /// live, or a live one that cannot seek (radio, a playlist of a few segments).
    public var liveSeekWindow: ClosedRange<Duration>? {
        guard let session, session.isLive, session.isReady, let seeking = playbin.seeking, seeking.isSeekable,
              let start = seeking.start, let end = seeking.end, end > start else { return nil }
        return start...end
    }

    /// How far behind the live edge a live item plays (the newest position
    /// its window can seek to, less where it is); nil unless it can seek.
    public var liveLag: Duration? {
        guard let window = liveSeekWindow, let position = playbin.position else { return nil }
        return max(.zero, window.upperBound - position)
    }

    /// Jumps a live item that can seek to its live edge.
    public func goToLive() {
        guard let window = liveSeekWindow else { return }
        seek(to: window.upperBound)
    }

    /// Seeks the current item. Before it is ready, the position becomes
    /// where it starts. A live item seeks only within its window.
    public func seek(to target: Duration, mode: SeekMode = .exact) {
        guard let session, !session.hasFailed else { return }
        let position: Duration
        if session.isLive {
            // Within the window, or not at all (radio).
            guard let window = liveSeekWindow else { return }
            position = min(max(target, window.lowerBound), window.upperBound)
        } else {
            guard session.isInitialSeekDone else {
                session.pendingStart = target
                return
            }
            if session.outputLostAt != nil {
                // No pipeline to seek: Play opens the output again from there.
                session.outputLostAt = clamped(target, for: session)
                session.observers.jumped(to: target)
                return
            }
            // The probe's "seekable" is a guess made before the download got far
            // (MP3 over HTTP often says no); GStreamer refuses what it cannot do.
            position = clamped(target, for: session)
        }
        let flags: SeekFlags = mode == .exact ? [.flush, .accurate] : [.flush, .keyUnit, .snapNearest]
        if session.isStateChangeInFlight {
            // That change's ASYNC_DONE is still to come and would pass for
            // this seek's: the seek waits for it (the latest one wins).
            session.deferredSeek = (position, flags)
        } else if session.isSeekInFlight, mode == .fast || session.isFastSeekInFlight {
            // A drag: one seek at a time, the newest position next (the
            // release's exact seek replaces any fast one still waiting).
            session.queuedSeek = (position, flags)
        } else {
            startSeek(to: position, flags: flags, of: session)
        }
        session.observers.jumped(to: position)
        if session.hasEnded {
            session.hasEnded = false
            send(.apply(.paused, session.id))
        }
    }

    private func startSeek(to position: Duration, flags: SeekFlags, of session: ItemSession) {
        session.appliedRate = rate.value
        let isFast = flags.contains(.keyUnit)
        let seconds = Double(position.components.seconds) + Double(position.components.attoseconds) / 1e18
        Log.debug(String(format: "playback \(session.id): seek to %.2f s (%@)", seconds, isFast ? "fast" : "exact"))
        if isFast { seeksMade.fast += 1 } else { seeksMade.exact += 1 }
        if playbin.seek(to: position, rate: rate.value, flags: flags) {
            session.isSeekInFlight = true
            session.isFastSeekInFlight = isFast
            session.seekTarget = position
        }
    }

    /// Pauses or plays the pipeline, noting a change that completes later
    /// (with an ASYNC_DONE) unless a seek's ASYNC_DONE will cover it anyway.
    private func changeState(to state: ElementState, of session: ItemSession) {
        if playbin.setState(state) == .async, !session.isSeekInFlight { session.isStateChangeInFlight = true }
    }

    public func skipForward() { skip(by: configuration.skipForward) }
    public func skipBackward() { skip(by: .zero - configuration.skipBackward) }

    /// Seeks by `offset` from the current position, within the item.
    public func skip(by offset: Duration) {
        guard let position else { return }
        seek(to: position + offset, mode: .exact)
    }

    /// Changes the speed, pitch preserved; it stays for the items that follow.
    public func setRate(_ newRate: PlaybackRate) {
        guard newRate != rate else { return }
        rate = newRate
        addEffectsIfNeeded()
        guard let session, session.isReady, !session.isLive, !session.hasFailed else { return }
        applyRate(to: session)
    }

    private func applyRate(to session: ItemSession) {
        guard let position = playbin.position else { return }
        session.appliedRate = rate.value
        playbin.seek(to: position, rate: rate.value, flags: [.flush, .accurate])
        session.observers.rateChanged()
    }

    private func clamped(_ target: Duration, for session: ItemSession) -> Duration {
        let upper = session.asset?.duration ?? playbin.duration
        return min(max(target, .zero), upper ?? target)
    }

    // MARK: Audio and subtitle tracks

    /// The current item's audio and subtitle tracks and which of them
    /// play, read from the pipeline; `.none` until the item is ready.
    public var tracks: TrackSelection {
        guard let session, session.isReady, !session.hasFailed, decodesVideo(session.item) else { return .none }
        let audio = (0..<playbin.streamCount(.audio)).map { index in
            Self.track(playbin.streamTags(.audio, index), isExternal: false)
        }
        let textCount = playbin.streamCount(.text)
        let external = externalSubtitleIndex(of: session, textCount: textCount)
        let subtitles = (0..<textCount).map { index in
            var track = Self.track(playbin.streamTags(.text, index), isExternal: index == external)
            if index == external {
                track.fileName = session.subtitleFile?.url.lastPathComponent
                if track.languageCode == nil, let code = session.subtitleFile?.languageCode {
                    track.languageCode = code
                    track.languageName = MediaTags.languageName(forCode: code)
                }
            }
            return track
        }
        let shown = session.showsSubtitles && textCount > 0 ? (playbin.currentStream(.text) ?? 0) : nil
        return TrackSelection(audio: audio, subtitles: subtitles,
                              currentAudio: audio.isEmpty ? nil : playbin.currentStream(.audio) ?? 0,
                              currentSubtitle: shown)
    }

    private static func track(_ tags: MediaTags?, isExternal: Bool) -> TrackSelection.Track {
        TrackSelection.Track(languageCode: tags?.languageCode, languageName: tags?.languageName,
                             title: tags?.title, isExternal: isExternal)
    }

    /// Which text stream came from the subtitle file: playbin puts it
    /// among the media's own in no fixed place, so it is told by its
    /// stream's source.
    private func externalSubtitleIndex(of session: ItemSession, textCount: Int) -> Int? {
        guard session.subtitleFile != nil else { return nil }
        return (0..<textCount).first { playbin.isTextStreamFromOtherSource($0) == true }
    }

    /// Whether GStreamer could not tell what the current item's subtitle
    /// file is (it shows nothing of it then); known by `ready`.
    public var isSubtitleFileUnrecognised: Bool { session?.isSubtitleFileUnrecognised ?? false }

    /// Plays audio track `index` from now on, without a seek; it stays
    /// through pauses and seeks until the item changes.
    public func selectAudioTrack(_ index: Int) {
        guard let session, session.isReady, !session.hasFailed,
              (0..<playbin.streamCount(.audio)).contains(index) else { return }
        playbin.setCurrentStream(.audio, index)
        Log.debug("playback \(session.id): tracks: \(tracks.summary)")
    }

    /// Shows subtitle track `index` over the video, or none (nil); it stays
    /// through pauses and seeks until the item changes.
    public func selectSubtitleTrack(_ index: Int?) {
        guard let session, session.isReady, !session.hasFailed else { return }
        if let index {
            guard (0..<playbin.streamCount(.text)).contains(index) else { return }
            playbin.setCurrentStream(.text, index)
        }
        let shows = index != nil
        let turnsOn = shows && !session.showsSubtitles
        if shows != session.showsSubtitles {
            session.showsSubtitles = shows
            // playbin reconfigures its sink for the text bit while playing.
            setFlags(for: session)
        }
        Log.debug("playback \(session.id): tracks: \(tracks.summary)")
        // Subtitles are sparse: the cue on screen now was sent when it
        // began, while the text chain was off. A seek to where the item is
        // sends it again. (A switch between streams needs none: playbin
        // then replays what its text selector kept, and seeks the subtitle
        // file's reader itself when switching to it.)
        if turnsOn, !session.isLive, let position = playbin.position { seek(to: position, mode: .exact) }
    }

    // MARK: Listening effects

    /// Skip silence and voice boost; they stay for the items that follow.
    public private(set) var listeningEffects = ListeningEffects()
    /// The current item's effects, once it needs them.
    private var effectsChain: ListeningEffectsChain?

    /// Switches the effects; the current item hears the change at once,
    /// without a seek or a state change.
    public func setListeningEffects(_ effects: ListeningEffects) {
        listeningEffects = effects
        effectsChain?.apply(effects)
        addEffectsIfNeeded()
    }

    /// Listening time skip silence has saved on the current item so far.
    public var timeSavedBySkippingSilence: Duration {
        guard session != nil else { return .zero }
        return effectsChain?.timeSaved ?? .zero
    }

    /// The next chain, made before it is needed (`prepareEffectsChain`).
    private var spareEffectsChain: ListeningEffectsChain?

    private var needsEffects: Bool {
        rate != .normal || listeningEffects.skipsSilence || listeningEffects.boostsVoice
    }

    /// Puts the effects in front of the output's volume once the item needs
    /// them: at load, or while it plays, when the rate leaves 1 or an effect
    /// is switched on. They stay in until the next load takes them out. A
    /// fresh chain for each item: GStreamer 1.22's scaletempo keeps state
    /// from the last stream's format and overruns its buffers when the next
    /// differs. The spare one if there is one: making it here cost each
    /// load about half a millisecond before its first buffer.
    /// Without an item, the next load decides.
    private func addEffectsIfNeeded() {
        guard session != nil, needsEffects, effectsChain == nil else { return }
        do {
            let chain = try spareEffectsChain ?? ListeningEffectsChain(listeningEffects)
            spareEffectsChain = nil
            // The spare was made with the effects of its day.
            chain.apply(listeningEffects)
            audioOutput.addEffects(chain.bin)
            effectsChain = chain
        } catch {
            Log.debug("playback: no audio effects: \(error)")
        }
    }

    /// Makes the next chain while this item plays, or once it is stopped:
    /// when the work delays nothing. (So a stopped player always holds one
    /// spare chain, and the leak check's censuses count it alike.)
    private func prepareEffectsChain() {
        guard spareEffectsChain == nil else { return }
        spareEffectsChain = try? ListeningEffectsChain(listeningEffects)
    }

    // MARK: Observing

    /// Position ticks of item `id`, about twice a second while it plays and
    /// none while it does not. Finishes when the item is replaced.
    public func positionTicks(of id: PlaybackItemID) -> AsyncStream<PositionTick> {
        observers(of: id)?.positionTicks() ?? AsyncStream { $0.finish() }
    }

    /// Each of `times` as playback of item `id` passes it (not when a seek
    /// jumps over it): chapter starts, "stop at the end of this chapter".
    public func boundaryCrossings(_ times: [Duration], of id: PlaybackItemID) -> AsyncStream<Duration> {
        observers(of: id)?.boundaries(times) ?? AsyncStream { $0.finish() }
    }

    /// Where each seek of item `id` landed, when it lands (the pipeline
    /// has the new position's data): for a scrubber, and MPRIS's Seeked.
    public func seekCompletions(of id: PlaybackItemID) -> AsyncStream<Duration> {
        observers(of: id)?.seeks() ?? AsyncStream { $0.finish() }
    }

    /// The current item's asset each time more is learnt about it after
    /// `ready`: the probe's tracks, tags, cover art and chapters, a live
    /// stream's new title. Finishes when the item is replaced.
    public func assetUpdates(of id: PlaybackItemID) -> AsyncStream<LoadedAsset> {
        observers(of: id)?.assetUpdates() ?? AsyncStream { $0.finish() }
    }

    /// Item `id`'s one-time events (ready, ended, failed), none dropped.
    /// Finishes when the item is replaced or stopped.
    public func events(of id: PlaybackItemID) -> AsyncStream<ItemEvent> {
        observers(of: id)?.events() ?? AsyncStream { $0.finish() }
    }

    /// Yields `id` once when the item plays to its end; finishes without
    /// yielding if it is replaced first.
    public func endOfItem(_ id: PlaybackItemID) -> AsyncStream<PlaybackItemID> {
        observers(of: id)?.end() ?? AsyncStream { $0.finish() }
    }

    private func observers(of id: PlaybackItemID) -> ItemObservers? {
        session?.id == id ? session?.observers : nil
    }

    /// Returns once the store has taken every state sent so far.
    public func stateUpdatesDelivered() async {
        await withCheckedContinuation { continuation in storeQueue.yield(.barrier(continuation)) }
    }

    // MARK: Bus messages

    /// What `handle` reads; the rest is dropped before it reaches the main loop.
    private static let handledMessages: Set<Message.Kind> = [
        .error, .warning, .element, .buffering, .stateChanged, .asyncDone, .tag, .tableOfContents,
        .durationChanged, .endOfStream, .clockLost, .requestState,
    ]

    private func handle(_ message: Message) {
        // The bus was emptied when this session began, so the message is its own.
        guard let session, !session.hasFailed else { return }
        switch message.kind {
        case .error:
            if let failure = message.failure {
                Log.debug("playback \(session.id): error from \(failure.sourceFactory ?? "?"): \(failure.error.message) (\(failure.debug ?? ""))")
                if session.isReady, !session.hasEnded, failure.sourceFactory == "pulsesink" {
                    outputVanished(session, failure)
                } else {
                    pipelineFailed(session, failure)
                }
            }
        case .warning:
            if let failure = message.failure {
                Log.debug("playback warning: \(failure.error.message)")
                // playbin turns the subtitle file's errors into warnings and
                // plays on without it. Only a typefinder says "type not
                // found", and for the media itself that is an error.
                if session.subtitleFile != nil, GStreamerErrorCode(failure.error) == .stream(.typeNotFound) {
                    session.isSubtitleFileUnrecognised = true
                }
            }
        case .element:
            // A video decoder skipped on purpose is not missing.
            if let missing = message.missingPlugin, decodesVideo(session.item) || !missing.isVideo {
                session.missingPlugins.append(missing.description)
            }
        case .buffering:
            if let percent = message.currentBufferingPercent {
                if percent != session.bufferingPercent { Log.debug("playback \(session.id): buffer \(percent)%") }
                buffering(session, percent)
            }
        case .stateChanged:
            if message.isFrom(playbin), let change = message.stateChange { stateChanged(session, to: change.new) }
        case .asyncDone:
            asyncDone(session)
        case .tag:
            guard let tags = message.tags else { break }
            session.pipelineTags.fillGaps(from: tags)
            // Live streams name what is on now in their tags (ICY titles).
            if session.isLive, let title = tags.title, var asset = session.asset {
                asset.title = title
                assetChanged(asset, for: session)
            }
        case .tableOfContents:
            // Some containers only show their chapters to the playing pipeline.
            if var asset = session.asset, asset.chapters.isEmpty, let entries = message.tableOfContents {
                asset.chapters = AssetLoader.chapters(from: entries)
                assetChanged(asset, for: session)
            }
        case .durationChanged:
            if var asset = session.asset, !session.isLive, let duration = playbin.duration {
                asset.duration = duration
                assetChanged(asset, for: session)
            }
        case .endOfStream:
            ended(session)
        case .requestState:
            if let state = message.requestedState { soundServerRequested(state, of: session) }
        case .clockLost:
            // The usual recovery: a new clock is chosen on the way back to PLAYING.
            if session.wantsPlaying, session.isReady {
                playbin.setState(.paused)
                playbin.setState(.playing)
            }
        default:
            break
        }
    }

    /// pulsesink asks for PAUSED when the sound server corks its stream
    /// (another stream needs the sound to itself: module-role-cork does it
    /// for a call, a `phone` stream) and for PLAYING when it may play again.
    /// Only a pause the server asked for is undone by it: a listener who
    /// paused, before the call or during it, stays paused.
    private func soundServerRequested(_ state: ElementState, of session: ItemSession) {
        switch state {
        case .paused:
            guard session.wantsPlaying, !session.hasEnded else { return }
            Log.debug("playback \(session.id): corked by the sound server")
            pause()
            session.isCorked = true
            session.observers.happened(.interrupted(.soundServer))
        case .playing:
            guard session.isCorked else {
                Log.debug("playback \(session.id): uncorked by the sound server; stays as the listener left it")
                return
            }
            Log.debug("playback \(session.id): uncorked by the sound server")
            play()
        default:
            break
        }
    }

    /// The output device item `id` played on went away: pause, as a phone
    /// does when its headphones are unplugged, rather than go on from
    /// whatever device the server moved the stream to. Play opens a new
    /// stream there (`reopenOutput`): the moved one, paused and played
    /// again, sometimes never advances its clock (one run in six here).
    private func outputDeviceLost(_ id: PlaybackItemID) {
        guard let session, session.id == id, session.wantsPlaying, !session.hasFailed,
              session.isReady, !session.hasEnded, session.outputLostAt == nil else { return }
        Log.debug("playback \(id): output device gone")
        pauseWithoutOutput(session)
    }

    /// The sound server ended the stream of a playing item (its last output
    /// went away, or the server itself): pause where it was, not fail, as
    /// when the output moves.
    private func outputVanished(_ session: ItemSession, _ failure: MessageFailure) {
        Log.debug("playback \(session.id): sound output ended (\(failure.error.message))")
        pauseWithoutOutput(session)
    }

    /// Paused at the position, with the pipeline back at NULL, which lets go
    /// of the stream and its server connection; Play opens a new one
    /// (`reopenOutput`).
    private func pauseWithoutOutput(_ session: ItemSession) {
        let lostAt = playbin.position ?? session.seekTarget
        Log.debug("playback \(session.id): paused at \(lostAt) without an output")
        session.wantsPlaying = false
        session.isCorked = false
        session.isStateChangeInFlight = false
        session.isSeekInFlight = false
        session.isFastSeekInFlight = false
        session.queuedSeek = nil
        session.deferredSeek = nil
        session.outputLostAt = lostAt
        session.observers.playbackStopped()
        // playbin takes a new sink (`reopenOutput`) only in NULL or READY.
        playbin.setState(.null)
        // The old sink's further messages, of this item: a dying one's
        // errors are not to fail it after all.
        bus.discardPendingMessages()
        send(.apply(.paused, session.id))
        session.observers.happened(.interrupted(.outputGone))
    }

    /// Back where it stopped on a new stream: play, unless paused meanwhile.
    private func outputReopened(_ session: ItemSession) {
        session.isReopeningOutput = false
        if session.wantsPlaying { changeState(to: .playing, of: session) }
    }

    /// Play after `pauseWithoutOutput`: preroll again (a new stream on whatever
    /// output the server has now), seek back to where it stopped, then play.
    private func reopenOutput(_ session: ItemSession, at position: Duration) {
        // A new sink: the old pulsesink, at NULL or not, no longer gets a
        // stream from the server (its probe stream fails, it offers no caps
        // and decodebin reports "no decoder").
        if let sink = try? configuration.audioSink.map(Element.bin(describedBy:)) ?? Element.make("autoaudiosink") {
            try? setAudioSink(sink)
            addEffectsIfNeeded()
        }
        // The device it played on is gone for good: not a move to report.
        outputWatch.begin(session.id)
        session.outputLostAt = nil
        session.isReopeningOutput = true
        session.deferredSeek = (position, [.flush, .accurate])
        if playbin.setState(.paused) == .async { session.isStateChangeInFlight = true }
    }

    private func asyncDone(_ session: ItemSession) {
        if !session.isPrerolled {
            session.isPrerolled = true
        } else if session.isInitialSeekInFlight {
            session.isInitialSeekInFlight = false
        } else if session.isStateChangeInFlight {
            session.isStateChangeInFlight = false
            if let (position, flags) = session.deferredSeek {
                session.deferredSeek = nil
                startSeek(to: position, flags: flags, of: session)
            }
            if session.isReopeningOutput, !session.isSeekInFlight { outputReopened(session) }
        } else if session.isSeekInFlight {
            session.isSeekInFlight = false
            session.isFastSeekInFlight = false
            if let (position, flags) = session.queuedSeek {
                session.queuedSeek = nil
                startSeek(to: position, flags: flags, of: session)
                advanceLoad(session)
                return
            }
            session.observers.seekLanded(at: playbin.position ?? session.seekTarget)
            if session.isReopeningOutput { outputReopened(session) }
            // What the pipeline plays after the seek: a choice of track must survive it.
            if decodesVideo(session.item) { Log.debug("playback \(session.id): tracks after seek: \(tracks.summary)") }
        }
        advanceLoad(session)
    }

    private func stateChanged(_ session: ItemSession, to state: ElementState) {
        guard session.isReady else { return }
        switch state {
        case .playing:
            session.hasEnded = false
            send(.apply(.playing, session.id))
            session.observers.playbackStarted()
            prepareEffectsChain()
        case .paused:
            session.observers.playbackStopped()
            // A pause the user did not ask for is buffering or a seek, not
            // "paused"; nor is waiting for the app's release.
            if !session.wantsPlaying, !session.hasEnded, session.playsOnRelease == nil {
                send(.apply(.paused, session.id))
            }
        default:
            break
        }
    }

    /// Network streams: pause while the buffer refills, resume when full.
    private func buffering(_ session: ItemSession, _ percent: Int) {
        guard !session.isLive else { return }
        if percent != session.bufferingPercent { watchForStall(session, percent: percent) }
        session.bufferingPercent = percent
        guard session.isReady else {
            advanceLoad(session)
            return
        }
        if percent < 100 {
            guard !session.hasEnded else { return }
            send(.apply(.buffering(percent: percent), session.id))
            if session.wantsPlaying { playbin.setState(.paused) }
        } else if session.wantsPlaying {
            // The pause a lower level asked for may still be under way (the
            // pipeline playing, paused pending), as when a buffer dips and
            // refills within a millisecond: then only setting playing ends it.
            let state = playbin.state()
            if state.current == .playing, state.pending == .voidPending {
                send(.apply(.playing, session.id))
            } else {
                playbin.setState(.playing)
            }
        } else if !session.hasEnded, session.playsOnRelease == nil {
            send(.apply(.paused, session.id))
        }
    }

    /// A buffer that stops filling for `networkTimeout` is a stalled server:
    /// fail with `.timeout`. GStreamer's HTTP source would time out too, but
    /// it reports that only as a generic stream error, so the controller
    /// watches for it itself, with a shorter limit than the source's.
    private func watchForStall(_ session: ItemSession, percent: Int) {
        session.stallWatch?.cancel()
        session.stallWatch = nil
        guard percent < 100 else { return }
        let limit = configuration.networkTimeout
        session.stallWatch = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            // A live stream's buffer is not waited for (`buffering`): its
            // preroll's buffer messages, before it was known to be live, may
            // stop short of 100 % while it plays on.
            guard !session.isLive else { return }
            self?.fail(session, .timeout)
        }
    }

    private func ended(_ session: ItemSession) {
        guard session.isReady, !session.hasEnded else { return }
        session.hasEnded = true
        session.wantsPlaying = false
        session.observers.itemEnded()
        send(.apply(.ended, session.id))
        session.observers.happened(.ended)
        // Stay prerolled at the end, so seeking back or playing again is instant.
        playbin.setState(.paused)
    }

    private func pipelineFailed(_ session: ItemSession, _ failure: MessageFailure) {
        session.hasFailed = true
        session.cancelTasks()
        session.observers.playbackStopped()
        playbin.setState(.ready)
        let uri = session.item.uri
        let missingPlugins = session.missingPlugins
        session.addTask(Task { [weak self, classifier] in
            let error = await classifier.classify(failure, uri: uri, missingPlugins: missingPlugins)
            guard let self, self.isCurrent(session), !Task.isCancelled else { return }
            self.send(.apply(.failed(error), session.id))
            session.observers.happened(.failed(error))
        })
    }

    /// A failure found outside the bus: the probe, the load timeout.
    private func fail(_ session: ItemSession, _ error: PlaybackError) {
        guard isCurrent(session), !session.hasFailed else { return }
        session.hasFailed = true
        session.cancelTasks()
        session.observers.playbackStopped()
        playbin.setState(.ready)
        send(.apply(.failed(error), session.id))
        session.observers.happened(.failed(error))
    }

    // MARK: Sessions and the store

    /// Whether `candidate` is still the item loaded; counted when it is not,
    /// since then an event of a replaced item was just dropped.
    private func isCurrent(_ candidate: ItemSession) -> Bool {
        guard session === candidate else {
            staleTaskResultCount.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Closes the current item and brings the pipeline to NULL, which stops
    /// its streaming threads, emptying the bus before and after: nothing the
    /// old item posted can be taken for the next one's. (The pipeline's own
    /// flush on the way to NULL drops what the teardown posts; what is
    /// counted is what the old item posted and the main loop had not yet
    /// handed over.)
    private func endSession() {
        session?.close()
        session = nil
        countStale(bus.discardPendingMessages())
        playbin.setState(.null)
        // What the old item's threads posted on their way down.
        countStale(bus.discardPendingMessages())
    }

    private func send(_ command: StoreCommand) {
        switch command {
        case .begin(let id): Log.debug("playback \(id): loading")
        case .apply(let phase, let id): Log.debug("playback \(id): \(phase)")
        case .barrier: break
        }
        storeQueue.yield(command)
    }
}

/// What the controller asks of the store, queued so that order is kept.
private enum StoreCommand: Sendable {
    case begin(PlaybackItemID)
    case apply(PlaybackPhase, PlaybackItemID)
    /// Resumed when every command before it has been run.
    case barrier(CheckedContinuation<Void, Never>)

    func run(on store: PlaybackStateStore) async {
        switch self {
        case .begin(let id): await store.begin(itemID: id)
        case .apply(let phase, let id): await store.apply(phase, for: id)
        case .barrier(let continuation): continuation.resume()
        }
    }
}

/// The controller as seen from the output watch's callback, which is made
/// before the controller is whole.
@MainActor
private final class WeakController {
    weak var controller: PlayerController?
}
