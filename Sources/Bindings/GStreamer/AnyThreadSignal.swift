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

    /// `notify::<property>` of an element: the handler gets the element,
    /// wrapped afresh on the emitting thread (pulsesink notifies
    /// `current-device` from its streaming thread).
    @discardableResult
    public func onPropertyChangeFromAnyThread(_ property: String,
                                              _ handler: @escaping AnyThreadObjectHandler) -> SignalConnection {
        // (object, param spec, user data)
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { object, _, userData in
            guard let object else { return }
            SignalHandlerBox<AnyThreadObjectHandler>.from(userData).handler(Element(object, transfer: .none))
        }
        return connect(signal: "notify::\(property)", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<AnyThreadObjectHandler>(handler))
    }

    /// True the first time it is asked for `key` on this object, false
    /// after: for work done once per object from a signal that repeats
    /// (playbin's `element-setup` comes again for the same sink each time
    /// the sink is put back into its chain).
    public func markFirstTime(_ key: String) -> Bool {
        guard g_object_get_data(objectPointer, key) == nil else { return false }
        g_object_set_data(objectPointer, key, UnsafeMutableRawPointer(bitPattern: 1))
        return true
    }
}
