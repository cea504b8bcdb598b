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

    private let playbin: Playbin
    private let bus: Bus
    private var busWatch: BusWatch?
    private let loader: AssetLoader
    private let classifier: PlaybackErrorClassifier
    private let storeQueue: AsyncStream<StoreCommand>.Continuation
    private var session: ItemSession?
    private let decoders = DecoderChoices()
    /// What `stop` stopped, so `play` can start it again.
    private var stoppedItem: PlaybackItem?

    public init(configuration: PlayerConfiguration = .fromEnvironment(),
                store: PlaybackStateStore = PlaybackStateStore()) throws {
        self.configuration = configuration
        self.store = store
        loader = AssetLoader(timeout: configuration.loadTimeout, networkTimeout: configuration.networkTimeout)
        classifier = PlaybackErrorClassifier(checkTimeout: configuration.networkTimeout)

        playbin = try Playbin(.playbin)
        if let sink = configuration.audioSink { playbin.setAudioSink(try Element.bin(describedBy: sink)) }
        if configuration.decodesVideo, let sink = configuration.videoSink {
            playbin.setVideoSink(try Element.bin(describedBy: sink))
        }
        playbin.bufferDuration = configuration.forwardBuffer
        if let speed = configuration.connectionSpeed { playbin.connectionSpeed = UInt64(max(0, speed)) }
        let sourceSettings = SourceSettings(networkTimeout: configuration.networkTimeout)
        playbin.onSourceSetup { source in sourceSettings.apply(to: source) }
        let maximumBitrate = configuration.maximumBitrate
        playbin.onElementSetup { [decoders] element in
            if element.factoryClassification?.contains("Decoder") == true, let factory = element.factoryName {
                decoders.note(factory)
            }
            // playbin's flags keep video from the screen, not from the
            // decoder: audio items tell decodebin to skip video decoders.
            if element.hasSignal("autoplug-select") {
                element.onAutoplugSelect { _, classification in
                    let isVideoDecoder = classification.contains("Decoder") && classification.contains("Video")
                    return isVideoDecoder && !decoders.decodesVideo ? .skip : .tryIt
                }
            }
            // The sound server's view of the stream (volume mixers, GNOME
            // Settings, ducking): who plays it and what it is.
            if element.hasProperty("stream-properties") {
                element.setProperty("stream-properties", structureNamed: "props", strings: [
                    "media.role": decoders.decodesVideo ? "video" : "music",
                    "application.name": AppIdentity.name,
                    "application.id": AppIdentity.id,
                    "application.icon_name": AppIdentity.id,
                ])
            }
            // Adaptive demuxers (hlsdemux, hlsdemux2) choose variants under this cap.
            if let maximumBitrate, element.hasProperty("max-bitrate") {
                try? element.setProperty("max-bitrate", UInt32(clamping: maximumBitrate))
            }
        }
        bus = playbin.bus!

        // One consumer, so the store sees states in the order they were sent.
        let (commands, queue) = AsyncStream.makeStream(of: StoreCommand.self)
        storeQueue = queue
        Task.detached { [store] in
            for await command in commands { await command.run(on: store) }
        }
        busWatch = BusWatch(bus: bus) { [weak self] message in self?.handle(message) }
    }

    isolated deinit {
        session?.close()
        busWatch?.remove()
        playbin.setState(.null)
        storeQueue.finish()
    }

    /// Replaces the video output (e.g. a `VideoPaintable`'s sink). Call it
    /// before the first load: playbin takes a new sink only in NULL or READY.
    public func setVideoSink(_ sink: Element) {
        guard configuration.decodesVideo else { return }
        playbin.setVideoSink(sink)
    }

    // MARK: What is playing

    public var currentItemID: PlaybackItemID? { session?.id }
    public var currentItem: PlaybackItem? { session?.item }
    /// What the probe found about the current item; nil while it loads.
    public var asset: LoadedAsset? { session?.asset }

    public var position: Duration? {
        guard session != nil else { return nil }
        return playbin.position
    }

    public var duration: Duration? {
        guard let session else { return nil }
        return session.asset?.duration ?? playbin.duration
    }

    /// The decoders (element factories) the current item uses, e.g. ["opusdec"].
    public var activeDecoders: [String] { decoders.plugged }

    /// Linear, 0–1.
    public var volume: Double {
        get { playbin.volume }
        set { playbin.volume = min(max(newValue.isNaN ? 1 : newValue, 0), 1) }
    }

    public var isMuted: Bool {
        get { playbin.isMuted }
        set { playbin.isMuted = newValue }
    }

    // MARK: Loading

    /// Stops whatever was playing and loads `item`; plays it when ready if
    /// `autoplay`, from `start` if given. Returns the load's ID, which every
    /// state and observer event of this item carries.
    @discardableResult
    public func load(_ item: PlaybackItem, startingAt start: Duration? = nil, autoplay: Bool = true) -> PlaybackItemID {
        endSession()
        let id = PlaybackItemID.next()
        let observers = ItemObservers(itemID: id, interval: configuration.tickInterval) { [weak self] in
            (self?.playbin.position, self?.duration, self?.rate.value ?? 1)
        }
        let session = ItemSession(id: id, item: item, wantsPlaying: autoplay, start: start, observers: observers)
        self.session = session
        stoppedItem = nil
        send(.begin(id))

        decoders.reset(decodesVideo: decodesVideo(item))
        playbin.setFlags(flags(for: item))
        // Only a download keeps a ring buffer (prerollDownloading): with one,
        // streaming would stop asking the server for byte ranges.
        try? playbin.setProperty("ring-buffer-max-size", UInt64(0))
        // scaletempo keeps the pitch when the rate changes. A fresh one for
        // each item: GStreamer 1.22's scaletempo keeps state from the last
        // stream's format and overruns its buffers when the next differs.
        installAudioEffects()
        playbin.uri = item.uri
        // Preroll while the probe runs: the first audio is ready as soon as
        // the asset is, instead of after it. Nothing plays before both are.
        if playbin.setState(.paused) == .noPreroll {
            session.isLiveSource = true
            session.isPrerolled = true
        }

        session.addTask(Task { [weak self, loader] in
            do {
                let asset = try await loader.load(item.uri)
                self?.assetLoaded(asset, for: session)
            } catch let error as PlaybackError {
                self?.fail(session, error)
            } catch {
                // Cancelled: the item was replaced or stopped; nothing to report.
            }
        })
        let loadTimeout = configuration.loadTimeout
        session.addTask(Task { [weak self] in
            guard (try? await Task.sleep(for: loadTimeout)) != nil else { return }
            if !session.isReady { self?.fail(session, .timeout) }
        })
        return id
    }

    private func decodesVideo(_ item: PlaybackItem) -> Bool {
        configuration.decodesVideo && item.kind != .audio
    }

    private func flags(for item: PlaybackItem, downloads: Bool = false) -> String {
        // "buffering" lets adaptive streams buffer demuxed data and report it.
        let base = decodesVideo(item)
            ? "video+audio+text+soft-volume+deinterlace+soft-colorbalance+buffering"
            : "audio+soft-volume+buffering"
        return downloads ? base + "+download" : base
    }

    /// Whether the prerolled item is better played from a progressive
    /// download than streamed: an HTTP file whose streaming pipeline knows
    /// neither its length nor how to seek (Ogg: its demuxer knows both when
    /// it reads a download). Live streams keep streaming.
    private func needsDownload(_ session: ItemSession) -> Bool {
        let uri = session.item.uri
        let isHTTP = uri.hasPrefix("http://") || uri.hasPrefix("https://")
        return isHTTP && !session.isLive && !session.isDownloading
            && playbin.duration == nil && playbin.seeking?.isSeekable != true
    }

    /// Prerolls the current item again, downloading. From NULL, so that no
    /// message of the first preroll is left on the bus to be taken for this one.
    private func prerollDownloading(_ session: ItemSession) {
        session.isDownloading = true
        playbin.setState(.null)
        playbin.setFlags(flags(for: session.item, downloads: true))
        // A ring buffer, so a stream that never ends cannot fill the disk.
        try? playbin.setProperty("ring-buffer-max-size", UInt64(256 << 20))
        session.isPrerolled = false
        if playbin.setState(.paused) == .noPreroll {
            session.isLiveSource = true
            session.isPrerolled = true
        }
    }

    private func assetLoaded(_ asset: LoadedAsset, for session: ItemSession) {
        guard isCurrent(session), !session.hasFailed else { return }
        session.asset = asset
        advanceLoad(session)
    }

    /// Moves a loading item on once its parts are there: the asset, the
    /// preroll, the first seek (start position and rate), a full buffer.
    private func advanceLoad(_ session: ItemSession) {
        guard isCurrent(session), !session.hasFailed, !session.isReady, session.asset != nil,
              session.isPrerolled, !session.isInitialSeekInFlight else { return }
        if needsDownload(session) {
            prerollDownloading(session)
            return
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
        // The prerolled pipeline knows better than the probe: some containers
        // (Ogg over HTTP) only know their duration now, and HTTP sources
        // often only now know they can seek.
        if !session.isLive {
            if session.asset?.duration == nil { session.asset?.duration = playbin.duration }
            if let seeking = playbin.seeking { session.asset?.isSeekable = seeking.isSeekable }
        }
        send(.apply(.ready(isLive: session.isLive), session.id))
        if !session.isLive, session.appliedRate != rate.value { applyRate(to: session) }
        if session.wantsPlaying { playbin.setState(.playing) }
    }

    // MARK: Transport

    public func play() {
        guard let session else {
            if let stoppedItem { load(stoppedItem) }
            return
        }
        guard !session.hasFailed else { return }
        session.wantsPlaying = true
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
        session.wantsPlaying = false
        guard session.isReady, !session.hasEnded else { return }
        changeState(to: .paused, of: session)
        session.observers.playbackStopped()
        send(.apply(.paused, session.id))
    }

    public func toggle() {
        if session?.wantsPlaying == true { pause() } else { play() }
    }

    /// Unloads the item; `play()` loads it again from the start.
    public func stop() {
        guard let session else { return }
        let id = session.id
        stoppedItem = session.item
        endSession()
        send(.apply(.idle, id))
    }

    /// Seeks the current item. Before it is ready, the position becomes where it starts.
    public func seek(to target: Duration, mode: SeekMode = .exact) {
        guard let session, !session.hasFailed, !session.isLive else { return }
        guard session.isInitialSeekDone else {
            session.pendingStart = target
            return
        }
        // The probe's "seekable" is a guess made before the download got far
        // (MP3 over HTTP often says no); GStreamer refuses what it cannot do.
        let position = clamped(target, for: session)
        let flags: SeekFlags = mode == .exact ? [.flush, .accurate] : [.flush, .keyUnit, .snapNearest]
        if session.isStateChangeInFlight {
            // That change's ASYNC_DONE is still to come and would pass for
            // this seek's: the seek waits for it (the latest one wins).
            session.deferredSeek = (position, flags)
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
        if playbin.seek(to: position, rate: rate.value, flags: flags) {
            session.isSeekInFlight = true
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

    // MARK: Listening effects

    /// Skip silence and voice boost; they stay for the items that follow.
    public private(set) var listeningEffects = ListeningEffects()
    /// The current item's audio filter (scaletempo and the effects).
    private var audioEffects: AudioEffectsChain?

    /// Switches the effects; the current item hears the change at once,
    /// without a seek or a state change.
    public func setListeningEffects(_ effects: ListeningEffects) {
        listeningEffects = effects
        audioEffects?.apply(effects)
    }

    /// Listening time skip silence has saved on the current item so far.
    public var timeSavedBySkippingSilence: Duration {
        guard session != nil else { return .zero }
        return audioEffects?.timeSaved ?? .zero
    }

    private func installAudioEffects() {
        do {
            audioEffects = try AudioEffectsChain(listeningEffects)
        } catch {
            audioEffects = nil
            Log.debug("playback: no audio effects: \(error)")
        }
        playbin.setAudioFilter(audioEffects?.bin)
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

    private func handle(_ message: Message) {
        // The bus was emptied when this session began, so the message is its own.
        guard let session, !session.hasFailed else { return }
        switch message.kind {
        case .error:
            if let failure = message.failure {
                Log.debug("playback \(session.id): error from \(failure.sourceFactory ?? "?"): \(failure.error.message) (\(failure.debug ?? ""))")
                pipelineFailed(session, failure)
            }
        case .warning:
            if let failure = message.failure { Log.debug("playback warning: \(failure.error.message)") }
        case .element:
            // A video decoder skipped on purpose is not missing.
            if let missing = message.missingPlugin, decodesVideo(session.item) || !missing.isVideo {
                session.missingPlugins.append(missing.description)
            }
        case .buffering:
            if let percent = message.bufferingPercent {
                if percent != session.bufferingPercent { Log.debug("playback \(session.id): buffer \(percent)%") }
                buffering(session, percent)
            }
        case .stateChanged:
            if message.isFrom(playbin), let change = message.stateChange { stateChanged(session, to: change.new) }
        case .asyncDone:
            asyncDone(session)
        case .tag:
            // Live streams name what is on now in their tags (ICY titles).
            if session.isLive, let title = message.tags?.title { session.asset?.title = title }
        case .tableOfContents:
            // Some containers only show their chapters to the playing pipeline.
            if session.asset?.chapters.isEmpty == true, let entries = message.tableOfContents {
                session.asset?.chapters = AssetLoader.chapters(from: entries)
            }
        case .durationChanged:
            if session.asset != nil, !session.isLive, let duration = playbin.duration { session.asset?.duration = duration }
        case .endOfStream:
            ended(session)
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
        } else if session.isSeekInFlight {
            session.isSeekInFlight = false
            session.observers.seekLanded(at: playbin.position ?? session.seekTarget)
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
        case .paused:
            session.observers.playbackStopped()
            // A pause the user did not ask for is buffering or a seek, not "paused".
            if !session.wantsPlaying, !session.hasEnded { send(.apply(.paused, session.id)) }
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
            if playbin.state().current == .playing {
                send(.apply(.playing, session.id))
            } else {
                playbin.setState(.playing)
            }
        } else if !session.hasEnded {
            send(.apply(.paused, session.id))
        }
    }

    /// A buffer that stops filling for `networkTimeout` is a stalled server:
    /// fail with `.timeout`. GStreamer's HTTP source would time out too, but
    /// it reports that only as a generic stream error, so the controller
    /// watches for it itself (and gives the source a longer limit).
    private func watchForStall(_ session: ItemSession, percent: Int) {
        session.stallWatch?.cancel()
        session.stallWatch = nil
        guard percent < 100 else { return }
        let limit = configuration.networkTimeout
        session.stallWatch = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.fail(session, .timeout)
        }
    }

    private func ended(_ session: ItemSession) {
        guard session.isReady, !session.hasEnded else { return }
        session.hasEnded = true
        session.wantsPlaying = false
        session.observers.itemEnded()
        send(.apply(.ended, session.id))
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
    }

    // MARK: Sessions and the store

    private func isCurrent(_ candidate: ItemSession) -> Bool { session === candidate }

    /// Closes the current item and brings the pipeline to NULL, which stops
    /// its streaming threads, then empties the bus: nothing the old item
    /// posted can be taken for the next one's.
    private func endSession() {
        session?.close()
        session = nil
        playbin.setState(.null)
        bus.discardPendingMessages()
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
