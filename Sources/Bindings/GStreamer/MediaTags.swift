import CGLib
import CGStreamer

/// The tags a player shows, read out of a GstTagList.
public struct MediaTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    /// Embedded cover art, as stored (JPEG, PNG, …).
    public var image: [UInt8]?
    /// The cover art's media type, e.g. "image/jpeg".
    public var imageType: String?
    /// `extended-comment` entries, "KEY=value": comments GStreamer has no
    /// tag of its own for, such as Vorbis comment chapters.
    public var comments: [String]
    /// The stream's language as the container names it: an ISO 639 code
    /// ("en", "ger"); a stream's own tags, not the whole item's.
    public var languageCode: String?
    /// That language's name in the user's language ("English", "Englisch"),
    /// or the container's own name for it.
    public var languageName: String?
    /// ID3v2 CHAP frames, each whole (header and body): id3demux maps no
    /// chapter to a tag of its own and hands such frames on as
    /// `private-id3v2-frame` samples, for a stream as for a file.
    /// It does not say the tag's version; each frame's header does.
    public var id3ChapterFrames: [[UInt8]] = []

    public init(title: String? = nil, artist: String? = nil, album: String? = nil,
                image: [UInt8]? = nil, imageType: String? = nil, comments: [String] = []) {
        self.title = title
        self.artist = artist
        self.album = album
        self.image = image
        self.imageType = imageType
        self.comments = comments
    }

    /// Takes from `other` what these tags lack: a pipeline posts its tags a
    /// stream or an element at a time.
    public mutating func fillGaps(from other: MediaTags) {
        title = title ?? other.title
        artist = artist ?? other.artist
        album = album ?? other.album
        if image == nil {
            image = other.image
            imageType = other.imageType
        }
        if comments.isEmpty { comments = other.comments }
        languageCode = languageCode ?? other.languageCode
        languageName = languageName ?? other.languageName
        if id3ChapterFrames.isEmpty { id3ChapterFrames = other.id3ChapterFrames }
    }

    /// The name of the language an ISO 639 code (two or three letters)
    /// stands for, translated into the user's language by iso-codes; nil for
    /// a code it does not know.
    public static func languageName(forCode code: String) -> String? {
        gst_tag_get_language_name(code).map { String(cString: $0) }
    }

    init(_ list: UnsafePointer<GstTagList>) {
        title = Self.string("title", in: list)
        artist = Self.string("artist", in: list)
        album = Self.string("album", in: list)
        languageCode = Self.string("language-code", in: list)
        languageName = Self.string("language-name", in: list) ?? languageCode.flatMap(Self.languageName(forCode:))
        comments = (0..<gst_tag_list_get_tag_size(list, "extended-comment")).compactMap { index in
            var value: UnsafePointer<gchar>?
            guard gst_tag_list_peek_string_index(list, "extended-comment", index, &value) != 0, let value else { return nil }
            return String(cString: value)
        }
        id3ChapterFrames = Self.id3ChapterFrames(in: list)
        // A front cover ("image"); players fall back to the smaller preview.
        for tag in ["image", "preview-image"] {
            if let (bytes, type) = Self.sample(tag, in: list) {
                image = bytes
                imageType = type
                break
            }
        }
    }

    private static func id3ChapterFrames(in list: UnsafePointer<GstTagList>) -> [[UInt8]] {
        let tag = "private-id3v2-frame"
        return (0..<gst_tag_list_get_tag_size(list, tag)).compactMap { index in
            var sample: OpaquePointer?
            guard gst_tag_list_get_sample_index(list, tag, index, &sample) != 0, let sample else { return nil }
            defer { gst_sample_unref(sample) }
            return bytes(of: sample).flatMap { $0.starts(with: Array("CHAP".utf8)) ? $0 : nil }
        }
    }

    private static func bytes(of sample: OpaquePointer) -> [UInt8]? {
        guard let buffer = gst_sample_get_buffer(sample) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        return Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
    }

    private static func string(_ tag: String, in list: UnsafePointer<GstTagList>) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(list, tag, &value) != 0, let value else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    private static func sample(_ tag: String, in list: UnsafePointer<GstTagList>) -> ([UInt8], String?)? {
        var sample: OpaquePointer?
        guard gst_tag_list_get_sample(list, tag, &sample) != 0, let sample else { return nil }
        defer { gst_sample_unref(sample) }
        guard let bytes = bytes(of: sample) else { return nil }
        let type = gst_sample_get_caps(sample).flatMap { caps in
            gst_caps_get_structure(caps, 0).map { String(cString: gst_structure_get_name($0)) }
        }
        return (bytes, type)
    }
}
