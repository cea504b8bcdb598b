import Bindings
import Foundation
import TrackcastLibrary

/// Keeps the current item's resume position: records it about once a
/// second while it plays, flushes the recorded positions every few seconds
/// and whenever playback stops moving forward on its own (pause, seek,
/// another item, quit), and forgets it once the item is finished.
@MainActor
final class ResumeTracker {
    /// A kill loses at most this much listening.
    static let flushInterval: Duration = .seconds(5)
    private static let recordInterval: Duration = .seconds(1)

    private let library: LibraryModel
    private var key: ResumeKey?
    private var show: ShowID?
    /// Finished items record nothing more: a late tick must not bring back
    /// the position that finishing cleared.
    private var isFinished = false
    private var lastRecorded: ContinuousClock.Instant?
    private var lastFlushed = ContinuousClock.now

    init(library: LibraryModel) {
        self.library = library
    }

    /// A new item starts; the previous one's last position is already recorded.
    func begin(_ key: ResumeKey?, show: ShowID?) {
        self.key = key
        self.show = show
        isFinished = false
        lastRecorded = nil
    }

    /// A position tick while playing.
    func playing(at position: Duration, duration: Duration?) {
        guard let key, !isFinished else { return }
        let (seconds, total) = (position.seconds, duration?.seconds)
        if ResumePolicy.isFinished(position: seconds, duration: total) {
            finish()
            return
        }
        let now = ContinuousClock.now
        if let lastRecorded, now - lastRecorded < Self.recordInterval { return }
        lastRecorded = now
        let flushes = now - lastFlushed >= Self.flushInterval
        if flushes { lastFlushed = now }
        let (library, show, date) = (library, show, Date())
        Task {
            await library.resumePositions.record(key, position: seconds, duration: total, at: date)
            if flushes { await library.flushPositions(show: show) }
        }
    }

    /// Playback stopped moving on its own: paused, sought, replaced or quitting.
    /// Await the task before the process ends.
    @discardableResult
    func stopped(at position: Duration, duration: Duration?) -> Task<Void, Never>? {
        guard let key, !isFinished else { return nil }
        let (seconds, total) = (position.seconds, duration?.seconds)
        if ResumePolicy.isFinished(position: seconds, duration: total) {
            return finish()
        }
        lastRecorded = .now
        lastFlushed = .now
        let (library, show, date) = (library, show, Date())
        return Task {
            await library.resumePositions.record(key, position: seconds, duration: total, at: date)
            await library.flushPositions(show: show)
            library.playbackStopped()
        }
    }

    /// The item played to its end.
    @discardableResult
    func finish() -> Task<Void, Never>? {
        guard let key, !isFinished else { return nil }
        isFinished = true
        Log.debug("finished \(key)")
        let library = library
        return Task {
            await library.finished(key)
            library.playbackStopped()
        }
    }
}
