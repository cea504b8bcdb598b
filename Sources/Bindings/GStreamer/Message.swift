import CGLib
import CGStreamer

/// A message from a pipeline's bus.
///
/// `@unchecked Sendable`: once posted, a GstMessage is immutable (readers
/// only parse it) and its reference count is atomic, so any thread may read it.
public final class Message: @unchecked Sendable {
    public enum Kind: Sendable, Hashable {
        case endOfStream, error, warning, tag, buffering, stateChanged, element, application
        case durationChanged, asyncDone, streamStart, tableOfContents, clockLost, latency, requestState, other
    }

    let message: UnsafeMutablePointer<GstMessage>

    init(borrowing message: UnsafeMutablePointer<GstMessage>) {
        self.message = gst_message_ref(message)
    }

    deinit { gst_message_unref(message) }

    public var kind: Kind {
        Self.namedKinds.first { $0.type == message.pointee.type }?.kind ?? .other
    }

    private static let namedKinds: [(type: GstMessageType, kind: Kind)] = [
        (GST_MESSAGE_EOS, .endOfStream), (GST_MESSAGE_ERROR, .error), (GST_MESSAGE_WARNING, .warning),
        (GST_MESSAGE_TAG, .tag), (GST_MESSAGE_BUFFERING, .buffering), (GST_MESSAGE_STATE_CHANGED, .stateChanged),
        (GST_MESSAGE_ELEMENT, .element), (GST_MESSAGE_APPLICATION, .application),
        (GST_MESSAGE_DURATION_CHANGED, .durationChanged), (GST_MESSAGE_ASYNC_DONE, .asyncDone),
        (GST_MESSAGE_STREAM_START, .streamStart), (GST_MESSAGE_TOC, .tableOfContents),
        (GST_MESSAGE_CLOCK_LOST, .clockLost), (GST_MESSAGE_LATENCY, .latency),
        (GST_MESSAGE_REQUEST_STATE, .requestState),
    ]

    /// The GstMessageType bits of `kind`: for `.other`, every type the
    /// others do not name (extended types, above bit 31, are never passed).
    static func messageTypes(of kind: Kind) -> UInt32 {
        let named = namedKinds.reduce(UInt32(0)) { $0 | UInt32(bitPattern: $1.type.rawValue) }
        if kind == .other { return ~named & ~UInt32(bitPattern: GST_MESSAGE_EXTENDED.rawValue) }
        guard let entry = namedKinds.first(where: { $0.kind == kind }) else { return 0 }
        return UInt32(bitPattern: entry.type.rawValue)
    }

    /// Whether `element` posted it (rather than one of its children).
    public func isFrom(_ element: Element) -> Bool {
        UnsafeMutableRawPointer(message.pointee.src) == UnsafeMutableRawPointer(element.objectPointer)
    }

