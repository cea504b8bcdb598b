import Bindings
import Foundation
import TrackcastCore

/// The bar at the bottom of every view while something is loaded: what
/// plays, play/pause and skips (through the app's actions, like the
/// keyboard shortcuts), the position and a spinner while loading or buffering.
@MainActor
final class PlayerBar {
    let root = Box(.vertical)
    private let title = Label()
    private let show = Label()
    private let time = Label()
    /// "Saved 1:23 by skipping silence", while skip silence is on and has saved a second or more.
    private let timeSaved = Label()
    /// Shown instead of the length for a live item.
    private let liveBadge = Label()
    /// Shown while an interstitial of the stream plays in the item's place.
    private let interstitialBadge = Label()
    /// Shown for a live item played well behind its live edge.
    private let goToLive = Button(iconName: "go-last-symbolic", tooltip: tr("Go to Live"), action: "app.go-to-live")
    private let spinner = Spinner()
    private let progress = Scale(accessibleLabel: tr("Position"))
    private let playPause = Button(iconName: "media-playback-start-symbolic", tooltip: tr("Play"), action: "app.play-pause")
    private var showsPause = false
    /// What the debug log last said the bar shows.
    private var reported: String?
    /// A seek passes through buffering for a moment; the spinner shows only
    /// for a wait someone would notice, instead of flickering.
    private var spinnerDelay: Timeout?
    /// While the user drags the slider, ticks must not pull it back.
    private var lastUserMove: ContinuousClock.Instant?
    /// A pointer is down on the slider: its moves are fast seeks, and the
    /// release seeks exactly to where it was let go (`dragTarget`).
    private var isDragging = false
    private var dragTarget: Double?
    /// Where the slider's chapter marks are, so they are redrawn only when the chapters change.
    private var chapterMarks: [Double] = []
    /// Where interstitials begin and end, marked over the slider.
    private var interstitialMarks: [Double] = []
    private static let artworkSize: Int32 = 40
    private let artwork = Image(iconName: "audio-x-generic-symbolic", pixelSize: PlayerBar.artworkSize)
    private let artworkCache: ArtworkCache
    /// The artwork shown, so a late delivery for an earlier item is dropped.
    /// The artwork's address, or the icon shown while there is none.
    private var shownArtwork: URL?
    private var shownPlaceholder: String?

    private static let speeds = [0.75, 1.0, 1.25, 1.5, 1.75, 2.0]
    private let speed: MenuButton
    private let chapterMenu: ChapterMenu
    private let sleepMenu: SleepTimerMenu

