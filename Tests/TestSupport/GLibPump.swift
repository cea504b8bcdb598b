import Bindings

/// Drives GLib's default main context for in-process tests (player, D-Bus).
///
/// In the app, the main thread runs `g_main_loop_run` and the MainQueueBridge
/// drains the main actor's queue from it. Under `swift test` it is the other
/// way round: the test runner parks the main thread in `dispatch_main`, which
/// runs main-actor jobs but never iterates GLib, so bus watches and GLib
/// timeouts would never fire. The pump is a main-actor task that dispatches
/// whatever GLib has ready, then sleeps 2 ms, for as long as the test process
/// lives. Bus messages are therefore handled on the main thread inside a
/// main-actor job, exactly the isolation the controller relies on, a few
/// milliseconds later than a real main loop would. (The CLI tests run the
/// real thing: `trackcast play` on `g_main_loop_run`.)
@MainActor
public enum GLibPump {
    private static var task: Task<Void, Never>?

    public static func start() {
        guard task == nil else { return }
        task = Task { @MainActor in
            while true {
                var budget = 100
                while MainContext.dispatchPending(), budget > 0 { budget -= 1 }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }
}
