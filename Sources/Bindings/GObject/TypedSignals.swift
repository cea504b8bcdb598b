import CGLib

// Signal shapes beyond the basic three in SignalConnection.swift. Each
// trampoline's C signature must match the signal's, or the arguments GLib
// pushes are read as garbage.
extension ObjectRef {
    public typealias PositionHandler = @MainActor (UInt32) -> Void
    public typealias StringHandler = @MainActor (String) -> Void

    /// A signal with one guint argument, e.g. GtkListView's and GtkGridView's
    /// `activate` (the activated position).
    @discardableResult
    public func onPositionSignal(_ signal: String, _ handler: @escaping PositionHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, position, userData in
            let handler = SignalHandlerBox<PositionHandler>.from(userData).handler
            MainActor.assumeIsolated { handler(position) }
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<PositionHandler>(handler))
    }

    /// A signal with one string argument, e.g. AdwMessageDialog's `response`.
    @discardableResult
    public func onStringSignal(_ signal: String, _ handler: @escaping StringHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, UnsafePointer<gchar>?, gpointer?) -> Void = { _, text, userData in
            let handler = SignalHandlerBox<StringHandler>.from(userData).handler
            let string = text.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { handler(string) }
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<StringHandler>(handler))
    }
}

extension ObjectRef {
    public typealias IntegerHandler = @MainActor (Int32) -> Void

    /// A signal with one gint argument, e.g. GtkNativeDialog's `response`.
    @discardableResult
    public func onIntegerSignal(_ signal: String, _ handler: @escaping IntegerHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, userData in
            let handler = SignalHandlerBox<IntegerHandler>.from(userData).handler
            MainActor.assumeIsolated { handler(value) }
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<IntegerHandler>(handler))
    }
}