    init(nowPlaying: NowPlaying, artworkCache: ArtworkCache, settings: AppSettings) {
        self.artworkCache = artworkCache
        let speeds = Menu()
        for value in Self.speeds {
            // A GVariant double in the target: "1.0", never "1", which would be an int32.
            speeds.append(Self.speedText(value), action: String(format: "app.playback-speed(%.2f)", value))
        }
        // The listening effects sit with the speed: check items over the settings' own actions.
        let effects = Menu()
        effects.append(tr("Skip Silence"), action: "app.skip-silence")
        effects.append(tr("Voice Boost"), action: "app.voice-boost")
        speeds.appendSection(effects)
        speed = MenuButton(label: Self.speedText(settings.playbackSpeed), tooltip: tr("Playback Speed"), menu: speeds)
        speed.addCSSClass("flat")
        speed.align(horizontal: .center, vertical: .center)
        settings.onChange("playback-speed") { [speed] in speed.setLabel(Self.speedText(settings.playbackSpeed)) }
        // Tight: ten controls share 360 pixels in a narrow window.
        let bar = Box(.horizontal, spacing: 2)
        bar.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        let text = Box(.vertical, spacing: 2)
        text.expandHorizontally()
        text.align(horizontal: .fill, vertical: .center)
        title.alignStart()
        title.ellipsize()
        title.addCSSClass("heading")
        show.alignStart()
        show.ellipsize()
        show.addCSSClass("dim-label")
        show.addCSSClass("caption")
        text.append(title)
        text.append(show)
        artwork.align(horizontal: .start, vertical: .center)
        bar.append(artwork)
        bar.append(text)
        spinner.isSpinning = false
        bar.append(spinner)
        time.useTabularNumbers()
        time.align(horizontal: .end, vertical: .center)
        time.addCSSClass("dim-label")
        chapterMenu = ChapterMenu(chapters: nowPlaying.chapters)
        sleepMenu = SleepTimerMenu(timer: nowPlaying.sleepTimer)
        bar.append(chapterMenu.root)
        bar.append(sleepMenu.root)
        bar.append(speed)
        let back = Button(iconName: "media-seek-backward-symbolic", tooltip: tr("Skip Back"), action: "app.seek-backward")
        let forward = Button(iconName: "media-seek-forward-symbolic", tooltip: tr("Skip Forward"), action: "app.seek-forward")
        for button in [back, playPause, forward] {
            button.addCSSClass("flat")
            button.align(horizontal: .center, vertical: .center)
        }
        playPause.addCSSClass("circular")
        bar.append(back)
        bar.append(playPause)
        bar.append(forward)
        progress.expandHorizontally()
        progress.onUserChange { [weak self] seconds in self?.userMoved(to: seconds) }
        progress.onDrag(began: { [weak self] in self?.dragBegan() }, ended: { [weak self] in self?.dragEnded() })
        // Where the slider is, for tests that drag it as a person would.
        progress.onSignal("map") { [progress] in
            progress.afterFirstPaint { [progress] in
                guard let bounds = progress.boundsOnSurface else { return }
                Log.debug(String(format: "scrubber: at %.0f %.0f %.0f %.0f", bounds.x, bounds.y, bounds.width, bounds.height))
            }
        }
        // The time beside the slider, not among the buttons, leaves the
        // title room at 360 pixels.
        let timeline = Box(.horizontal, spacing: 6)
        timeline.setMargins(top: 4, bottom: 0, start: 12, end: 18)
        timeline.append(progress)
        timeSaved.useTabularNumbers()
        timeSaved.align(horizontal: .end, vertical: .center)
        timeSaved.addCSSClass("dim-label")
        timeSaved.addCSSClass("caption")
        timeSaved.isVisible = false
        timeline.append(timeSaved)
        timeline.append(time)
        liveBadge.text = tr("LIVE")
        liveBadge.addCSSClass("caption-heading")
        liveBadge.addCSSClass("error")
        liveBadge.align(horizontal: .end, vertical: .center)
        liveBadge.isVisible = false
        goToLive.addCSSClass("flat")
        goToLive.align(horizontal: .end, vertical: .center)
        goToLive.isVisible = false
        timeline.append(goToLive)
        timeline.append(liveBadge)
        interstitialBadge.text = tr("Interstitial")
        interstitialBadge.addCSSClass("caption-heading")
        interstitialBadge.addCSSClass("accent")
        interstitialBadge.align(horizontal: .end, vertical: .center)
        interstitialBadge.isVisible = false
        timeline.append(interstitialBadge)
        root.append(Separator())
        root.append(timeline)
        root.append(bar)
        root.isVisible = false
        nowPlaying.observe { [weak self, unowned nowPlaying] in self?.render(nowPlaying) }
        // Chapters can arrive while paused (a chapters file fetched later).
        nowPlaying.chapters.observe { [weak self, unowned nowPlaying] in self?.render(nowPlaying) }
    }

    private func render(_ nowPlaying: NowPlaying) {
        guard let item = nowPlaying.item else {
            root.isVisible = false
            report("hidden")
            return
        }
        root.isVisible = true
        showArtwork(nowPlaying.artwork, placeholder: nowPlaying.hasVideo ? "video-x-generic-symbolic" : "audio-x-generic-symbolic")
        title.text = item.title
        show.text = item.showTitle ?? ""
        show.isVisible = item.showTitle != nil
        time.text = nowPlaying.duration.map { "\(TimeText.clock(nowPlaying.position)) / \(TimeText.clock($0))" }
            ?? TimeText.clock(nowPlaying.position)
        if let saved = nowPlaying.timeSavedBySkippingSilence, saved >= .seconds(1) {
            timeSaved.text = String(format: tr("Saved %@ by skipping silence"), TimeText.clock(saved))
            timeSaved.isVisible = true
        } else {
            timeSaved.isVisible = false
        }
        liveBadge.isVisible = nowPlaying.isLive
        let playingInterstitial = nowPlaying.interstitialBreak?.interstitial
        interstitialBadge.isVisible = playingInterstitial != nil
        // One that may not be skipped cannot be dragged through either.
        progress.isSensitive = playingInterstitial?.forbidsSkip != true
        goToLive.isVisible = nowPlaying.isLive && nowPlaying.isBehindLiveEdge
        if nowPlaying.isLive {
            // A live item has no length and no slider; its position is where it has been playing since.
            time.isVisible = false
            progress.isVisible = false
        } else if let duration = nowPlaying.duration {
            time.isVisible = true
            progress.isVisible = true
            if progress.upperBound != duration.seconds { progress.upperBound = duration.seconds }
            // The slider is the interstitial's own while one plays: the item's marks are not on it.
            if playingInterstitial == nil {
                markChapters(nowPlaying.chapters.list.listed.map(\.start).filter { $0 > 0 && $0 < duration.seconds },
                             interstitials: nowPlaying.interstitials.map(\.range))
            } else {
                markChapters([], interstitials: [])
            }
            if !isDragging, lastUserMove.map({ ContinuousClock.now - $0 > .seconds(1) }) ?? true {
                progress.value = nowPlaying.position.seconds
            }
        } else {
            // Anything whose length is not known yet.
            time.isVisible = true
            progress.isVisible = false
        }
        switch nowPlaying.phase {
        case .loading, .buffering: showSpinnerSoon()
        default:
            spinnerDelay?.cancel()
            spinnerDelay = nil
            spinner.isSpinning = false
        }
        let wantsPause = nowPlaying.isActive
        if wantsPause != showsPause {
            showsPause = wantsPause
            playPause.setIcon(wantsPause ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                              tooltip: wantsPause ? tr("Pause") : tr("Play"))
        }
        let shown = (nowPlaying.isLive ? "LIVE" + (goToLive.isVisible ? " | go to live" : "") : time.text)
            + (playingInterstitial.map { " | interstitial " + $0.id + ($0.forbidsSkip ? " (locked)" : "") } ?? "")
        report("\(item.title) | \(wantsPause ? "Pause" : "Play") | \(shown)")
    }

