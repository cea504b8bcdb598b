import CGLib
import CGStreamer
import Synchronization

/// A pipeline's message bus.
public final class Bus: ObjectRef {
    var bus: UnsafeMutablePointer<GstBus> { pointer() }

    init(adopting pointer: UnsafeMutablePointer<GstBus>) {
        super.init(UnsafeMutableRawPointer(pointer), transfer: .full)
    }

    /// Drops every message waiting on the bus. Call it after the pipeline has
    /// reached NULL, when nothing can post any more, so that whatever the bus
    /// delivers afterwards was posted afterwards.
    /// Returns how many were dropped, and how many of those were errors.
    @discardableResult
    public func discardPendingMessages() -> DiscardedMessages {
        var dropped = DiscardedMessages()
        while let message = gst_bus_pop(bus) {
            dropped.count += 1
            if message.pointee.type == GST_MESSAGE_ERROR { dropped.errors += 1 }
            gst_message_unref(message)
        }
        gst_bus_set_flushing(bus, 1)
        gst_bus_set_flushing(bus, 0)
        return dropped
    }
}

/// What `Bus.discardPendingMessages()` dropped.
public struct DiscardedMessages: Sendable {
    public var count = 0
    public var errors = 0
}

/// Bus watches alive in the process, for leak checks in tests.
private let liveBusWatches = Atomic<Int>(0)

/// A watch that delivers a bus's messages on the main context, one at a
/// time, in the order they were posted. GStreamer allows one watch per bus.
/// The handler's closure lives until `remove()` or `deinit`.
///
/// Messages of other kinds than `kinds`, and state changes of other
/// elements than `stateChangesOf`, are dropped on the posting thread and
/// never wake the main loop. A preroll posts some sixty messages, most of
/// them the state changes of every element inside playbin; delivered one
/// main-loop turn each, they queued ASYNC_DONE behind them by milliseconds.
@MainActor
public final class BusWatch {
    public typealias Handler = @MainActor (Message) -> Void

    /// How many watches exist in the process right now.
    public nonisolated static var liveCount: Int { liveBusWatches.load(ordering: .relaxed) }

    private let bus: Bus
    private var isAttached: Bool

    /// Watches `bus` from the main thread's default context (GStreamer attaches
    /// the watch to the thread-default context of the caller, and the main
    /// actor runs on the main thread, which has none of its own).
    public init(bus: Bus, kinds: Set<Message.Kind>, stateChangesOf source: Element, _ handler: @escaping Handler) {
        self.bus = bus
        let filter = Unmanaged.passRetained(BusFilter(kinds: kinds, stateChangesOf: source)).toOpaque()
        gst_bus_set_sync_handler(bus.bus, BusFilter.syncHandler, filter, BusFilter.release)
        let box = Unmanaged.passRetained(SignalHandlerBox<Handler>(handler)).toOpaque()
        let id = gst_bus_add_watch_full(bus.bus, G_PRIORITY_DEFAULT, { _, message, userData in
            let handler = SignalHandlerBox<Handler>.from(userData).handler
            let wrapped = Message(borrowing: message!)
            MainActor.assumeIsolated { handler(wrapped) }
            return 1
        }, box, { userData in
            Unmanaged<SignalClosureBox>.fromOpaque(userData!).release()
            liveBusWatches.subtract(1, ordering: .relaxed)
        })
        precondition(id != 0, "the bus already has a watch")
        liveBusWatches.add(1, ordering: .relaxed)
        isAttached = true
    }

    /// Stops delivering; messages still queued stay on the bus.
    public func remove() {
        guard isAttached else { return }
        isAttached = false
        gst_bus_remove_watch(bus.bus)
        gst_bus_set_sync_handler(bus.bus, nil, nil, nil)
    }

    isolated deinit { remove() }
}

/// Which messages a `BusWatch` lets through, asked on the posting thread.
private final class BusFilter: Sendable {
    private let types: UInt32
    /// Compared, never followed: the element owns the bus, so it outlives the filter.
    private let stateSource: UInt

    init(kinds: Set<Message.Kind>, stateChangesOf source: Element) {
        types = kinds.reduce(0) { $0 | Message.messageTypes(of: $1) }
        stateSource = UInt(bitPattern: source.objectPointer)
    }

    /// Outside the main actor: GStreamer calls it on whichever thread posts.
    /// A sync handler that drops a message owns it, and unrefs it.
    static let syncHandler: GstBusSyncHandler = { _, message, userData in
        if Unmanaged<BusFilter>.fromOpaque(userData!).takeUnretainedValue().passes(message!) { return GST_BUS_PASS }
        gst_message_unref(message)
        return GST_BUS_DROP
    }

    static let release: GDestroyNotify = { userData in
        Unmanaged<BusFilter>.fromOpaque(userData!).release()
    }

    private func passes(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let type = UInt32(bitPattern: message.pointee.type.rawValue)
        guard type & types != 0 else { return false }
        return message.pointee.type != GST_MESSAGE_STATE_CHANGED
            || UInt(bitPattern: UnsafeMutableRawPointer(message.pointee.src)) == stateSource
    }
}

extension Bus {
    /// Waits, blocking the calling thread, up to `timeout` for the next
    /// message of one of `kinds`, dropping others. For code that owns no main
    /// loop (a benchmark's bare pipeline); the player uses a `BusWatch`.
    public func waitForMessage(_ kinds: Set<Message.Kind>, timeout: Duration) -> Message? {
        var mask: Int32 = 0
        if kinds.contains(.endOfStream) { mask |= GST_MESSAGE_EOS.rawValue }
        if kinds.contains(.error) { mask |= GST_MESSAGE_ERROR.rawValue }
        if kinds.contains(.asyncDone) { mask |= GST_MESSAGE_ASYNC_DONE.rawValue }
        if kinds.contains(.stateChanged) { mask |= GST_MESSAGE_STATE_CHANGED.rawValue }
        if kinds.contains(.buffering) { mask |= GST_MESSAGE_BUFFERING.rawValue }
        guard let popped = gst_bus_timed_pop_filtered(bus, timeout.clockTime, GstMessageType(rawValue: mask)) else {
            return nil
        }
        defer { gst_message_unref(popped) }
        return Message(borrowing: popped)
    }

    /// Calls `handler` with every ERROR message at the moment it is posted,
    /// on the posting thread (usually a streaming thread), before any watch
    /// sees it. For noting details; the handler must be quick.
    public func onErrorSynchronously(_ handler: @escaping @Sendable (MessageFailure) -> Void) {
        gst_bus_enable_sync_message_emission(bus)
        typealias Handler = @Sendable (MessageFailure) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, message, userData in
            guard let message else { return }
            let wrapped = Message(borrowing: message.assumingMemoryBound(to: GstMessage.self))
            if let failure = wrapped.failure {
                SignalHandlerBox<Handler>.from(userData).handler(failure)
            }
        }
        connect(signal: "sync-message::error", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<Handler>(handler))
    }
}