    /// The element that posted it; nil when a pad or bus posted it.
    public var sourceElement: Element? {
        guard let source = message.pointee.src,
              g_type_check_instance_is_a(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GTypeInstance.self),
                                         gst_element_get_type()) != 0 else { return nil }
        return Element(UnsafeMutableRawPointer(source), transfer: .none)
    }

    /// The factory of the element that posted it, e.g. "souphttpsrc".
    public var sourceFactoryName: String? { sourceElement?.factoryName }

    /// For ERROR and WARNING messages: the GError, the debug text and details.
    public var failure: MessageFailure? {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        var details: UnsafePointer<GstStructure>?
        switch kind {
        case .error:
            gst_message_parse_error(message, &error, &debug)
            gst_message_parse_error_details(message, &details)
        case .warning:
            gst_message_parse_warning(message, &error, &debug)
            gst_message_parse_warning_details(message, &details)
        default:
            return nil
        }
        defer { g_free(debug) }
        var status: guint = 0
        let hasStatus = details.map { gst_structure_get_uint($0, "http-status-code", &status) != 0 } ?? false
        return MessageFailure(error: GLibError(consuming: error!),
                              debug: debug.map { String(cString: $0) },
                              httpStatus: hasStatus ? Int(status) : nil,
                              sourceFactory: sourceFactoryName)
    }

    /// For BUFFERING messages: how full the buffer is, 0–100.
    public var bufferingPercent: Int? {
        guard kind == .buffering else { return nil }
        var percent: gint = 0
        gst_message_parse_buffering(message, &percent)
        return Int(percent)
    }

    /// For BUFFERING messages: how full the posting element's buffer is now.
    /// GStreamer 1.22's downloadbuffer posts its figures from two threads, so
    /// an old "2 %" can arrive after the finished download's 100 % with
    /// nothing after it; its answer to a BUFFERING query is current, so it is
    /// asked. Other elements post in order, and queue2's query measures
    /// something other than its messages, so theirs is the posted figure.
    public var currentBufferingPercent: Int? {
        guard let posted = bufferingPercent else { return nil }
        guard let source = sourceElement, source.factoryName == "downloadbuffer" else { return posted }
        return source.bufferingPercent ?? posted
    }

    /// A BUFFERING message from `source` saying `percent`, for posting.
    public static func buffering(percent: Int, from source: Element) -> Message {
        let message = gst_message_new_buffering(UnsafeMutableRawPointer(source.objectPointer).assumingMemoryBound(to: GstObject.self),
                                                gint(percent))!
        defer { gst_message_unref(message) }
        return Message(borrowing: message)
    }

    /// For STATE_CHANGED messages.
    public var stateChange: (old: ElementState, new: ElementState, pending: ElementState)? {
        guard kind == .stateChanged else { return nil }
        var old = GST_STATE_VOID_PENDING
        var new = GST_STATE_VOID_PENDING
        var pending = GST_STATE_VOID_PENDING
        gst_message_parse_state_changed(message, &old, &new, &pending)
        return (ElementState(old), ElementState(new), ElementState(pending))
    }

    /// For REQUEST_STATE messages: the state an element asks the application
    /// to put the pipeline in (pulsesink: PAUSED when the sound server asks
    /// it to cork, PLAYING when it may uncork).
    public var requestedState: ElementState? {
        guard kind == .requestState else { return nil }
        var state = GST_STATE_VOID_PENDING
        gst_message_parse_request_state(message, &state)
        return ElementState(state)
    }

    /// For TAG messages.
    public var tags: MediaTags? {
        guard kind == .tag else { return nil }
        var list: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message, &list)
        guard let list else { return nil }
        defer { gst_tag_list_unref(list) }
        return MediaTags(list)
    }

    /// For TOC messages: the chapters (or other entries) of the container.
    public var tableOfContents: [TocEntry]? {
        guard kind == .tableOfContents else { return nil }
        var toc: OpaquePointer?
        var updated: gboolean = 0
        gst_message_parse_toc(message, &toc, &updated)
        guard let toc else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(toc).assumingMemoryBound(to: GstMiniObject.self)) }
        return TocEntry.entries(of: toc)
    }

    /// For the element message that says a plug-in is missing: what is missing.
    public var missingPlugin: MissingPlugin? {
        guard gst_is_missing_plugin_message(message) != 0,
              let text = gst_missing_plugin_message_get_description(message) else { return nil }
        defer { g_free(text) }
        let detail = gst_missing_plugin_message_get_installer_detail(message)
        defer { g_free(detail) }
        // "gstreamer|1.0|app|VP8 video decoder|decoder-video/x-vp8": the last field names the caps.
        let what = detail.map { String(cString: $0).split(separator: "|").last.map(String.init) ?? "" } ?? ""
        return MissingPlugin(description: String(cString: text), isVideo: what.contains("video/"))
    }

}

/// A plug-in GStreamer looked for and did not find.
public struct MissingPlugin: Sendable, Equatable {
    /// In words meant for people: "Opus decoder".
    public let description: String
    /// Whether it would have handled video.
    public let isVideo: Bool
}

/// What an ERROR or WARNING message carries.
public struct MessageFailure: Sendable, Equatable {
    public let error: GLibError
    /// GStreamer's debug text: the element path and often the underlying cause.
    public let debug: String?
    /// The HTTP status, when an HTTP source failed on one.
    public let httpStatus: Int?
    /// The factory of the element that failed, e.g. "souphttpsrc".
    public let sourceFactory: String?

    public init(error: GLibError, debug: String?, httpStatus: Int?, sourceFactory: String?) {
        self.error = error
        self.debug = debug
        self.httpStatus = httpStatus
        self.sourceFactory = sourceFactory
    }
}
