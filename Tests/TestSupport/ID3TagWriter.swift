import Foundation

/// Writes an ID3v2 tag with CHAP frames (each with a TIT2 title and, if
/// given, a WXXX link, or with sub-frames given as bytes) and a CTOC
/// listing them, as podcast tools do.
public struct ID3TagWriter {
    public let version: UInt8
    /// Start and end in milliseconds, then the CHAP frame's sub-frames as written.
    public let chapters: [(UInt32, UInt32, Data)]

    /// Start and end in milliseconds, title, link.
    public init(version: UInt8, chapters: [(UInt32, UInt32, String, String?)]) {
        self.init(version: version, subframes: chapters.map { chapter in
            var subframes = Self.frame("TIT2", Self.title(chapter.2), version: version)
            if let link = chapter.3 { subframes += Self.frame("WXXX", Self.link(link), version: version) }
            return (chapter.0, chapter.1, subframes)
        })
    }

    /// Chapters whose sub-frames are the bytes given, well formed or not
    /// (made with `frame` and the body builders below, cut short at will).
    public init(version: UInt8, subframes: [(UInt32, UInt32, Data)]) {
        self.version = version
        self.chapters = subframes
    }

    public func data() -> Data {
        var frames = Data()
        for (index, chapter) in chapters.enumerated() {
            var body = Data("chp\(index)".utf8) + [0]
            for value in [chapter.0, chapter.1, UInt32.max, UInt32.max] { body += Self.bigEndian(value) }
            frames += Self.frame("CHAP", body + chapter.2, version: version)
        }
        var toc = Data("toc".utf8) + [0, 0x03, UInt8(chapters.count)]
        for index in chapters.indices { toc += Data("chp\(index)".utf8) + [0] }
        frames += Self.frame("CTOC", toc, version: version)
        frames += Data(count: 64)  // padding
        return Data("ID3".utf8) + [version, 0, 0] + Self.syncsafe(frames.count) + frames
    }

    /// A frame: its ID, its body's size as the version writes it, no flags, the body.
    public static func frame(_ id: String, _ body: Data, version: UInt8) -> Data {
        Data(id.utf8) + (version == 4 ? syncsafe(body.count) : bigEndian(UInt32(body.count))) + [0, 0] + body
    }

    /// A TIT2 body in UTF-8.
    public static func title(_ text: String) -> Data { [3] + Data(text.utf8) }

    /// A WXXX body: the description in UTF-16 with a byte order mark (its
    /// terminator two zero bytes) if given, else an empty Latin-1 one.
    public static func link(_ address: String, description: String? = nil) -> Data {
        guard let description else { return [0, 0] + Data(address.utf8) }
        return [1] + utf16(description) + Data(address.utf8)
    }

    /// An APIC body: a front-cover picture with a UTF-16 description.
    public static func picture(_ image: Data, mimeType: String, description: String = "") -> Data {
        [1] + Data(mimeType.utf8) + [0, 0x03] + utf16(description) + image
    }

    /// Little-endian UTF-16 with its byte order mark and terminator.
    private static func utf16(_ text: String) -> Data {
        Data([0xFF, 0xFE]) + Data(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0, 0]
    }

    private static func syncsafe(_ value: Int) -> Data {
        Data([UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)])
    }

    private static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
