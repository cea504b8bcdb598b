import Foundation

/// Reads the chapters (CHAP frames, with their TIT2 title, WXXX link and
/// APIC picture) of an ID3v2.3 or v2.4 tag. GStreamer's id3demux turns no
/// CHAP frame into a table of contents; it hands the frames on whole, which
/// the player passes up (`LoadedAsset.id3Chapters`), for a stream as for a file.
public enum ID3Chapters {
    /// How much of a file's start to read: the tag's header says how long it is.
    public static let headerLength = 10

    /// The whole tag's length (header included) if `header` starts one.
    public static func tagLength(header: Data) -> Int? {
        let bytes = [UInt8](header.prefix(headerLength))
        guard bytes.count == headerLength, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,
              (3...4).contains(bytes[3]) else { return nil }
        return headerLength + syncsafe(bytes[6..<10])
    }

    /// The chapters of the tag `data` starts with; empty if it has none or
    /// is not a tag this reads. Malformed frames end the reading, never crash.
    public static func read(_ data: Data) -> [Chapter] {
        let bytes = [UInt8](data)
        guard let length = tagLength(header: data) else { return [] }
        let version = bytes[3]
        let flags = bytes[5]
        // Unsynchronised tags (a v2.3 writer's workaround for old players) are rare; not read.
        guard flags & 0x80 == 0 else { return [] }
        var offset = headerLength
        if flags & 0x40 != 0, offset + 4 <= bytes.count {
            // The extended header: its size counts itself in v2.4, not in v2.3.
            let size = version == 4 ? syncsafe(bytes[offset..<offset + 4]) : bigEndian(bytes[offset..<offset + 4]) + 4
            offset += size
        }
        let end = min(length, bytes.count)
        return frames(bytes, from: offset, to: end, version: version).compactMap { frame in
            frame.id == "CHAP" ? chapter(bytes, frame, version: version) : nil
        }
    }

    /// The chapters among frames handed on one at a time, each whole
    /// (header and body), as id3demux passes the frames it has no tag for.
    /// It does not say the tag's version, but a frame's size does: only one
    /// of syncsafe (v2.4) and plain (v2.3) counts the bytes that follow it.
    /// Under 128 bytes the two read alike, and so do the frame's sub-frames.
    public static func read(frames: [[UInt8]]) -> [Chapter] {
        frames.compactMap { bytes in
            guard bytes.count >= 10 else { return nil }
            let size = bytes[4..<8]
            let version: UInt8
            if size.allSatisfy({ $0 < 0x80 }), syncsafe(size) == bytes.count - 10 {
                version = 4
            } else if bigEndian(size) == bytes.count - 10 {
                version = 3
            } else {
                return nil
            }
            guard let frame = Self.frames(bytes, from: 0, to: bytes.count, version: version).first,
                  frame.id == "CHAP" else { return nil }
            return chapter(bytes, frame, version: version)
        }
    }

    struct Frame {
        let id: String
        let body: Range<Int>
    }

    static func frames(_ bytes: [UInt8], from start: Int, to end: Int, version: UInt8) -> [Frame] {
        var frames: [Frame] = []
        var offset = start
        while offset + 10 <= end {
            let idBytes = bytes[offset..<offset + 4]
            // Padding, or garbage: the frames are over.
            guard idBytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { break }
            let sizeBytes = bytes[offset + 4..<offset + 8]
            let size = version == 4 ? syncsafe(sizeBytes) : bigEndian(sizeBytes)
            let body = offset + 10
            guard size >= 0, body + size <= end else { break }
            frames.append(Frame(id: String(decoding: idBytes, as: UTF8.self), body: body..<body + size))
            offset = body + size
        }
        return frames
    }

    private static func chapter(_ bytes: [UInt8], _ frame: Frame, version: UInt8) -> Chapter? {
        // Element ID (terminated), start and end in ms, start and end byte offsets, then sub-frames.
        guard let terminator = bytes[frame.body].firstIndex(of: 0), terminator + 17 <= frame.body.upperBound else {
            return nil
        }
        let times = terminator + 1
        let startMilliseconds = bigEndian(bytes[times..<times + 4])
        var title: String?
        var url: URL?
        var image: ChapterImage?
        for sub in frames(bytes, from: times + 16, to: frame.body.upperBound, version: version) {
            switch sub.id {
            case "TIT2": title = text(bytes[sub.body])
            case "WXXX": url = link(bytes[sub.body])
            // A chapter shows one picture; taggers write one, the first wins if not.
            case "APIC" where image == nil: image = picture(bytes[sub.body])
            default: break
            }
        }
        return Chapter(start: Double(startMilliseconds) / 1000, title: title, url: url, image: image, source: .embedded)
    }

    /// A text frame's body: an encoding byte, then the text.
    private static func text(_ body: ArraySlice<UInt8>) -> String? {
        guard let encoding = body.first else { return nil }
        let content = Data(body.dropFirst())
        let decoded: String? = switch encoding {
        case 0: String(data: content, encoding: .isoLatin1)
        case 1: String(data: content, encoding: .utf16)
        case 2: String(data: content, encoding: .utf16BigEndian)
        case 3: String(data: content, encoding: .utf8)
        default: nil
        }
        let trimmed = decoded?.trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines))
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// WXXX: an encoding byte, a description in that encoding (terminated),
    /// then the link in Latin-1.
    private static func link(_ body: ArraySlice<UInt8>) -> URL? {
        guard let encoding = body.first,
              let index = end(ofStringIn: body.dropFirst(), wide: isWide(encoding)), index < body.endIndex,
              let text = latin1(body[index...]) else { return nil }
        // Web addresses only, as in feeds: a media file cannot link a chapter to a local file.
        return FeedURLResolver.resolve(text, against: nil)
    }

    /// APIC: an encoding byte, the MIME type in Latin-1 (terminated), a
    /// picture type byte, a description in the encoding (terminated), then
    /// the image. The MIME type "-->" makes the image a link to one instead.
    private static func picture(_ body: ArraySlice<UInt8>) -> ChapterImage? {
        guard let encoding = body.first,
              let typeIndex = end(ofStringIn: body.dropFirst(), wide: false), typeIndex < body.endIndex,
              let imageIndex = end(ofStringIn: body[(typeIndex + 1)...], wide: isWide(encoding)),
              imageIndex < body.endIndex,
              let mimeType = latin1(body[(body.startIndex + 1)..<(typeIndex - 1)]) else { return nil }
        let image = body[imageIndex...]
        if mimeType == "-->" {
            return latin1(image).flatMap { FeedURLResolver.resolve($0, against: nil) }.map(ChapterImage.remote)
        }
        return .embedded(Data(image), mimeType: mimeType)
    }

    /// UTF-16 (with a byte order mark, or big-endian) ends its strings with
    /// two zero bytes; ISO-8859-1 and UTF-8 with one.
    private static func isWide(_ encoding: UInt8) -> Bool { encoding == 1 || encoding == 2 }

    /// The index just past the terminator of the string `bytes` starts with,
    /// or nil if it has none (a frame cut short).
    private static func end(ofStringIn bytes: ArraySlice<UInt8>, wide: Bool) -> Int? {
        let step = wide ? 2 : 1
        var index = bytes.startIndex
        while index + step <= bytes.endIndex {
            if bytes[index] == 0, !wide || bytes[index + 1] == 0 { return index + step }
            index += step
        }
        return nil
    }

    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String? {
        String(data: Data(bytes), encoding: .isoLatin1)?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespaces))
    }

    private static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
