import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary
import TrackcastMPRIS
import TrackcastPlayback

/// The app's one owner of what is playing. Every playback command, from the
/// window, its shortcuts, GActions on D-Bus, MPRIS (through the app, its
/// host), files opened from outside, the queue and the sleep timer, comes
/// here; nothing else tells the `PlayerController` what to play or where.
///
/// For the views it keeps the item, its phase, position and duration. It
/// follows the player's state store (what the window shows) and the current
/// item's one-time events (ready, ended, failed: never dropped), keeps the
/// library's resume positions and played flags up to date, and publishes the
/// player over MPRIS (media keys, GNOME Shell, the lock screen).
///
/// A command that must await before it plays (the show's settings, the
/// resume position, a subtitle scan, the queue's head) takes a request
/// number; when it resumes and a newer command came meanwhile, it is
/// dropped before it touches the player (`isLatest`).
@MainActor
final class NowPlaying {
    struct Item: Equatable {
        let uri: String
        let title: String
        let showTitle: String?
        let kind: PlaybackItem.Kind
        let episode: EpisodeID?
        let show: ShowID?
        var artwork: URL?
    }

    /// Made at the first play: starting GStreamer costs start-up time a
    /// session that only browses does not need to pay.
    private(set) var player: PlayerController?
    /// The video output, shared by the main window and picture-in-picture;
    /// made with the player.
    private(set) var video: VideoPaintable?
    private let library: LibraryModel
    private let settings: AppSettings

    private(set) var item: Item?
    /// The picture for what plays now: the current chapter's, once it is on
    /// disk, else the episode's.
    var artwork: URL? { chapterArtwork ?? item?.artwork }
    /// The current chapter's picture on disk; nil while it has none, or it
    /// is being fetched or written, or it is not a picture that may be shown.
    private(set) var chapterArtwork: URL?
    private var chapterImage: ChapterImage?
    private var chapterArtworkLoad: Task<Void, Never>?
    private(set) var phase: PlaybackPhase = .idle
    private(set) var position: Duration = .zero
    private(set) var duration: Duration?
    /// The item is live (a playlist without an end, a source without a
    /// length): the player bar shows LIVE instead of a length.
    private(set) var isLive = false
    /// How far behind its live edge a live item with a window plays; nil
    /// for one that cannot seek.
    private(set) var liveLag: Duration?
    /// The interstitials the HLS stream playing schedules, read from its
    /// playlist while it loads (the player holds it at ready until then),
    /// and which of them have played. Kept while the same stream is loaded
    /// again (after an interstitial, after Stop), so that one played is not
    /// played again.
    private var schedule = InterstitialSchedule([])
    /// The stream `schedule` was read from.
    private var scheduleURI: String?
    /// Its variants, from its master playlist: the player needs them for
    /// the data saver's height cap at each load of it.
    private var streamVariants: [StreamVariant] = []
    /// A live stream's media playlist, read again at its target duration
    /// while the item plays, and the timeline its interstitials are placed on.
    private var livePlaylist: (url: URL, timelineStart: Date?, every: Duration)?
    /// The interstitials marked on the player bar's slider.
    var interstitials: [HLSInterstitial] { scheduleURI != nil && scheduleURI == item?.uri ? schedule.interstitials : [] }
    /// Reads them; cancelled with the item it was started for.
    private var interstitialTask: Task<Void, Never>?
    /// Reads a live item's playlist again while it plays; cancelled when its load ends.
    private var liveReadTask: Task<Void, Never>?
    /// Waits for playback to reach the next interstitial; ends with the load it watches.
    private var crossingTask: Task<Void, Never>?
    /// Interstitials come due and not yet playing, in the order they came
    /// due: each plays in turn once its assets are known (an asset list is
    /// fetched as soon as it comes due). Dropped with the item.
    private var dueInterstitials: [DueInterstitial] = []
    private var dueSerial = 0
    /// The item's current load has been ready: where it plays can be asked.
    private var isItemReady = false
    /// The interstitial playing in place of the item, while one does.
    private(set) var interstitialBreak: InterstitialBreak?
    /// Further behind than this, the player bar offers to go to live: a
    /// live stream starts a few segments back from its newest one.
    static let liveEdgeTolerance: Duration = .seconds(10)
    var isBehindLiveEdge: Bool { (liveLag ?? .zero) > Self.liveEdgeTolerance }
    /// The current item's audio and subtitle tracks, as the player last said.
    private(set) var tracks = TrackSelection.none
    /// The subtitle file shown with the current item: found beside it or loaded by hand.
    private(set) var subtitleFile: SubtitleFile?
    /// The load of `item` in the player; nil once it is stopped (the item
    /// stays on show, and Play loads it again under a new ID).
    private var itemID: PlaybackItemID?
    /// The number of the newest command that changes what plays.
    private var latestRequest = 0
    /// The newest play being prepared (awaiting settings or the resume position).
    private var preparation: Task<Void, Never>?
    /// How the play being prepared starts once it is ready: the transport
    /// commands that come while it is prepared say so, as the latest command
    /// wins (Pause: it loads paused; Stop: it is shown, stopped, not loaded).
    private var preparedStart = PreparedStart.playing

    private enum PreparedStart {
        case playing, paused, stopped
    }
    /// Where the current item failed, when trying again may work.
    private var retryPoint: Duration?
    private var tickTask: Task<Void, Never>?
    /// Follows what the player learns about the item after it is ready.
    private var assetTask: Task<Void, Never>?
    /// The item's one-time events: ready, ended, failed.
    private var eventTask: Task<Void, Never>?
    private var stateTask: Task<Void, Never>?
    /// The item tasks above still running: each ends when its item's stream
    /// finishes (the item replaced or stopped), which `liveTaskReport` checks.
    private var runningItemTasks = 0
    private var liveTaskReport: LiveTaskReport?
    private let resume: ResumeTracker
    /// The current episode's show's speed and intro/outro skips.
    private var showSettings: ShowSettings?
    let chapters: ChapterTracker
    private(set) lazy var sleepTimer = SleepTimer(nowPlaying: self)
    /// When the current item was paused, for rewinding after a long pause.
    private var pausedAt: Date?
    private var observers: [@MainActor () -> Void] = []
    private var messageHandler: (@MainActor (_ message: String, _ offersRetry: Bool) -> Void)?
    private var endHandler: (@MainActor () -> Void)?
    private(set) var mpris: MPRISService?
    /// The window and the rest of the app, for MPRIS's Raise, Quit and OpenUri.
    weak var mprisHost: (any MPRISHost)?

    /// What the player is made with at the first play.
    private let playerConfiguration: PlayerConfiguration
    /// Whether MPRIS takes its name on the session bus (a test's owner,
    /// driven through the handler itself, does not).
    private let publishesMPRIS: Bool

