import CGLib
import Synchronization

/// Closure boxes alive in the process, for leak checks in tests.
private let liveClosureBoxes = Atomic<Int>(0)

/// Base class of the boxes that carry a Swift closure through a C signal
/// connection. The box is retained for as long as the connection exists and
/// released by GLib's destroy notify: on disconnect, or when the object is
/// finalised. The destroy notify releases through this non-generic base.
open class SignalClosureBox {
    /// How many boxes exist right now: one per connected handler, so a
    /// count that only grows is a closure (and what it captured) leaked.
    public static var liveCount: Int { liveClosureBoxes.load(ordering: .relaxed) }

    public init() { liveClosureBoxes.add(1, ordering: .relaxed) }
    deinit { liveClosureBoxes.subtract(1, ordering: .relaxed) }
}

/// A box for one handler closure of any signature.
public final class SignalHandlerBox<Handler>: SignalClosureBox {
    public let handler: Handler
    public init(_ handler: Handler) { self.handler = handler }

    /// Recovers the box from the `user_data` a trampoline receives.
    public static func from(_ userData: gpointer?) -> SignalHandlerBox<Handler> {
        Unmanaged<SignalClosureBox>.fromOpaque(userData!).takeUnretainedValue() as! SignalHandlerBox<Handler>
    }
}

private let releaseBox: GClosureNotify = { userData, _ in
    guard let userData else { return }
    Unmanaged<SignalClosureBox>.fromOpaque(userData).release()
}

/// A connected signal handler; `disconnect()` removes it (and frees its closure).
public struct SignalConnection {
    public let handlerID: gulong
    weak var object: ObjectRef?

    /// Removes the handler; does nothing if it or its object is already gone.
    public func disconnect() {
        guard let object, g_signal_handler_is_connected(object.objectPointer, handlerID) != 0 else { return }
        g_signal_handler_disconnect(object.objectPointer, handlerID)
    }
}

extension ObjectRef {
    /// The one place signals are connected. `trampoline` is a C function whose
    /// signature matches the signal, taking the box as its last argument.
    @discardableResult
    public func connect(signal: String, trampoline: GCallback, box: SignalClosureBox) -> SignalConnection {
        let userData = Unmanaged.passRetained(box).toOpaque()
        let id = g_signal_connect_data(objectPointer, signal, trampoline, userData, releaseBox, GConnectFlags(0))
        precondition(id != 0, "\(typeName) has no signal \"\(signal)\"")
        return SignalConnection(handlerID: id, object: self)
    }
}

// Typed helpers for the signal shapes the app uses. GLib emits them on the
// thread that owns the object, which for everything connected here is the
// main thread, so each trampoline enters the main actor.
extension ObjectRef {
    public typealias Handler = @MainActor () -> Void
    public typealias PointerHandler = @MainActor (UnsafeMutableRawPointer?) -> Void
    public typealias PredicateHandler = @MainActor () -> Bool

    /// A signal with no arguments and no return value, e.g. `clicked`, `activate`.
    @discardableResult
    public func onSignal(_ signal: String, _ handler: @escaping Handler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, userData in
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            MainActor.assumeIsolated { handler() }
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<Handler>(handler))
    }

    /// A signal with one pointer argument, e.g. `notify` (the GParamSpec) or
    /// GSimpleAction's `activate` (the parameter GVariant).
    @discardableResult
    public func onSignal(_ signal: String, _ handler: @escaping PointerHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, userData in
            let handler = SignalHandlerBox<PointerHandler>.from(userData).handler
            // A pointer is not Sendable; its address is, and the emission
            // keeps the pointee alive for this synchronous call.
            let address = UInt(bitPattern: argument)
            MainActor.assumeIsolated { handler(UnsafeMutableRawPointer(bitPattern: address)) }
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<PointerHandler>(handler))
    }

    /// A signal returning a gboolean with no arguments, e.g. `close-request`.
    @discardableResult
    public func onQuerySignal(_ signal: String, _ handler: @escaping PredicateHandler) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, userData in
            let handler = SignalHandlerBox<PredicateHandler>.from(userData).handler
            return MainActor.assumeIsolated { handler() } ? 1 : 0
        }
        return connect(signal: signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                       box: SignalHandlerBox<PredicateHandler>(handler))
    }
}
