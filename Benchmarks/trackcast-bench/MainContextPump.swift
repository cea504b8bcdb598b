import Bindings

/// Runs `body` while a main-actor task dispatches GLib's main context every
/// 250 µs. This executable's main is async, so the main actor runs on
/// libdispatch's main queue, not in a GLib main loop; bus watches, D-Bus
/// callbacks and timeouts need the pump. (The app's GLib main loop
/// dispatches at once, so figures taken here are, if anything, high.)
@MainActor
func withMainContextPump<Result>(_ body: () async throws -> Result) async rethrows -> Result {
    let pump = Task { @MainActor in
        while !Task.isCancelled {
            while MainContext.dispatchPending() {}
            try? await Task.sleep(for: .microseconds(250))
        }
    }
    defer { pump.cancel() }
    return try await body()
}
