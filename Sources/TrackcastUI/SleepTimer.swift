import Bindings
import Foundation
import TrackcastCore

/// Pauses playback after some minutes, at the end of the episode or at the
/// end of the chapter, fading the sound out over the last ten seconds. It
/// pauses through the player controller (the pipeline stays, so playback
/// continues where it stopped) and the pause saves the position.
@MainActor
final class SleepTimer {
    enum Mode: Equatable {
        case minutes(Int)
        case endOfEpisode
        case endOfChapter
    }

    static let fadeLength: Double = 10
    private unowned let nowPlaying: NowPlaying
    private(set) var mode: Mode?
    /// For `.minutes`: when it pauses.
    private var deadline: ContinuousClock.Instant?
    /// For `.endOfChapter`: where it pauses.
    private(set) var boundary: Duration?
    private var task: Task<Void, Never>?
    /// Its tasks still running, cancelled ones included until they end.
    private(set) var runningTasks = 0
    /// Counts the timers started: a task of an earlier one that wakes after
    /// a cancel or a restart fires nothing (`fire(run:)`).
    private var run = 0
    private var observers: [@MainActor () -> Void] = []

    init(nowPlaying: NowPlaying) {
        self.nowPlaying = nowPlaying
    }

    func observe(_ observer: @escaping @MainActor () -> Void) { observers.append(observer) }

    /// What is left of a minutes timer, for the menu.
    var remaining: Duration? { deadline.map { max(.zero, $0 - .now) } }

    func start(_ newMode: Mode) {
        cancel()
        mode = newMode
        switch newMode {
        case .minutes(let minutes):
            let deadline = ContinuousClock.now + .seconds(minutes * 60)
            self.deadline = deadline
            runMinutes(until: deadline)
        case .endOfChapter:
            let position = nowPlaying.position.seconds
            // In the last chapter, or with none, the chapter ends with the episode.
            guard let end = nowPlaying.chapters.list.end(ofChapterAt: position) else {
                mode = .endOfEpisode
                break
            }
            boundary = .seconds(end)
            let crossings = nowPlaying.boundaryCrossings([.seconds(end)])
            let run = run
            task = counted { [weak self] in
                for await _ in crossings {
                    self?.fire(run: run)
                    return
                }
            }
        case .endOfEpisode:
            break
        }
        Log.debug("sleep timer: \(mode.map { "\($0)" } ?? "off")")
        notify()
    }

    /// Adds minutes to a minutes timer, or starts one.
    func extend(byMinutes minutes: Int) {
        guard case .minutes(let current) = mode, let deadline else {
            start(.minutes(minutes))
            return
        }
        task?.cancel()
        nowPlaying.setFade(1)
        let later = deadline + .seconds(minutes * 60)
        self.deadline = later
        mode = .minutes(current + minutes)
        runMinutes(until: later)
        Log.debug("sleep timer: extended by \(minutes) min")
        notify()
    }

    func cancel() {
        run += 1
        task?.cancel()
        task = nil
        deadline = nil
        boundary = nil
        let wasSet = mode != nil
        mode = nil
        nowPlaying.setFade(1)
        if wasSet {
            Log.debug("sleep timer: off")
            notify()
        }
    }

    /// A position tick: fades in the ten seconds before the end of the
    /// episode or chapter.
    func ticked(position: Duration, duration: Duration?) {
        let end: Duration? = switch mode {
        case .endOfChapter: boundary
        case .endOfEpisode: duration
        case .minutes, nil: nil
        }
        guard let end else { return }
        fade(remaining: (end - position).seconds / nowPlaying.rate)
    }

    /// The item ended. Returns whether the timer stops playback here (so
    /// the queue does not go on).
    func itemEnded() -> Bool {
        guard mode == .endOfEpisode || mode == .endOfChapter else { return false }
        Log.debug("sleep timer: stopped at the end of the episode")
        cancel()
        return true
    }

    private func runMinutes(until deadline: ContinuousClock.Instant) {
        run += 1
        let run = run
        task = counted { [weak self] in
            try? await Task.sleep(until: deadline - .seconds(Self.fadeLength), clock: .continuous)
            while !Task.isCancelled, self?.run == run {
                let left = (deadline - .now).seconds
                self?.fade(remaining: left)
                if left <= 0 {
                    self?.fire(run: run)
                    return
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    private func fade(remaining: Double) {
        nowPlaying.setFade(min(1, max(0, remaining / Self.fadeLength)))
    }

    /// The timer started as `run` is due; one cancelled or replaced since fires nothing.
    private func fire(run: Int) {
        guard run == self.run, !Task.isCancelled else { return }
        nowPlaying.pauseForSleep()
        Log.debug(String(format: "sleep timer: paused at %.2f s", nowPlaying.position.seconds))
        cancel()
    }

    private func counted(_ body: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        runningTasks += 1
        return Task { [weak self] in
            await body()
            self?.runningTasks -= 1
        }
    }

    private func notify() {
        for observer in observers { observer() }
    }
}