    init(library: LibraryModel, settings: AppSettings, playerConfiguration: PlayerConfiguration = .fromEnvironment(),
         publishesMPRIS: Bool = true) {
        self.library = library
        self.settings = settings
        self.playerConfiguration = playerConfiguration
        self.publishesMPRIS = publishesMPRIS
        resume = ResumeTracker(library: library)
        chapters = ChapterTracker(library: library)
        chapters.observe { [weak self] in self?.followChapterArtwork() }
        liveTaskReport = LiveTaskReport { [weak self] in self?.liveTasks ?? "" }
        settings.onChange("playback-speed") { [weak self] in
            guard let self else { return }
            // A speed chosen while a show plays is remembered for that show.
            if let show = item?.show, var remembered = showSettings, remembered.playbackSpeed != self.settings.playbackSpeed {
                remembered.playbackSpeed = self.settings.playbackSpeed
                showSettings = remembered
                Task { await library.setShowSettings(remembered, for: show) }
            }
            applySpeed()
        }
        for key in ["skip-silence", "voice-boost"] {
            settings.onChange(key) { [weak self] in
                guard let self else { return }
                let effects = self.settings.listeningEffects
                Log.debug("listening effects: skip silence \(effects.skipsSilence ? "on" : "off"), voice boost \(effects.boostsVoice ? "on" : "off")")
                player?.setListeningEffects(effects)
                notify()
            }
        }
    }

    /// The current chapter changed, or the list: its picture, if it has one,
    /// replaces the episode's once it is a file. A new item resets the
    /// chapters, so a load for the last item's chapter is cancelled with it.
    private func followChapterArtwork() {
        let image = chapters.current?.image
        guard image != chapterImage else { return }
        chapterImage = image
        chapterArtworkLoad?.cancel()
        chapterArtworkLoad = nil
        if chapterArtwork != nil {
            chapterArtwork = nil
            artworkChanged()
        }
        guard let image else { return }
        let artworks = library.chapterArtwork()
        chapterArtworkLoad = Task { [weak self] in
            let file: URL?
            do {
                file = try await artworks.file(for: image)
            } catch {
                Log.debug("no chapter picture: \(error)")
                file = nil
            }
            guard let self, !Task.isCancelled, chapterImage == image, let file else { return }
            chapterArtwork = file
            artworkChanged()
        }
    }

