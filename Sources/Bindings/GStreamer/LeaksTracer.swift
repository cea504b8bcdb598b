import CGLib
import CGStreamer

/// GStreamer's `leaks` tracer, present when the process started with
/// `GST_TRACERS=leaks` in its environment (read once, by `gst_init`). It
/// follows every GstObject (elements, pads, buses, clocks, pools) and every
/// mini object (buffers, caps, events, messages, queries) from creation to
/// finalisation, so a leak check can count what is alive by type, including
/// what the app's own Swift counters never see: an element inside playbin
/// whose last reference someone forgot to drop.
public struct GStreamerLeaksTracer {
    private let tracer: ObjectRef

    /// The running leaks tracer, or nil when GST_TRACERS did not ask for one.
    public static func active() -> GStreamerLeaksTracer? {
        GStreamer.initialize()
        // Transfer full: a list of tracers, each with a reference of ours.
        guard let tracers = gst_tracing_get_active_tracers() else { return nil }
        defer { g_list_free_full(tracers, { gst_object_unref($0) }) }
        var node: UnsafeMutablePointer<GList>? = tracers
        while let current = node {
            if let tracer = current.pointee.data,
               String(cString: g_type_name(tc_type_from_instance(tracer))) == "GstLeaksTracer" {
                return GStreamerLeaksTracer(tracer: ObjectRef(tracer, transfer: .none))
            }
            node = current.pointee.next
        }
        return nil
    }

    /// The GStreamer objects and mini objects alive now, counted by type name
    /// (e.g. "GstBuffer", "GstQueue2"), through the tracer's
    /// `get-live-objects` action signal.
    public func liveObjectCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        var instance = GValue()
        g_value_init(&instance, tc_type_object())
        g_value_set_object(&instance, tracer.objectPointer)
        defer { g_value_unset(&instance) }
        var result = GValue()
        g_value_init(&result, gst_structure_get_type())
        defer { g_value_unset(&result) }
        let signal = g_signal_lookup("get-live-objects", tc_type_from_instance(tracer.objectPointer))
        g_signal_emitv(&instance, signal, 0, &result)
        guard let info = g_value_get_boxed(&result)?.assumingMemoryBound(to: GstStructure.self),
              let list = gst_structure_get_value(info, "live-objects-list") else { return counts }
        for index in 0..<gst_value_list_get_size(list) {
            guard let entry = gst_value_get_structure(gst_value_list_get_value(list, index)),
                  let object = gst_structure_get_value(entry, "object") else { continue }
            counts[String(cString: g_type_name(object.pointee.g_type)), default: 0] += 1
            // The tracer puts each object in the list without taking a
            // reference (to avoid deadlocks, says GStreamer), yet freeing the
            // list drops one: add the reference the list will drop, or every
            // live object would lose one.
            if g_type_is_a(object.pointee.g_type, tc_type_object()) != 0 {
                g_object_ref(g_value_get_object(object))
            } else if let miniObject = g_value_get_boxed(object) {
                gst_mini_object_ref(miniObject.assumingMemoryBound(to: GstMiniObject.self))
            }
        }
        return counts
    }
}