    /// A keyboard step or a click lands exactly at once; a drag's steps are
    /// fast seeks (the player keeps one in flight), and its release lands
    /// exactly, so the library is written once per drag, not once per step.
    private func userMoved(to seconds: Double) {
        lastUserMove = .now
        if isDragging {
            dragTarget = seconds
            progress.activateAction("app.scrub-to", parameter: Variant(seconds))
        } else {
            progress.activateAction("app.seek-to", parameter: Variant(seconds))
        }
    }

    private func dragBegan() {
        isDragging = true
        dragTarget = nil
    }

    private func dragEnded() {
        guard isDragging else { return }
        isDragging = false
        lastUserMove = .now
        guard let target = dragTarget else { return }
        dragTarget = nil
        progress.activateAction("app.seek-to", parameter: Variant(target))
    }

    /// Says in the debug log what the bar shows, when that changes: how
    /// tests from outside the process read the window.
    private func report(_ shown: String) {
        guard shown != reported else { return }
        reported = shown
        Log.debug("player bar: \(shown)")
    }

    /// A tick under the slider where each listed chapter starts (the first,
    /// at zero, needs none), so the chapters can be seen and aimed at; ticks
    /// over it where each interstitial the stream schedules begins and ends.
    private func markChapters(_ starts: [Double], interstitials: [ClosedRange<Double>]) {
        let bounds = interstitials.flatMap { [$0.lowerBound, $0.upperBound] }
        guard starts != chapterMarks || bounds != interstitialMarks else { return }
        if starts != chapterMarks { Log.debug("scrubber: \(starts.count) chapter marks") }
        if bounds != interstitialMarks {
            Log.debug("scrubber: \(interstitials.count) interstitial ranges ("
                      + interstitials.map { String(format: "%.1f-%.1f", $0.lowerBound, $0.upperBound) }.joined(separator: ", ") + ")")
        }
        chapterMarks = starts
        interstitialMarks = bounds
        progress.setMarks(below: starts, above: bounds)
    }

    /// `url`'s picture; until it is loaded, or without one, the icon `placeholder`.
    private func showArtwork(_ url: URL?, placeholder: String) {
        guard url != shownArtwork || (url == nil && placeholder != shownPlaceholder) else { return }
        shownArtwork = url
        shownPlaceholder = placeholder
        artwork.setIconName(placeholder)
        Log.debug("player bar artwork: \(url?.absoluteString ?? placeholder)")
        guard let url else { return }
        artworkCache.texture(for: url, size: Self.artworkSize) { [weak self] texture in
            guard self?.shownArtwork == url else { return }
            self?.artwork.setTexture(texture)
        }
    }

    private static let speedFormatter: NumberFormatter = {
        let formatter = NumberFormatter()
        formatter.minimumFractionDigits = 0
        formatter.maximumFractionDigits = 2
        formatter.minimumIntegerDigits = 1
        return formatter
    }()

    /// "1.5×" in the user's number format.
    private static func speedText(_ value: Double) -> String {
        (speedFormatter.string(from: NSNumber(value: value)) ?? "\(value)") + "×"
    }

    private func showSpinnerSoon() {
        guard !spinner.isSpinning, spinnerDelay == nil else { return }
        spinnerDelay = Timeout(milliseconds: 400) { [weak self] in
            self?.spinnerDelay = nil
            self?.spinner.isSpinning = true
            return false
        }
    }
}
