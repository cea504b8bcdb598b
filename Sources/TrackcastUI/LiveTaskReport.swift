import Bindings

/// With debug output on, says in the log what still runs for the item on
/// show (its tasks, the player's observers and probes, the sleep timer's
/// task) whenever that changes, checked twice a second: how tests from
/// outside the process check that nothing outlives its item. Without debug
/// output it does nothing and wakes nothing.
@MainActor
final class LiveTaskReport {
    private var timer: Timeout?
    private var reported: String?

    init(describe: @escaping @MainActor () -> String) {
        guard Log.isDebugOn else { return }
        timer = Timeout(milliseconds: 500) { [weak self] in
            guard let self else { return false }
            let live = describe()
            if live != reported {
                reported = live
                Log.debug("alive: \(live)")
            }
            return true
        }
    }

    isolated deinit {
        timer?.cancel()
    }
}
