import CGLib
import CGStreamer

/// Why a GStreamer object could not be made.
public enum GStreamerError: Error, Equatable, CustomStringConvertible {
    /// No plug-in provides this element factory.
    case missingElement(String)
    /// A pipeline description did not parse.
    case badDescription(String, GLibError)

    public var description: String {
        switch self {
        case .missingElement(let factory): "the GStreamer element \"\(factory)\" is not installed"
        case .badDescription(let text, let error): "cannot build \"\(text)\": \(error.message)"
        }
    }
}

/// A GStreamer element state.
public enum ElementState: Int32, Sendable, CustomStringConvertible {
    case voidPending = 0, null, ready, paused, playing

    init(_ state: GstState) { self = ElementState(rawValue: Int32(state.rawValue)) ?? .voidPending }
    var gstState: GstState { GstState(rawValue: UInt32(rawValue)) }

    public var description: String {
        switch self {
        case .voidPending: "void-pending"
        case .null: "null"
        case .ready: "ready"
        case .paused: "paused"
        case .playing: "playing"
        }
    }
}

/// What `gst_element_set_state` said.
public enum StateChangeResult: Sendable {
    case failure, success, async
    /// A live source: it produces no data in PAUSED, so there is no preroll.
    case noPreroll

    init(_ value: GstStateChangeReturn) {
        switch value {
        case GST_STATE_CHANGE_SUCCESS: self = .success
        case GST_STATE_CHANGE_ASYNC: self = .async
        case GST_STATE_CHANGE_NO_PREROLL: self = .noPreroll
        default: self = .failure
        }
    }
}

/// How a seek lands.
public struct SeekFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Throw away queued data so the seek takes effect at once.
    public static let flush = SeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue)
    /// Land exactly on the position, decoding from the previous key frame.
    public static let accurate = SeekFlags(rawValue: GST_SEEK_FLAG_ACCURATE.rawValue)
    /// Land on the nearest key frame: cheap, for scrubbing.
    public static let keyUnit = SeekFlags(rawValue: GST_SEEK_FLAG_KEY_UNIT.rawValue)
    public static let snapNearest = SeekFlags(rawValue: GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
}

/// The answer to a seeking query.
public struct Seeking: Sendable, Equatable {
    public let isSeekable: Bool
    public let start: Duration?
    public let end: Duration?
}

/// A GStreamer element (or bin, or pipeline). GStreamer elements are
/// thread-safe for properties, state changes, queries and seeks, but the
/// wrapper itself is not shared: each thread that needs one makes its own.
open class Element: ObjectRef {
    var element: UnsafeMutablePointer<GstElement> { pointer() }

    /// A new element from an installed factory, e.g. `Element.make("scaletempo")`.
    public static func make(_ factory: String, name: String? = nil) throws(GStreamerError) -> Element {
        GStreamer.initialize()
        guard let made = gst_element_factory_make(factory, name) else { throw .missingElement(factory) }
        return Element(made, transfer: .full)
    }

