import CGLib

// GStreamer emits many signals (source-setup, element-setup, discovered,
// sync-message) on whichever thread happens to do the work, often a
// streaming thread. Those handlers must not use the main-actor trampolines of
// `onSignal`: they take `@Sendable` closures, run where they are emitted, and
// hop elsewhere themselves if they need to.
extension ObjectRef {
    public typealias AnyThreadObjectHandler = @Sendable (Element) -> Void

    /// A signal whose one argument is a GstElement, e.g. playbin's
    /// `source-setup` and `element-setup`. The handler may run on any thread.
    @discardableResult
    public func onElementSignalFromAnyThread(_ signal: String,
                                             _ handler: @escaping AnyThreadObjectHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, userData in
            guard let argument else { return }
            SignalHandlerBox<AnyThreadObjectHandler>.from(userData).handler(Element(argument, transfer: .none))
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<AnyThreadObjectHandler>(handler))
    }

    public typealias AnyThreadHandler = @Sendable () -> Void

    /// `handoff` of `fakesink` and `identity`: a buffer passed (for a sink
    /// with `signal-handoffs=true`, was rendered). Runs on the streaming thread.
    @discardableResult
    public func onHandoffFromAnyThread(_ handler: @escaping AnyThreadHandler) -> SignalConnection {
        // (element, buffer, pad, user data)
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, _, _, userData in
            SignalHandlerBox<AnyThreadHandler>.from(userData).handler()
        }
        return connect(signal: "handoff", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<AnyThreadHandler>(handler))
    }
}