    private func artworkChanged() {
        Log.debug("artwork: \(artwork?.lastPathComponent ?? "none")")
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// The data saver's caps in force (`DataSaver` sets them): the player
    /// takes them at once, the stream playing included.
    var streamLimits = StreamLimits() {
        didSet { player?.streamLimits = streamLimits }
    }

    /// Listening time skip silence has saved on the current item, nil while it is off.
    var timeSavedBySkippingSilence: Duration? {
        guard let player, player.listeningEffects.skipsSilence else { return nil }
        return player.timeSavedBySkippingSilence
    }

    private func makePlayer() -> PlayerController? {
        if let player { return player }
        do {
            var configuration = playerConfiguration
            let video = configuration.decodesVideo
                ? try? VideoPaintable(convertsOnGPU: RendererChoice.videoOnGPU, drawnWithCairo: RendererChoice.drawsWithCairo)
                : nil
            // Without a sink of ours playbin would open a window of its own:
            // no paintable, no video.
            configuration.decodesVideo = video != nil
            let player = try PlayerController(configuration: configuration)
            if let video {
                player.setVideoSink(video.sink, filter: video.filter)
                Log.debug("video: converted on the \(video.convertsOnGPU ? "GPU" : "CPU")"
                          + (video.whyNotOnGPU.map { " (no GPU conversion: \($0))" } ?? ""))
            }
            self.video = video
            player.setRate(PlaybackRate(showSettings?.playbackSpeed ?? settings.playbackSpeed))
            player.setListeningEffects(settings.listeningEffects)
            player.streamLimits = streamLimits
            stateTask = Task { [weak self, store = player.store] in
                for await state in await store.updates() { self?.apply(state) }
            }
            self.player = player
            publish(player)
            return player
        } catch {
            Log.warning("cannot start playback: \(error)")
            messageHandler?(tr("Playback is not available: GStreamer could not start"), false)
            return nil
        }
    }

    /// On the session bus from the first play on: starting GStreamer only to
    /// answer media keys with nothing to play would slow every start.
    private func publish(_ player: PlayerController) {
        do {
            let service = try MPRISService(player: player, host: mprisHost)
            service.start(onBus: publishesMPRIS)
            mpris = service
        } catch {
            Log.warning("media keys and the desktop's media controls will not work: \(error)")
        }
    }

    /// What MPRIS shows for `uri` beyond the file's own tags: the episode
    /// and show titles, and artwork on disk.
    func metadata(forURI uri: String) -> MPRISLibraryMetadata? {
        if let current = interstitialBreak, uri == current.asset.uri.absoluteString {
            return MPRISLibraryMetadata(title: tr("Interstitial"), artist: item?.showTitle, album: item?.showTitle,
                                        interstitial: current.interstitial.id,
                                        forbidsSeeking: current.interstitial.forbidsSkip)
        }
        guard let item, item.uri == uri else { return nil }
        return MPRISLibraryMetadata(title: item.title, artist: item.showTitle, album: item.showTitle,
                                    artURL: artwork.flatMap { $0.isFileURL ? $0.absoluteString : nil })
    }

    /// Something is playing or about to (loading, buffering).
    var isActive: Bool {
        switch phase {
        case .loading, .playing, .buffering: true
        case .ready, .paused, .ended, .failed, .idle: false
        }
    }

    /// The item shows pictures: its probe found a video stream, or, until
    /// the probe is back, the feed said it is a video.
    var hasVideo: Bool {
        guard let item, video != nil else { return false }
        if let asset = player?.asset { return asset.hasVideo }
        return item.kind == .video
    }

    /// The decoders the current item uses, e.g. ["vp8dec", "opusdec"].
    var activeDecoders: [String] { player?.activeDecoders ?? [] }

    /// Calls `observer` after every change of item, phase or position.
    func observe(_ observer: @escaping @MainActor () -> Void) {
        observers.append(observer)
        observer()
    }

    /// What the listener should be told, as messages for a toast: the
    /// current item's failures, and pauses they did not ask for. The flag
    /// says whether the toast offers Retry (`retry()`).
    func onMessage(_ handler: @escaping @MainActor (_ message: String, _ offersRetry: Bool) -> Void) {
        messageHandler = handler
    }

    /// Called when the current item plays to its end (to go on to the next).
    func onEnd(_ handler: @escaping @MainActor () -> Void) { endHandler = handler }

    /// What the app tells MPRIS around the player (the queue) changed.
    func hostChanged() { mpris?.propertiesMayHaveChanged() }

    /// Plays `newItem` from `chosenStart` (a chapter or cue picked on the
    /// episode page), else from where it was left, if it was.
    func play(_ newItem: Item, from chosenStart: Duration? = nil) {
        play(from: chosenStart) { newItem }
    }

    /// Plays what `prepare` finds (an episode read from the library, the
    /// queue's head), unless a newer command came while it looked; nil
    /// plays nothing.
    func play(from chosenStart: Duration? = nil, preparing prepare: @escaping @MainActor () async -> Item?) {
        let request = newRequest()
        preparation = Task {
            if let newItem = await prepare(), isLatest(request) {
                // Every way in ends here, an enclosure a feed named among
                // them: GStreamer would open a camera or a socket for the
                // schemes it knows beyond these.
                guard PlayableURI.isAllowed(newItem.uri) else {
                    Log.debug("refused to play \(newItem.uri)")
                    messageHandler?(tr("This cannot be played: Trackcast plays files and web addresses only"), false)
                    if request == latestRequest { preparation = nil }
                    return
                }
                await play(newItem, from: chosenStart, request: request)
            }
            if request == latestRequest { preparation = nil }
        }
    }

    /// A command that changes what plays: every older one still awaiting is dropped when it resumes.
    @discardableResult
    private func newRequest() -> Int {
        latestRequest += 1
        preparation?.cancel()
        preparation = nil
        preparedStart = .playing
        return latestRequest
    }

    private func isLatest(_ request: Int) -> Bool {
        guard request == latestRequest else {
            Log.debug("play request \(request) dropped: request \(latestRequest) came after it")
            return false
        }
        return true
    }

    private func play(_ newItem: Item, from chosenStart: Duration?, request: Int) async {
        let key = Self.resumeKey(of: newItem)
        var show: ShowSettings?
        if let id = newItem.show { show = await library.showSettings(id) }
        var start: Duration?
        if let chosenStart {
            start = chosenStart
        } else if let key, let saved = await library.resumePosition(for: key) {
            start = .seconds(settings.resumePolicy.start(from: saved))
        } else if let intro = show?.skipIntro, intro > 0 {
            start = .seconds(intro)
        }
        // Only an opened file has neighbours; an episode's download is named by Trackcast.
        var subtitles: SubtitleFile?
        if newItem.kind != .audio, newItem.episode == nil, let url = URL(string: newItem.uri), url.isFileURL {
            subtitles = await self.subtitles(beside: url)
        }
        guard isLatest(request) else { return }
        pendingChoice = nil
        showSettings = show
        applySpeed()
        guard preparedStart != .stopped else {
            showStopped(newItem, at: start ?? .zero)
            return
        }
        play(newItem, startingAt: start, subtitles: subtitles, autoplay: preparedStart == .playing)
    }

    /// The subtitle file beside a video, if there is one that reads; one
    /// that does not is reported and left out.
    private func subtitles(beside media: URL) async -> SubtitleFile? {
        let found = await Task.detached { SubtitleFile.beside(media, preferredLanguages: Locale.preferredLanguages) }.value
        guard let found else { return nil }
        return await checked(found)
    }

    /// `file` if its subtitles can be read (checked off the main thread), else nil after a toast saying why.
    private func checked(_ file: SubtitleFile) async -> SubtitleFile? {
        let url = file.url
        let result = await Task.detached { () -> Result<Int, SubtitleFileCheck.Failure> in
            do throws(SubtitleFileCheck.Failure) {
                return .success(try SubtitleFileCheck.cueCount(of: url))
            } catch {
                return .failure(error)
            }
        }.value
        switch result {
        case .success(let cues):
            Log.debug("subtitles: \(cues) cues in \(url.lastPathComponent)")
            return file
        case .failure(let failure):
            Log.debug("subtitles: \(url.lastPathComponent) refused: \(failure)")
            messageHandler?(String(format: tr("The subtitles in “%@” cannot be shown: %@"), url.lastPathComponent,
                                 FailureText.subtitles(failure)), false)
            return nil
        }
    }

    /// Shows the subtitle file at `url` over the video playing: the item is
    /// loaded again with it, from where it is, playing or paused as it was.
    func loadSubtitles(_ url: URL) {
        guard let current = item, hasVideo else {
            messageHandler?(tr("Subtitles can only be loaded while a video plays"), false)
            return
        }
        let stem = (url.lastPathComponent as NSString).deletingPathExtension
        let file = SubtitleFile(url: url, languageCode: SubtitleFile.languageCode(
            ofFileNamed: url.lastPathComponent, base: (stem as NSString).deletingPathExtension))
        let request = newRequest()
        preparedStart = isActive ? .playing : .paused
        preparation = Task {
            if let file = await checked(file), isLatest(request), item == current, preparedStart != .stopped {
                pendingChoice = nil
                play(current, startingAt: position, subtitles: file, autoplay: preparedStart == .playing)
            }
            if request == latestRequest { preparation = nil }
        }
    }

    /// Plays audio track `index` of the current item.
    func selectAudioTrack(_ index: Int) {
        player?.selectAudioTrack(index)
        refreshTracks()
    }

    /// Shows subtitle track `index` of the current item, or none (nil).
    func selectSubtitleTrack(_ index: Int?) {
        if let index, tracks.subtitles.indices.contains(index), !tracks.subtitles[index].isExternal,
           tracks.subtitles.contains(where: \.isExternal), let current = item {
            // GStreamer 1.22's playbin shows nothing of the media's own
            // subtitles once it has shown a subtitle file's (its text
            // selector gets no more of them): the item is loaded again
            // without the file, from where it is, and the track chosen
            // when it is ready. The file leaves the menu; Load Subtitles…
            // brings it back.
            let ordinal = tracks.subtitles[..<index].filter { !$0.isExternal }.count
            pendingChoice = (audio: tracks.currentAudio, subtitle: ordinal)
            Log.debug("subtitles: leaving \(subtitleFile?.url.lastPathComponent ?? "the file") for the media's track \(ordinal)")
            newRequest()
            play(current, startingAt: position, subtitles: nil, autoplay: isActive)
            return
        }
        player?.selectSubtitleTrack(index)
        refreshTracks()
    }

    /// Tracks to choose once the item loaded again is ready (`selectSubtitleTrack`).
    private var pendingChoice: (audio: Int?, subtitle: Int)?

    private func applyPendingChoice() {
        guard let choice = pendingChoice, let player else { return }
        pendingChoice = nil
        if let audio = choice.audio { player.selectAudioTrack(audio) }
        player.selectSubtitleTrack(choice.subtitle)
    }

    /// Reads the tracks again; observers hear of a change.
    private func refreshTracks() {
        let current = player?.tracks ?? .none
        guard current != tracks else { return }
        tracks = current
        notify()
    }

    /// The show's remembered speed, else the preference.
    private func applySpeed() {
        let speed = showSettings?.playbackSpeed ?? settings.playbackSpeed
        player?.setRate(PlaybackRate(speed))
        Log.debug(String(format: "speed: %.2f", speed))
        mpris?.propertiesMayHaveChanged()
    }

    /// Changes a show's own settings; the current episode follows at once.
    func setShowSettings(_ change: @escaping @Sendable (inout ShowSettings) -> Void, for show: ShowID) {
        Task {
            var updated = await library.showSettings(show) ?? ShowSettings()
            change(&updated)
            await library.setShowSettings(updated, for: show)
            if item?.show == show {
                showSettings = updated
                applySpeed()
            }
        }
    }

    private static func resumeKey(of item: Item) -> ResumeKey? {
        if let episode = item.episode { return .episode(episode) }
        return URL(string: item.uri).map { .uri($0) }
    }

    private func play(_ newItem: Item, startingAt start: Duration?, subtitles: SubtitleFile? = nil, autoplay: Bool = true) {
        guard let player = makePlayer() else { return }
        saveCurrentPosition()
        resume.begin(Self.resumeKey(of: newItem), show: newItem.show)
        chapters.begin(uri: newItem.uri, episode: newItem.episode)
        if sleepTimer.mode == .endOfChapter { sleepTimer.cancel() }
        pausedAt = nil
        retryPoint = nil
        item = newItem
        video?.clear()
        phase = .loading
        position = start ?? .zero
        duration = nil
        isLive = false
        liveLag = nil
        // An item change ends an interstitial playing or awaited.
        if let current = interstitialBreak { Log.debug("interstitial \(current.interstitial.id): cancelled") }
        interstitialBreak = nil
        crossingTask?.cancel()
        crossingTask = nil
        interstitialTask?.cancel()
        interstitialTask = nil
        liveReadTask?.cancel()
        liveReadTask = nil
        dropDueInterstitials()
        if scheduleURI != newItem.uri {
            schedule = InterstitialSchedule([])
            scheduleURI = nil
            streamVariants = []
            livePlaylist = nil
        }
        tracks = .none
        subtitleFile = subtitles
        // A stream whose interstitials are not known yet waits at ready, if
        // it is HLS, until they are: a PRE one plays before any of it.
        let readsPlaylist = scheduleURI == nil && ["http", "https"].contains(URL(string: newItem.uri)?.scheme ?? "")
        let id = load(PlaybackItem(uri: newItem.uri, kind: newItem.kind, title: newItem.title), in: player,
                      startingAt: start, autoplay: autoplay, subtitles: subtitles, holdsHLS: readsPlaylist,
                      streamVariants: streamVariants)
        // An address that names a playlist is read while the player loads
        // it, so that the wait at ready is usually none; another is read
        // once the player finds it is HLS.
        if readsPlaylist, Self.namesPlaylist(newItem.uri) { readInterstitials(of: id, uri: newItem.uri) }
        Log.debug("playing \(newItem.uri)")
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// Loads `playbackItem` in the player and follows its streams under the
    /// new load's ID: the item on show, with its stream's variants as far as
    /// they are known (every load of it, or its height limit is lost), or an
    /// interstitial in its place, with none.
    @discardableResult
    private func load(_ playbackItem: PlaybackItem, in player: PlayerController, startingAt start: Duration?,
                      autoplay: Bool, subtitles: SubtitleFile?, holdsHLS: Bool = false,
                      streamVariants: [StreamVariant]) -> PlaybackItemID {
        let id = player.load(playbackItem, startingAt: start, autoplay: autoplay, subtitles: subtitles, holdsHLS: holdsHLS,
                             streamVariants: streamVariants)
        itemID = id
        isItemReady = false
        tickTask?.cancel()
        tickTask = itemTask { [weak self, player] in
            for await tick in player.positionTicks(of: id) { self?.ticked(tick) }
        }
        assetTask?.cancel()
        assetTask = itemTask { [weak self, player] in
            for await asset in player.assetUpdates(of: id) { self?.learnt(asset, about: id) }
        }
        eventTask?.cancel()
        eventTask = itemTask { [weak self, player] in
            for await event in player.events(of: id) { self?.happened(event, to: id) }
        }
        return id
    }

    /// The item that plays a library episode, from its download if it has
    /// one; nil, after saying so, when it has no media.
    func item(for episode: EpisodeSummary, localFile: URL?) -> Item? {
        guard let media = localFile ?? episode.mediaURL else {
            messageHandler?(tr("This episode has no media to play"), false)
            return nil
        }
        let kind: PlaybackItem.Kind = episode.mediaType.map { $0.hasPrefix("video/") ? .video : .audio } ?? .unknown
        return Item(uri: media.absoluteString, title: episode.title ?? tr("Untitled episode"),
                    showTitle: episode.showTitle, kind: kind, episode: episode.id, show: episode.showID,
                    artwork: episode.imageURL ?? episode.showImageURL)
    }

    // MARK: Transport

    /// Whether the item on show is loaded in the player (not stopped, not never started).
    private var isLoaded: Bool { itemID != nil && player?.currentItemID == itemID }

    func play() {
        if preparation != nil {
            preparedStart = .playing
            return
        }
        guard let item else { return }
        guard isLoaded else {
            // Stopped: the same item again, from where it stopped, under a load this owner knows.
            newRequest()
            play(item, startingAt: position)
            return
        }
        if phase.isFailure {
            retry()
            return
        }
        // After a long pause, start a little earlier to find the thread again.
        if phase == .paused, let pausedAt, interstitialBreak == nil {
            let start = settings.resumePolicy.start(from: position.seconds, pausedFor: Date().timeIntervalSince(pausedAt))
            if start < position.seconds { seek(to: .seconds(start)) }
        }
        player?.play()
    }

    func pause() {
        if preparation != nil, preparedStart == .playing { preparedStart = .paused }
        guard isLoaded else { return }
        player?.pause()
    }

    func togglePlayPause() {
        // The intent, not the phase: a seek while paused passes through
        // buffering, which is not playing; a play being prepared is not loaded yet.
        let wantsPlaying = preparation != nil ? preparedStart == .playing : isLoaded && player?.wantsPlaying == true
        if wantsPlaying { pause() } else { play() }
    }

    /// Unloads the item and saves where it was; it stays on show, and Play
    /// starts it again from there.
    func stop() {
        if preparation != nil {
            preparedStart = .stopped
        } else {
            newRequest()
        }
        guard isLoaded, let player else { return }
        saveCurrentPosition()
        if let current = interstitialBreak {
            // Play goes on with the item from where the interstitial took it.
            position = current.itemPosition
            duration = current.itemDuration
            isLive = current.itemIsLive
            interstitialBreak = nil
            Log.debug("interstitial \(current.interstitial.id): cancelled")
        }
        if sleepTimer.mode == .endOfChapter { sleepTimer.cancel() }
        itemID = nil
        for task in [tickTask, assetTask, eventTask, interstitialTask, crossingTask, liveReadTask] { task?.cancel() }
        dropDueInterstitials()
        player.stop()
        phase = .idle
        video?.clear()
        Log.debug(String(format: "stopped at %.2f s", position.seconds))
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// Shows `newItem` stopped at `start`, not loaded: a play prepared while
    /// Stop came. Play loads it from there.
    private func showStopped(_ newItem: Item, at start: Duration) {
        saveCurrentPosition()
        resume.begin(Self.resumeKey(of: newItem), show: newItem.show)
        chapters.begin(uri: newItem.uri, episode: newItem.episode)
        item = newItem
        position = start
        duration = nil
        tracks = .none
        subtitleFile = nil
        Log.debug("stopped before playing \(newItem.uri)")
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// Loads the failed item again where it failed; only offered for
    /// failures that trying again can mend (offline, a timeout, a server error).
    func retry() {
        guard let item, let retryPoint else { return }
        Log.debug(String(format: "retrying at %.2f s", retryPoint.seconds))
        newRequest()
        play(item, startingAt: retryPoint)
    }

    /// Plays from `target`. Stopped, the item will start there.
    /// Over an interstitial that may not be jumped, it plays first; inside
    /// one that may not be skipped, the seek is refused.
    func seek(to target: Duration) {
        guard item != nil else { return }
        if let current = interstitialBreak {
            guard InterstitialSchedule.seek(during: current.interstitial) == .go else {
                Log.debug("interstitial \(current.interstitial.id): seek refused, it may not be skipped")
                // The slider goes back to where the interstitial plays.
                notify()
                return
            }
        }
        let landing = min(max(target, .zero), duration ?? target)
        if interstitialBreak == nil, isLoaded, !isLive,
           case .playFirst(let over) = schedule.seek(from: (player?.position ?? position).seconds, to: landing.seconds) {
            Log.debug(String(format: "interstitial %@: sought over, it plays first, then %.2f s", over.id, landing.seconds))
            interstitialDue(over, then: landing)
            return
        }
        position = landing
        if isLoaded { player?.seek(to: position) }
        mpris?.didSeek(to: position)
        if interstitialBreak == nil {
            resume.stopped(at: position, duration: duration)
            moved()
            // Back before one that has played: it plays again when crossed, unless it plays once.
            if isLoaded, schedule.sought(to: landing.seconds), let itemID { watchCrossings(of: itemID) }
        }
        notify()
    }

    /// The video's own size in pixels, as its stream says; nil without video.
    var videoSize: (width: Int, height: Int)? {
        guard let track = player?.asset?.tracks.first(where: { $0.kind == .video }),
              let width = track.width, let height = track.height else { return nil }
        return (width, height)
    }

    /// Jumps a live item that can seek (a DVR window) to its live edge.
    func goToLive() {
        guard isLoaded, isLive, interstitialBreak == nil, let player else { return }
        Log.debug("live: going to the edge")
        player.goToLive()
        liveLag = .zero
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// A step of a drag along the seek bar: a fast (key-unit) seek, at most
    /// one in flight in the player, and nothing written or announced; the
    /// release's `seek(to:)` lands exactly, records the position once and
    /// tells MPRIS.
    /// Past an interstitial that may not be jumped it only moves the
    /// slider: the release plays that one first.
    func scrub(to target: Duration) {
        guard item != nil else { return }
        if let current = interstitialBreak, InterstitialSchedule.seek(during: current.interstitial) == .refused {
            notify()
            return
        }
        position = min(max(target, .zero), duration ?? target)
        let isBlocked = interstitialBreak == nil
            && schedule.seek(from: (player?.position ?? position).seconds, to: position.seconds) != .go
        if isLoaded, !isBlocked { player?.seek(to: position, mode: .fast) }
        if interstitialBreak == nil { moved() }
        notify()
    }

    /// Sets the speed as the speed menu does: remembered for the show playing, else the preference.
    func setRate(_ rate: Double) {
        guard PlaybackRate.range.contains(rate) else { return }
        if settings.settings == nil {
            player?.setRate(PlaybackRate(rate))
            mpris?.propertiesMayHaveChanged()
        } else {
            settings.set(Variant(rate), forKey: "playback-speed")
        }
    }

    /// The listener's volume, 0…1.
    func setVolume(_ volume: Double) {
        guard let player, volume.isFinite else { return }
        player.volume = min(max(volume, 0), 1)
        mpris?.propertiesMayHaveChanged()
    }

    func skipForward() { skip(by: settings.skipForward) }
    func skipBackward() { skip(by: .zero - settings.skipBackward) }

    private func skip(by offset: Duration) {
        guard item != nil else { return }
        seek(to: (player?.position ?? position) + offset)
    }

    /// After a seek: the chapter may be another, and an end-of-chapter
    /// timer now means the chapter sought into.
    private func moved() {
        chapters.update(position: position)
        if sleepTimer.mode == .endOfChapter { sleepTimer.start(.endOfChapter) }
    }

    // MARK: Chapters

    func nextChapter() {
        if let start = chapters.list.nextStart(after: position.seconds) { seek(to: .seconds(start)) }
    }

    func previousChapter() {
        if let start = chapters.list.previousStart(before: position.seconds) { seek(to: .seconds(start)) }
    }

    /// Plays from the start of the `index`th listed chapter.
    func seekToChapter(_ index: Int) {
        let listed = chapters.list.listed
        guard listed.indices.contains(index) else { return }
        seek(to: .seconds(listed[index].start))
    }

    // MARK: For the sleep timer

    var rate: Double { player?.rate.value ?? 1 }

    /// Fades the sound to `level` of the listener's volume (1 ends the
    /// fade); the volume itself, which MPRIS shows and sets, stays.
    func setFade(_ level: Double) {
        guard let player else { return }
        // Announced a tenth at a time, for the tests that follow a fade.
        if (player.fadeLevel * 10).rounded(.down) != (level * 10).rounded(.down) {
            Log.debug(String(format: "sleep timer: fade %.1f", (level * 10).rounded(.down) / 10))
        }
        player.fadeLevel = level
    }

    /// Pauses through the controller, as the pause button does.
    func pauseForSleep() {
        pause()
        if let current = player?.position { position = current }
    }

    /// Each of `times` as playback of the current item passes it.
    func boundaryCrossings(_ times: [Duration]) -> AsyncStream<Duration> {
        guard let player, let itemID else { return AsyncStream { $0.finish() } }
        return player.boundaryCrossings(times, of: itemID)
    }

    /// Writes the current item's position; before quitting, await the
    /// task it returns.
    @discardableResult
    func saveCurrentPosition() -> Task<Void, Never>? {
        // The player holds the interstitial: the item is where it was left
        // (after its end, for a POST one: finished, nothing to record).
        if let current = interstitialBreak {
            guard !current.interstitial.cue.contains(.post) else { return nil }
            return resume.stopped(at: current.itemPosition, duration: current.itemDuration)
        }
        if isLoaded, let current = player?.position { position = current }
        guard item != nil, position > .zero, phase != .ended else { return nil }
        return resume.stopped(at: position, duration: duration)
    }

    /// What the window shows: the newest phase of the current load (a
    /// phase passed over while the main thread was busy is not missed by
    /// anyone; one-time work rides on `happened`).
    private func apply(_ state: PlaybackState) {
        guard state.itemID == itemID, itemID != nil else { return }
        phase = state.phase
        Log.debug("playback: \(state.phase)")
        switch state.phase {
        case .paused:
            if let current = player?.position { position = current }
            pausedAt = Date()
            Log.debug(String(format: "paused at %.2f s", position.seconds))
            saveCurrentPosition()
        case .playing:
            pausedAt = nil
        case .idle, .failed:
            // A message, not a frozen frame.
            video?.clear()
        case .ready, .ended, .loading, .buffering:
            break
        }
        notify()
    }

    /// The current load's one-time events, each exactly once.
    private func happened(_ event: ItemEvent, to id: PlaybackItemID) {
        guard id == itemID else { return }
        Log.debug("item event: \(event)")
        if let current = interstitialBreak {
            interstitialHappened(event, current)
            return
        }
        switch event {
        case .ready(let live):
            isItemReady = true
            isLive = live
            liveLag = live ? player?.liveLag : nil
            if let uri = item?.uri, scheduleURI == uri {
                // Read while it loaded, or the same stream again.
                watchCrossings(of: id)
                readAgainWhileLive(id)
            } else if interstitialTask == nil, player?.streamDemuxer?.hasPrefix("hlsdemux") == true, let uri = item?.uri {
                readInterstitials(of: id, uri: uri)
            }
            duration = live ? nil : player?.duration
            chapters.embedded(in: player?.asset)
            applyPendingChoice()
            tracks = player?.tracks ?? .none
            if player?.isSubtitleFileUnrecognised == true, let file = subtitleFile {
                subtitleFile = nil
                messageHandler?(String(format: tr("The subtitles in “%@” cannot be shown: %@"), file.url.lastPathComponent,
                                     tr("GStreamer cannot tell what kind of file it is.")), false)
            }
            mpris?.propertiesMayHaveChanged()
        case .ended:
            if let duration { position = duration }
            resume.finish()
            if let postroll = schedule.dueAtEnd, scheduleURI == item?.uri {
                interstitialDue(postroll, then: nil)
            } else {
                itemEnded()
            }
        case .failed(let error):
            let title = item?.title ?? ""
            retryPoint = error.isRetryable ? position : nil
            messageHandler?(String(format: tr("Cannot play “%@”: %@"), title, FailureText.playback(error)), error.isRetryable)
        case .interrupted(let why):
            interrupted(why)
        }
        notify()
    }

    private func interrupted(_ why: ItemEvent.Interruption) {
        switch why {
        case .soundServer: messageHandler?(tr("Paused while another app needs the sound"), false)
        case .outputGone: messageHandler?(tr("Paused: the sound output was disconnected"), false)
        }
    }

    /// Reads the playlist of HLS item `uri`, loaded as `id`, for its
    /// interstitials, while the player holds the item at ready. Then a PRE
    /// one (or one starting where the item starts) plays first; else the
    /// item is let go. The answer is dropped if another load came meanwhile.
    private func readInterstitials(of id: PlaybackItemID, uri: String) {
        guard let url = URL(string: uri) else { return }
        let fetcher = library.interstitialFetcher()
        interstitialTask?.cancel()
        interstitialTask = Task { [weak self] in
            let playlist: HLSMediaPlaylist
            do {
                playlist = try await fetcher.playlist(at: url)
            } catch {
                guard let self, !Task.isCancelled, id == itemID else { return }
                Log.debug("interstitials: none read: \(error)")
                player?.releaseHold(of: id)
                return
            }
            guard let self, !Task.isCancelled, id == itemID else { return }
            read(playlist, of: uri, in: id)
        }
    }

    private func read(_ playlist: HLSMediaPlaylist, of uri: String, in id: PlaybackItemID) {
        schedule = InterstitialSchedule(playlist.interstitials)
        scheduleURI = uri
        streamVariants = playlist.variants
        player?.setStreamVariants(streamVariants, of: id)
        livePlaylist = playlist.hasEndList ? nil : (playlist.url, playlist.timelineStart,
                                                      .seconds(max(1, playlist.targetDuration ?? 1)))
        Log.debug("interstitials: \(scheduleSummary)")
        notify()
        // Before ready the item starts where it was asked to.
        let at = isItemReady ? (player?.position ?? position) : position
        if let due = schedule.dueOnArrival(at: at.seconds) {
            interstitialDue(due, then: nil)
            return
        }
        player?.releaseHold(of: id)
        if isItemReady {
            watchCrossings(of: id)
            readAgainWhileLive(id)
        }
    }

    /// The schedule for the debug log: "2 (first at 4.0 s, locked at 12.0 s)".
    private var scheduleSummary: String {
        let starts = schedule.interstitials.map { String(format: "%@ at %.1f s", $0.id, $0.start) }
        return "\(schedule.interstitials.count) (\(starts.joined(separator: ", ")))"
    }

    /// While load `id` of a live item plays, reads its playlist again at
    /// its target duration, as players do, for the interstitials it gains
    /// or withdraws (`InterstitialSchedule.reloaded`). Ends with the load:
    /// an interstitial, another item or Stop cancels it.
    private func readAgainWhileLive(_ id: PlaybackItemID) {
        liveReadTask?.cancel()
        liveReadTask = nil
        guard isLive, let source = livePlaylist else { return }
        let fetcher = library.interstitialFetcher()
        liveReadTask = Task { [weak self] in
            while (try? await Task.sleep(for: source.every)) != nil {
                let playlist: HLSMediaPlaylist
                do {
                    playlist = try await fetcher.playlist(at: source.url, timelineStart: source.timelineStart)
                } catch {
                    guard !Task.isCancelled else { return }
                    Log.debug("interstitials: the live playlist not read again: \(error)")
                    continue
                }
                guard let self, !Task.isCancelled, id == itemID else { return }
                readAgain(playlist, in: id)
            }
        }
    }

    private func readAgain(_ playlist: HLSMediaPlaylist, in id: PlaybackItemID) {
        guard interstitialBreak == nil,
              schedule.reloaded(playlist.interstitials, windowStart: playlist.windowStart ?? 0) else { return }
        Log.debug("interstitials: \(scheduleSummary), the live playlist read again")
        notify()
        // One dated where playback is now (at the live edge) plays at once; later ones when crossed.
        if let due = schedule.dueOnArrival(at: (player?.position ?? position).seconds) {
            interstitialDue(due, then: nil)
        } else {
            watchCrossings(of: id)
        }
    }

    /// Whether the address's path ends in an HLS playlist's name (…/index.m3u8?token=1).
    static func namesPlaylist(_ uri: String) -> Bool {
        guard let path = URL(string: uri)?.path else { return false }
        return path.lowercased().hasSuffix(".m3u8")
    }

    // MARK: Interstitials

    /// Watches load `id` of the item cross the starts of the interstitials still to play.
    private func watchCrossings(of id: PlaybackItemID) {
        crossingTask?.cancel()
        crossingTask = nil
        let starts = schedule.pendingStarts
        guard let player, !starts.isEmpty else { return }
        crossingTask = Task { [weak self, player] in
            for await time in player.boundaryCrossings(starts.map { .seconds($0) }, of: id) {
                self?.crossed(time, in: id)
            }
        }
    }

    private func crossed(_ time: Duration, in id: PlaybackItemID) {
        guard id == itemID, interstitialBreak == nil, let due = schedule.due(at: time.seconds) else { return }
        interstitialDue(due, then: nil)
    }

    /// An interstitial come due and not yet playing: its assets, nil while
    /// its asset list is fetched (empty when nothing of it can play).
    private struct DueInterstitial {
        let serial: Int
        let interstitial: HLSInterstitial
        /// Where a seek over it asked to go.
        let then: Duration?
        var assets: [InterstitialBreak.Asset]?
        var fetch: Task<Void, Never>?
    }

    /// `interstitial` is due: it plays in the item's place, its asset or,
    /// once fetched, the assets its list names, after those due before it;
    /// the item goes on when they end, at `target` if a seek over it asked
    /// for one, else as the schedule says.
    private func interstitialDue(_ interstitial: HLSInterstitial, then target: Duration?) {
        guard player != nil, item != nil, itemID != nil else { return }
        schedule.markPlayed(interstitial)
        dueSerial += 1
        var due = DueInterstitial(serial: dueSerial, interstitial: interstitial, then: target)
        if let asset = interstitial.assetURI {
            due.assets = [.init(uri: asset, listedDuration: nil)]
        } else if let list = interstitial.assetList {
            // The item plays on while the list is fetched (a slow or broken
            // ad server does not stall it), unless it is held for a PRE one.
            Log.debug("interstitial \(interstitial.id): reading its asset list \(list.absoluteString)")
            due.fetch = fetchAssetList(list, of: interstitial, serial: due.serial)
        } else {
            return
        }
        dueInterstitials.append(due)
        playDueInterstitial()
    }

    private func fetchAssetList(_ list: URL, of interstitial: HLSInterstitial, serial: Int) -> Task<Void, Never> {
        let fetcher = library.interstitialFetcher()
        return Task { [weak self] in
            let result: Result<HLSAssetList, any Error>
            do {
                result = .success(try await fetcher.assetList(at: list))
            } catch {
                result = .failure(error)
            }
            guard let self, !Task.isCancelled,
                  let index = dueInterstitials.firstIndex(where: { $0.serial == serial }) else { return }
            switch result {
            case .success(let listed) where listed.assets.isEmpty:
                Log.debug("interstitial \(interstitial.id): its asset list is empty; the item goes on")
            case .success(let listed):
                Log.debug("interstitial \(interstitial.id): \(listed.assets.count) assets listed")
            case .failure(let error):
                Log.debug("interstitial \(interstitial.id): asset list not read (\(error)); the item goes on")
            }
            let assets = (try? result.get())?.assets ?? []
            dueInterstitials[index].assets = assets.map { .init(uri: $0.uri, listedDuration: $0.duration) }
            dueInterstitials[index].fetch = nil
            playDueInterstitial()
        }
    }

    /// Plays the first interstitial come due once its assets are known,
    /// unless one is playing (its end plays the next). One with nothing to
    /// play is passed over; the last passed over lets the item go on as if
    /// it had not come due.
    private func playDueInterstitial() {
        guard interstitialBreak == nil, let id = itemID else { return }
        while let first = dueInterstitials.first, let assets = first.assets {
            dueInterstitials.removeFirst()
            guard assets.isEmpty else {
                beginBreak(first.interstitial, assets: assets, then: first.then)
                return
            }
            if dueInterstitials.isEmpty { skipBreak(first.interstitial, then: first.then, in: id) }
        }
    }

    /// The interstitials come due are dropped with the item: their fetches cancelled.
    private func dropDueInterstitials() {
        for due in dueInterstitials { due.fetch?.cancel() }
        dueInterstitials = []
    }

    /// Nothing of `interstitial` can play: the item goes on as if it had not come due.
    private func skipBreak(_ interstitial: HLSInterstitial, then target: Duration?, in id: PlaybackItemID) {
        if interstitial.cue.contains(.post) {
            itemEnded()
            return
        }
        // A PRE one held it at ready.
        player?.releaseHold(of: id)
        if let target {
            seek(to: target)
        } else if isItemReady {
            watchCrossings(of: id)
        }
    }

    /// Plays `assets` of `interstitial` in the item's place; after `previous`,
    /// where the item was left before that one.
    private func beginBreak(_ interstitial: HLSInterstitial, assets: [InterstitialBreak.Asset], then target: Duration?,
                            after previous: InterstitialBreak? = nil) {
        guard let player else { return }
        // Before ready the item is where it was asked to start.
        let leftAt = previous?.leftAt ?? (isItemReady ? (player.position ?? position) : position)
        let current = InterstitialBreak(interstitial: interstitial, assets: assets, leftAt: leftAt,
                                        itemDuration: previous?.itemDuration ?? duration,
                                        itemIsLive: previous?.itemIsLive ?? isLive, then: target ?? previous?.then,
                                        followsAnother: previous != nil)
        // After the item's end (POST) it is finished: nothing more to record.
        if !interstitial.cue.contains(.post) { resume.stopped(at: current.itemPosition, duration: current.itemDuration) }
        crossingTask?.cancel()
        crossingTask = nil
        liveReadTask?.cancel()
        liveReadTask = nil
        interstitialBreak = current
        isLive = false
        liveLag = nil
        playAsset(of: current)
    }

    /// Loads the break's current asset as a load of its own.
    private func playAsset(of current: InterstitialBreak) {
        guard let player, let item else { return }
        phase = .loading
        position = .zero
        duration = nil
        tracks = .none
        let asset = current.asset.uri.absoluteString
        // As the item was playing; a later asset follows the one before (of
        // its list or another interstitial's), a POST one the item's end.
        let autoplay = player.wantsPlaying || current.index > 0 || current.followsAnother
            || current.interstitial.cue.contains(.post)
        let id = load(PlaybackItem(uri: asset, kind: item.kind, title: tr("Interstitial")), in: player,
                      startingAt: nil, autoplay: autoplay, subtitles: nil, streamVariants: [])
        Log.debug(String(format: "interstitial %@: playing %@ (load %@) in place of the item at %.2f s",
                         current.interstitial.id, asset, "\(id)", current.leftAt.seconds))
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    /// The one-time events of the interstitial playing: each asset's end
    /// or failure hands on to the next, the last one's back to the item.
    private func interstitialHappened(_ event: ItemEvent, _ current: InterstitialBreak) {
        switch event {
        case .ready:
            duration = player?.duration
            mpris?.propertiesMayHaveChanged()
        case .ended:
            assetEnded(current, after: (duration ?? current.asset.listedDuration.map { .seconds($0) } ?? position).seconds)
        case .failed(let error):
            // An asset that cannot play does not keep the listener from the rest, nor from the item.
            Log.debug("interstitial \(current.interstitial.id): \(current.asset.uri.absoluteString) failed (\(error.code))")
            assetEnded(current, after: nil)
        case .interrupted(let why):
            interrupted(why)
        }
        notify()
    }

    private func assetEnded(_ current: InterstitialBreak, after seconds: Double?) {
        var next = current
        if next.assetEnded(after: seconds) {
            interstitialBreak = next
            playAsset(of: next)
        } else {
            endBreak(next)
        }
    }

    /// Hands back to the item after `current`: loads it again where it
    /// goes on, or, after a POST interstitial, leaves it ended.
    private func endBreak(_ current: InterstitialBreak) {
        guard let player, let item else { return }
        interstitialBreak = nil
        // Another came due meanwhile, its assets known: it plays next, in the item's place still.
        while let next = dueInterstitials.first, let assets = next.assets {
            dueInterstitials.removeFirst()
            if !assets.isEmpty {
                beginBreak(next.interstitial, assets: assets, then: next.then, after: current)
                return
            }
        }
        let resumption = current.then.map { .at($0.seconds) } ?? InterstitialSchedule.resumption(
            after: current.interstitial, assetDuration: current.playedSeconds, leftAt: current.leftAt.seconds,
            isLive: current.itemIsLive)
        let target: Duration?
        switch resumption {
        case .ended:
            Log.debug("interstitial \(current.interstitial.id): over, the item has ended")
            itemID = nil
            for task in [tickTask, assetTask, eventTask, crossingTask, liveReadTask] { task?.cancel() }
            dropDueInterstitials()
            player.stop()
            video?.clear()
            phase = .ended
            position = .zero
            duration = current.itemDuration
            mpris?.propertiesMayHaveChanged()
            itemEnded()
            return
        case .liveEdge:
            Log.debug("interstitial \(current.interstitial.id): over, the item goes back to its live edge")
            target = nil
        case .at(let seconds):
            target = .seconds(seconds)
            Log.debug(String(format: "interstitial %@: over, the item resumes at %.2f s", current.interstitial.id, seconds))
        }
        phase = .loading
        position = target ?? .zero
        duration = current.itemDuration
        load(PlaybackItem(uri: item.uri, kind: item.kind, title: item.title), in: player, startingAt: target,
             autoplay: true, subtitles: subtitleFile, streamVariants: streamVariants)
        if let target { resume.stopped(at: target, duration: duration) }
        mpris?.propertiesMayHaveChanged()
    }

    /// The item played to its end (and its POST interstitial, if any): the sleep timer or the queue goes on.
    private func itemEnded() {
        if !sleepTimer.itemEnded() { endHandler?() }
    }

    /// The probe's chapters, cover art and tracks, after the item became ready.
    private func learnt(_ asset: LoadedAsset, about id: PlaybackItemID) {
        guard id == itemID, interstitialBreak == nil else { return }
        duration = player?.duration ?? duration
        chapters.embedded(in: asset)
        tracks = player?.tracks ?? .none
        mpris?.propertiesMayHaveChanged()
        notify()
    }

    private func ticked(_ tick: PositionTick) {
        guard tick.itemID == itemID else { return }
        position = tick.position
        if let current = interstitialBreak {
            // The interstitial's own time: nothing of the item's is recorded or moved.
            duration = tick.duration ?? duration
            Log.debug(String(format: "interstitial %@ at %.1f s", current.interstitial.id, tick.position.seconds))
            notify()
            return
        }
        if isLive {
            let wasBehind = isBehindLiveEdge
            liveLag = player?.liveLag
            if isBehindLiveEdge != wasBehind {
                Log.debug(String(format: "live: %@ the edge (%.0f s behind)", isBehindLiveEdge ? "behind" : "at",
                                 (liveLag ?? .zero).seconds))
            }
        } else {
            duration = tick.duration ?? duration
        }
        Log.debug(String(format: "position: %.1f s", tick.position.seconds))
        if let saved = timeSavedBySkippingSilence, saved > .zero {
            Log.debug(String(format: "silence skipped: %.1f s", saved.seconds))
        }
        resume.playing(at: tick.position, duration: duration)
        // The show's outro is skipped by going to the end, which ends the episode as usual.
        if let outro = showSettings?.skipOutro, outro > 0, let duration, tick.position >= duration - .seconds(outro),
           tick.position < duration {
            Log.debug("skipping the outro")
            player?.seek(to: duration)
        }
        chapters.update(position: tick.position)
        sleepTimer.ticked(position: tick.position, duration: duration)
        // Streams can come late (a subtitle file is read after the media).
        tracks = player?.tracks ?? .none
        notify()
    }

    /// A task that follows one of the item's streams, counted while it runs.
    private func itemTask(_ follow: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        runningItemTasks += 1
        return Task { [weak self] in
            await follow()
            self?.runningItemTasks -= 1
        }
    }

    /// What runs for the item on show, for `LiveTaskReport`.
    private var liveTasks: String {
        "load \(itemID.map { "\($0)" } ?? "none"), item tasks \(runningItemTasks), "
            + "observer tasks \(PlaybackDiagnostics.observerTasks), probes \(PlaybackDiagnostics.probes), "
            + "sleep timer \(sleepTimer.mode == nil ? "off" : "on") with \(sleepTimer.runningTasks) tasks"
    }

    private func notify() {
        report()
        for observer in observers { observer() }
    }

    /// What the debug log last said is playing.
    private var reported: String?

    /// Says in the debug log which load and phase the owner holds, when
    /// that changes: how tests from outside the process compare it with
    /// the window, MPRIS and the player.
    private func report() {
        let load = itemID.map { "\($0)" } ?? "none"
        let shown = "\(load) \(phase) | \(item?.title ?? "-")"
        guard shown != reported else { return }
        reported = shown
        Log.debug("now playing: \(shown)")
    }
}