    /// A bin from a gst-launch style description such as "fakesink sync=true",
    /// with ghost pads for its unlinked pads so it can stand in for one element.
    public static func bin(describedBy description: String) throws(GStreamerError) -> Element {
        GStreamer.initialize()
        var error: UnsafeMutablePointer<GError>?
        let made = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            if let made { gst_object_unref(UnsafeMutableRawPointer(made)) }
            throw .badDescription(description, GLibError(consuming: error))
        }
        return Element(made!, transfer: .full)
    }

    /// The element named `name` anywhere inside this bin, e.g. one a
    /// description named with `name=…`; nil if there is none or this is not a bin.
    public func child(named name: String) -> Element? {
        guard g_type_check_instance_is_a(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GTypeInstance.self),
                                         gst_bin_get_type()) != 0,
              let found = gst_bin_get_by_name(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBin.self), name)
        else { return nil }
        return Element(found, transfer: .full)
    }

    public var name: String {
        let text = gst_object_get_name(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self))!
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The factory it was made from ("souphttpsrc"), nil for a hand-made bin.
    public var factoryName: String? {
        guard let factory = gst_element_get_factory(element),
              let text = gst_object_get_name(UnsafeMutablePointer<GstObject>(factory)) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// What kind of element its factory says it is, e.g. "Codec/Decoder/Audio".
    public var factoryClassification: String? {
        guard let factory = gst_element_get_factory(element),
              let klass = gst_element_factory_get_metadata(factory, "klass") else { return nil }
        return String(cString: klass)
    }

    /// The elements inside this bin, at any depth, that have property
    /// `name` (an adaptive demuxer's `max-bitrate`); none if it is no bin.
    public func descendants(withProperty name: String) -> [Element] {
        guard tc_is_bin(element) != 0, let iterator = gst_bin_iterate_recurse(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBin.self)) else {
            return []
        }
        defer { gst_iterator_free(iterator) }
        var found: [Element] = []
        var value = GValue()
        defer { if value.g_type != 0 { g_value_unset(&value) } }
        while true {
            switch gst_iterator_next(iterator, &value) {
            case GST_ITERATOR_OK:
                if let object = g_value_get_object(&value) {
                    let child = Element(object, transfer: .none)
                    if child.hasProperty(name) { found.append(child) }
                }
                g_value_reset(&value)
            case GST_ITERATOR_RESYNC:
                gst_iterator_resync(iterator)
                found.removeAll()
            default:
                return found
            }
        }
    }

    public func hasProperty(_ name: String) -> Bool {
        g_object_class_find_property(tc_object_get_class(objectPointer), name) != nil
    }

    /// Sets an enum or flags property from its textual form, as gst-launch
    /// does: "audio+soft-volume" for playbin's flags, "live" for a mode.
    public func setProperty(_ name: String, fromString text: String) {
        gst_util_set_object_arg(objectPointer, name, text)
    }

    /// Sets an object-valued property (an element such as an audio sink), or clears it with nil.
    public func setProperty(_ name: String, element value: Element?) {
        guard let spec = g_object_class_find_property(tc_object_get_class(objectPointer), name) else {
            preconditionFailure("\(typeName) has no property \"\(name)\"")
        }
        var boxed = GValue()
        g_value_init(&boxed, spec.pointee.value_type)
        defer { g_value_unset(&boxed) }
        g_value_set_object(&boxed, value.map { UnsafeMutableRawPointer($0.objectPointer) })
        g_object_set_property(objectPointer, name, &boxed)
    }

    /// Sets a GstStructure-valued property (e.g. pulsesink's
    /// "stream-properties") to a structure named `structureName` whose
    /// fields are the given strings. Built field by field, so values need
    /// no quoting.
    public func setProperty(_ name: String, structureNamed structureName: String, strings fields: [String: String]) {
        guard let structure = gst_structure_new_empty(structureName) else { return }
        for (key, text) in fields {
            var field = GValue()
            g_value_init(&field, tc_type_string())
            g_value_set_string(&field, text)
            gst_structure_take_value(structure, key, &field)
        }
        var boxed = GValue()
        g_value_init(&boxed, gst_structure_get_type())
        defer { g_value_unset(&boxed) }
        g_value_take_boxed(&boxed, structure)
        g_object_set_property(objectPointer, name, &boxed)
    }

    /// A GstStructure-valued property's string field, e.g. "media.role" of
    /// pulsesink's "stream-properties".
    public func structureProperty(_ name: String, string field: String) -> String? {
        var boxed = GValue()
        g_value_init(&boxed, gst_structure_get_type())
        defer { g_value_unset(&boxed) }
        g_object_get_property(objectPointer, name, &boxed)
        guard let structure = g_value_get_boxed(&boxed)?.assumingMemoryBound(to: GstStructure.self),
              let text = gst_structure_get_string(structure, field) else { return nil }
        return String(cString: text)
    }

    // MARK: State

    @discardableResult
    public func setState(_ state: ElementState) -> StateChangeResult {
        StateChangeResult(gst_element_set_state(element, state.gstState))
    }

    /// The current state, waiting up to `timeout` for a pending change to finish.
    public func state(waitingUpTo timeout: Duration = .zero) -> (current: ElementState, pending: ElementState) {
        var current = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        gst_element_get_state(element, &current, &pending, timeout.clockTime)
        return (ElementState(current), ElementState(pending))
    }

    // MARK: Queries and seeks

    /// The playback position in stream time, nil when it is not known yet.
    public var position: Duration? {
        var value: gint64 = -1
        guard gst_element_query_position(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return .nanoseconds(value)
    }

    /// The duration, nil when unknown (not prerolled yet, or a live stream).
    public var duration: Duration? {
        var value: gint64 = -1
        guard gst_element_query_duration(element, GST_FORMAT_TIME, &value) != 0, value >= 0 else { return nil }
        return .nanoseconds(value)
    }

    /// Whether the element can seek in time and over which range; nil when it does not answer.
    public var seeking: Seeking? {
        guard let query = gst_query_new_seeking(GST_FORMAT_TIME) else { return nil }
        defer { gst_query_unref(query) }
        guard gst_element_query(element, query) != 0 else { return nil }
        var seekable: gboolean = 0
        var start: gint64 = -1
        var end: gint64 = -1
        gst_query_parse_seeking(query, nil, &seekable, &start, &end)
        return Seeking(isSeekable: seekable != 0,
                       start: start >= 0 ? .nanoseconds(start) : nil,
                       end: end >= 0 ? .nanoseconds(end) : nil)
    }

    /// How full the element's buffer is now, 0–100 (a BUFFERING query);
    /// nil when it does not answer.
    public var bufferingPercent: Int? {
        guard let query = gst_query_new_buffering(GST_FORMAT_PERCENT) else { return nil }
        defer { gst_query_unref(query) }
        guard gst_element_query(element, query) != 0 else { return nil }
        var percent: gint = 0
        gst_query_parse_buffering_percent(query, nil, &percent)
        return Int(percent)
    }

    /// Seeks to `position` at `rate` (1 = normal speed). Returns whether the
    /// element accepted the seek; where it lands arrives later, with ASYNC_DONE.
    @discardableResult
    public func seek(to position: Duration, rate: Double = 1, flags: SeekFlags) -> Bool {
        gst_element_seek(element, rate, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags.rawValue),
                         GST_SEEK_TYPE_SET, gint64(position.clockTime), GST_SEEK_TYPE_NONE, -1) != 0
    }

    /// Posts `message` on the element's bus, as if the element had.
    @discardableResult
    public func post(_ message: Message) -> Bool {
        gst_element_post_message(element, gst_message_ref(message.message)) != 0
    }

    /// The element's bus (its pipeline's, once it is in one).
    public var bus: Bus? {
        gst_element_get_bus(element).map { Bus(adopting: $0) }
    }
}

