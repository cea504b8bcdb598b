import Foundation

/// Writes an ID3v2 tag with CHAP frames (each with a TIT2 title and, if
/// given, a WXXX link) and a CTOC listing them, as podcast tools do.
public struct ID3TagWriter {
    public let version: UInt8
    /// Start and end in milliseconds, title, link.
    public let chapters: [(UInt32, UInt32, String, String?)]

    public init(version: UInt8, chapters: [(UInt32, UInt32, String, String?)]) {
        self.version = version
        self.chapters = chapters
    }

    public func data() -> Data {
        var frames = Data()
        for (index, chapter) in chapters.enumerated() {
            var body = Data("chp\(index)".utf8) + [0]
            for value in [chapter.0, chapter.1, UInt32.max, UInt32.max] { body += bigEndian(value) }
            body += frame("TIT2", [3] + Data(chapter.2.utf8))
            if let link = chapter.3 { body += frame("WXXX", [0, 0] + Data(link.utf8)) }
            frames += frame("CHAP", body)
        }
        var toc = Data("toc".utf8) + [0, 0x03, UInt8(chapters.count)]
        for index in chapters.indices { toc += Data("chp\(index)".utf8) + [0] }
        frames += frame("CTOC", toc)
        frames += Data(count: 64)  // padding
        return Data("ID3".utf8) + [version, 0, 0] + syncsafe(frames.count) + frames
    }

    private func frame(_ id: String, _ body: Data) -> Data {
        Data(id.utf8) + (version == 4 ? syncsafe(body.count) : bigEndian(UInt32(body.count))) + [0, 0] + body
    }

    private func syncsafe(_ value: Int) -> Data {
        Data([UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)])
    }

    private func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
