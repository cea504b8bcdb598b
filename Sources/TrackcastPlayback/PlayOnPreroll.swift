import Bindings
import Synchronization

/// Starts a prerolled item playing from GStreamer's side, the moment the
/// pipeline posts its ASYNC_DONE, instead of after the message's trip
/// through the main loop and the controller's `ready`.
///
/// The pipeline still prerolls to PAUSED, as every item does: going
/// straight to PLAYING made GStreamer 1.22 now and then finalise a failing
/// demuxer on its own streaming thread. Only the step from prerolled to
/// PLAYING is taken early, on GStreamer's thread pool
/// (`gst_element_call_async`, as a bin continues its own state changes).
///
/// The controller arms it at `load` for an item with nothing to do between
/// preroll and play (a local file, from its start, at normal speed, to
/// play at once), and disarms it before it changes the pipeline's state
/// itself. Each arming has its own number: a start scheduled for one item
/// that runs late does nothing to the next. Disarming waits for a start in
/// progress, so once `disarm` returns the pipeline is the controller's.
final class PlayOnPreroll: Sendable {
    /// The arming in force, 0 for none. Atomic, not under `starting`: the
    /// streaming thread that reads it may hold the sink's preroll lock,
    /// which a start in progress waits for.
    private let armed = Atomic<UInt64>(0)
    private let armings = Atomic<UInt64>(0)
    /// Held while a start changes the pipeline's state.
    private let starting = Mutex(())

    init(bus: Bus) {
        bus.onAsyncDoneSynchronously { [self] pipeline in prerolled(pipeline) }
    }

    /// The next ASYNC_DONE starts the pipeline playing (once).
    func arm() {
        armed.store(armings.add(1, ordering: .relaxed).newValue, ordering: .sequentiallyConsistent)
    }

    func disarm() {
        armed.store(0, ordering: .sequentiallyConsistent)
        starting.withLock { _ in }
    }

    /// On the streaming thread that posted ASYNC_DONE.
    private func prerolled(_ pipeline: Element) {
        let arming = armed.load(ordering: .sequentiallyConsistent)
        guard arming != 0 else { return }
        pipeline.callAsync { [self] pipeline in
            starting.withLock { _ in
                guard armed.compareExchange(expected: arming, desired: 0, ordering: .sequentiallyConsistent).exchanged
                else { return }
                pipeline.setState(.playing)
            }
        }
    }
}
