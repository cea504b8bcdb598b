import CGLib
import CGStreamer

/// What a GstDiscoverer probe found out about a URI.
public struct DiscoveredMedia: Sendable, Equatable {
    public struct Stream: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case audio, video, subtitle }

        public let kind: Kind
        /// The codec in words, e.g. "Opus" or "MPEG-4 AAC".
        public let codec: String?
        public let language: String?
        /// Audio only.
        public let channels: Int?
        public let sampleRate: Int?
        /// Video only, in pixels.
        public let width: Int?
        public let height: Int?
        /// Bits per second, when the container says.
        public let bitrate: Int?
    }

    public let duration: Duration?
    public let isSeekable: Bool
    /// A live source (no preroll): it cannot be paused and resumed at the same point.
    public let isLive: Bool
    public let streams: [Stream]
    /// The media type of the outermost stream, e.g. "application/x-hls" or "audio/mpeg".
    public let containerType: String?
    public let tags: MediaTags
    public let tableOfContents: [TocEntry]

    init(_ info: OpaquePointer) {
        duration = Duration(clockTime: gst_discoverer_info_get_duration(info))
        isSeekable = gst_discoverer_info_get_seekable(info) != 0
        isLive = gst_discoverer_info_get_live(info) != 0
        tags = gst_discoverer_info_get_tags(info).map { MediaTags($0) } ?? MediaTags()
        tableOfContents = gst_discoverer_info_get_toc(info).map { TocEntry.entries(of: $0) } ?? []
        containerType = Self.mediaType(of: gst_discoverer_info_get_stream_info(info))
        streams = Self.streams(gst_discoverer_info_get_audio_streams(info), kind: .audio)
            + Self.streams(gst_discoverer_info_get_video_streams(info), kind: .video)
            + Self.streams(gst_discoverer_info_get_subtitle_streams(info), kind: .subtitle)
    }

    private static func mediaType(of stream: OpaquePointer?) -> String? {
        guard let stream else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        guard let caps = gst_discoverer_stream_info_get_caps(stream) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
        return gst_caps_get_structure(caps, 0).map { String(cString: gst_structure_get_name($0)) }
    }

    private static func streams(_ list: UnsafeMutablePointer<GList>?, kind: Stream.Kind) -> [Stream] {
        defer { gst_discoverer_stream_info_list_free(list) }
        var result: [Stream] = []
        var node = list
        while let current = node {
            result.append(stream(OpaquePointer(current.pointee.data), kind: kind))
            node = current.pointee.next
        }
        return result
    }

    private static func stream(_ info: OpaquePointer, kind: Stream.Kind) -> Stream {
        var codec: String?
        if let caps = gst_discoverer_stream_info_get_caps(info) {
            defer { gst_mini_object_unref(UnsafeMutableRawPointer(caps).assumingMemoryBound(to: GstMiniObject.self)) }
            if let text = gst_pb_utils_get_codec_description(caps) {
                codec = String(cString: text)
                g_free(text)
            }
        }
        func text(_ value: UnsafePointer<gchar>?) -> String? { value.map { String(cString: $0) } }
        func positive(_ value: guint) -> Int? { value > 0 ? Int(value) : nil }
        switch kind {
        case .audio:
            return Stream(kind: kind, codec: codec, language: text(gst_discoverer_audio_info_get_language(info)),
                          channels: positive(gst_discoverer_audio_info_get_channels(info)),
                          sampleRate: positive(gst_discoverer_audio_info_get_sample_rate(info)),
                          width: nil, height: nil, bitrate: positive(gst_discoverer_audio_info_get_bitrate(info)))
        case .video:
            return Stream(kind: kind, codec: codec, language: nil, channels: nil, sampleRate: nil,
                          width: positive(gst_discoverer_video_info_get_width(info)),
                          height: positive(gst_discoverer_video_info_get_height(info)),
                          bitrate: positive(gst_discoverer_video_info_get_bitrate(info)))
        case .subtitle:
            return Stream(kind: kind, codec: codec, language: text(gst_discoverer_subtitle_info_get_language(info)),
                          channels: nil, sampleRate: nil, width: nil, height: nil, bitrate: nil)
        }
    }
}

/// Why a probe found nothing.
public enum DiscoveryError: Error, Equatable {
    /// The source or a decoder failed; with the HTTP status when it was an HTTP error.
    case failed(MessageFailure)
    /// Nothing conclusive within the probe's time limit.
    case timedOut
    /// Plug-ins to decode it are not installed; their descriptions, e.g. "Opus decoder".
    case missingPlugins([String])
    case invalidURI
}
