import Foundation
import Bindings
import TrackcastLibrary

/// Refreshes every show by itself while the app runs: once
/// `refresh-interval-hours` (Preferences → "Check for New Episodes") have
/// passed since the last refresh of them all, the app's or `trackcast
/// refresh`'s (`LibraryStore.lastFullRefresh`), at start if that is long
/// enough ago. Its failures are not announced: they show on the shows, and
/// an offline laptop would otherwise get a toast every hour.
@MainActor
final class RefreshSchedule {
    static let intervalKey = "refresh-interval-hours"
    /// The most a wait sleeps before it reads the clock again: a laptop
    /// that slept past the time refreshes soon after it wakes.
    private static let longestNap: TimeInterval = 600

    private let library: LibraryModel
    private let settings: AppSettings
    private let refresh: @MainActor () -> Void
    /// Counted from when the schedule started, in a library never refreshed whole.
    private let started = Date()
    private var waiting: Task<Void, Never>?
    /// When this schedule last started a refresh.
    private var lastStarted: Date?

    init(library: LibraryModel, settings: AppSettings, refresh: @escaping @MainActor () -> Void) {
        self.library = library
        self.settings = settings
        self.refresh = refresh
        settings.onChange(Self.intervalKey) { [weak self] in self?.schedule() }
        schedule()
    }

    /// A refresh of every show ended, automatic or not: the wait starts again from it.
    func refreshed() { schedule() }

    /// Nil when the user refreshes by hand only.
    private var interval: TimeInterval? {
        let hours = settings.int(forKey: Self.intervalKey, fallback: 1)
        return hours > 0 ? TimeInterval(hours) * 3600 : nil
    }

    /// Waits for the next refresh, reading the last one's time from the
    /// library at each wake, so that a refresh by hand or by the command
    /// line meanwhile moves the next one on. It counts from its own last
    /// refresh too, so that a library that cannot record the time is still
    /// refreshed once an interval, not over and over.
    private func schedule() {
        waiting?.cancel()
        guard let interval else {
            Log.debug("automatic refresh: off")
            return
        }
        waiting = Task { [weak self, library, started] in
            var announced = false
            while !Task.isCancelled {
                let recorded = await library.lastFullRefresh() ?? started
                // Nil once the schedule is gone: the loop ends with it.
                guard let wait = self?.wait(afterRecorded: recorded, interval: interval) else { return }
                if wait <= 0 {
                    Log.debug("automatic refresh: due, refreshing")
                    self?.lastStarted = Date()
                    self?.refresh()
                    announced = false
                    continue
                }
                if !announced {
                    Log.debug("automatic refresh: due in \(Int(wait.rounded(.up))) s")
                    announced = true
                }
                guard (try? await Task.sleep(for: .seconds(min(wait, Self.longestNap)))) != nil else { return }
            }
        }
    }

    /// Seconds until the next refresh is due, counted from the last one recorded or started here.
    private func wait(afterRecorded recorded: Date, interval: TimeInterval) -> TimeInterval {
        // A time ahead of the clock (a clock set back) counts as now.
        let last = min(max(recorded, lastStarted ?? recorded), Date())
        return last.addingTimeInterval(interval).timeIntervalSinceNow
    }
}