extension Element {
    /// The outermost bin this element is inside (itself if it is in none):
    /// the pipeline whose bus carries its messages.
    public var topLevel: Element {
        var current = UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstObject.self)
        gst_object_ref(current)
        while let parent = gst_object_get_parent(current) {
            gst_object_unref(current)
            current = parent
        }
        return Element(UnsafeMutableRawPointer(current), transfer: .full)
    }
}

/// What decodebin should do with a factory it is about to plug.
public enum AutoplugChoice: Int32, Sendable {
    // The values of decodebin's GstAutoplugSelectResult, which no public header declares.
    case tryIt = 0
    case expose = 1
    case skip = 2
}

extension Element {
    public func hasSignal(_ name: String) -> Bool {
        g_signal_lookup(name, tc_type_from_instance(objectPointer)) != 0
    }

    /// For (uri)decodebin: asked, on a streaming thread, before each factory
    /// is plugged; the handler gets the factory's name and classification
    /// (e.g. "Codec/Decoder/Video").
    public func onAutoplugSelect(_ decide: @escaping @Sendable (_ factory: String, _ classification: String) -> AutoplugChoice) {
        typealias Handler = @Sendable (String, String) -> AutoplugChoice
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?, gpointer?) -> Int32 = { _, _, _, factory, userData in
            guard let factory else { return AutoplugChoice.tryIt.rawValue }
            let pointer = OpaquePointer(factory)
            let name = gst_object_get_name(UnsafeMutablePointer<GstObject>(pointer))
            defer { g_free(name) }
            let classification = gst_element_factory_get_metadata(pointer, "klass").map { String(cString: $0) } ?? ""
            return SignalHandlerBox<Handler>.from(userData).handler(name.map { String(cString: $0) } ?? "", classification).rawValue
        }
        connect(signal: "autoplug-select", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
                box: SignalHandlerBox<Handler>(decide))
    }
}
