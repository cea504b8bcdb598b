import CGLib
import CGStreamer

/// GStreamer's error domains and codes as Swift values, so code outside the
/// binding layer can classify a GError without C constants.
public enum GStreamerErrorCode: Sendable, Equatable {
    public enum Resource: Sendable, Equatable { case notFound, openRead, read, seek, notAuthorized, busy, other }
    public enum Stream: Sendable, Equatable {
        case failed, notImplemented, typeNotFound, wrongType, codecNotFound, decode, demux, format, decrypt, other
    }
    public enum Core: Sendable, Equatable { case missingPlugin, other }

    case resource(Resource)
    case stream(Stream)
    case core(Core)
    /// Another domain (library errors, or none of GStreamer's).
    case other

    public init(_ error: GLibError) {
        func domain(_ quark: GQuark) -> String { String(cString: g_quark_to_string(quark)) }
        let code = UInt32(bitPattern: error.code)
        switch error.domain {
        case domain(gst_resource_error_quark()):
            switch GstResourceError(rawValue: code) {
            case GST_RESOURCE_ERROR_NOT_FOUND: self = .resource(.notFound)
            case GST_RESOURCE_ERROR_OPEN_READ, GST_RESOURCE_ERROR_OPEN_READ_WRITE: self = .resource(.openRead)
            case GST_RESOURCE_ERROR_READ: self = .resource(.read)
            case GST_RESOURCE_ERROR_SEEK: self = .resource(.seek)
            case GST_RESOURCE_ERROR_NOT_AUTHORIZED: self = .resource(.notAuthorized)
            case GST_RESOURCE_ERROR_BUSY: self = .resource(.busy)
            default: self = .resource(.other)
            }
        case domain(gst_stream_error_quark()):
            switch GstStreamError(rawValue: code) {
            case GST_STREAM_ERROR_FAILED: self = .stream(.failed)
            case GST_STREAM_ERROR_NOT_IMPLEMENTED: self = .stream(.notImplemented)
            case GST_STREAM_ERROR_TYPE_NOT_FOUND: self = .stream(.typeNotFound)
            case GST_STREAM_ERROR_WRONG_TYPE: self = .stream(.wrongType)
            case GST_STREAM_ERROR_CODEC_NOT_FOUND: self = .stream(.codecNotFound)
            case GST_STREAM_ERROR_DECODE: self = .stream(.decode)
            case GST_STREAM_ERROR_DEMUX: self = .stream(.demux)
            case GST_STREAM_ERROR_FORMAT: self = .stream(.format)
            case GST_STREAM_ERROR_DECRYPT, GST_STREAM_ERROR_DECRYPT_NOKEY: self = .stream(.decrypt)
            default: self = .stream(.other)
            }
        case domain(gst_core_error_quark()):
            self = GstCoreError(rawValue: code) == GST_CORE_ERROR_MISSING_PLUGIN ? .core(.missingPlugin) : .core(.other)
        default:
            self = .other
        }
    }
}
