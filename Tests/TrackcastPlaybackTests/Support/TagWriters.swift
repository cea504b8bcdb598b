import Foundation

/// Writes an ID3v2.4 tag with a title and a front cover, byte by byte, since
/// no GStreamer element on the command line can put a picture in a tag.
enum ID3Tag {
    /// A 1×1 transparent PNG.
    static let onePixelPNG = Data([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
        0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xf8, 0xff, 0xff, 0x3f,
        0x00, 0x05, 0xfe, 0x02, 0xfe, 0xa7, 0xd6, 0xa4, 0xa5, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
        0x44, 0xae, 0x42, 0x60, 0x82,
    ])

    static func tag(title: String, cover: Data) -> Data {
        let utf8: UInt8 = 3
        let frontCover: UInt8 = 3
        let body = frame("TIT2", [utf8] + Array(title.utf8))
            + frame("APIC", [utf8] + Array("image/png".utf8) + [0, frontCover] + Array("cover".utf8) + [0] + Array(cover))
        return Data(Array("ID3".utf8) + [4, 0, 0] + syncSafe(body.count) + body)
    }

    private static func frame(_ id: String, _ content: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncSafe(content.count) + [0, 0] + content
    }

    /// ID3v2.4 sizes use 7 bits a byte.
    private static func syncSafe(_ value: Int) -> [UInt8] {
        [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7f) }
    }
}

/// Adds a CUESHEET metadata block to a FLAC file, which GStreamer's FLAC
/// parser turns into a table of contents, one entry per track.
enum FLACCueSheet {
    static func adding(trackStarts: [UInt64], total: UInt64, to flac: Data) throws -> Data {
        let bytes = [UInt8](flac)
        guard bytes.starts(with: Array("fLaC".utf8)) else { throw CocoaError(.fileReadCorruptFile) }
        var blocks: [(type: UInt8, body: [UInt8])] = []
        var offset = 4
        while true {
            let header = bytes[offset]
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            blocks.append((header & 0x7f, Array(bytes[(offset + 4)..<(offset + 4 + length)])))
            offset += 4 + length
            if header & 0x80 != 0 { break }
        }
        func bigEndian(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xff) } }
        func track(_ start: UInt64, _ number: UInt8, indexed: Bool) -> [UInt8] {
            var track = bigEndian(start) + [number] + [UInt8](repeating: 0, count: 12) + [0] + [UInt8](repeating: 0, count: 13)
            track += indexed ? [1] + bigEndian(0) + [1, 0, 0, 0] : [0]
            return track
        }
        var cue = [UInt8](repeating: 0, count: 128) + bigEndian(0) + [0] + [UInt8](repeating: 0, count: 258)
        let tracks = trackStarts.enumerated().map { track($0.element, UInt8($0.offset + 1), indexed: true) }
            + [track(total, 255, indexed: false)]
        cue += [UInt8(tracks.count)] + tracks.flatMap { $0 }
        blocks.append((5, cue))
        var out = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            out += [block.type | last, UInt8(block.body.count >> 16 & 0xff), UInt8(block.body.count >> 8 & 0xff),
                    UInt8(block.body.count & 0xff)] + block.body
        }
        return Data(out + bytes[offset...])
    }
}
