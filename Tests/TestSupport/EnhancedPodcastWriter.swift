import Foundation

/// Adds chapters to an M4A the way Apple's enhanced podcasts carry them,
/// which no tool on this machine writes: a QuickTime text track of titles,
/// each sample with an `href` box for its link, and a track of JPEG or PNG
/// pictures, both named by the audio track's `tref/chap`.
///
/// It takes a file whose `moov` comes last (as mp4mux writes it), so the
/// media's chunk offsets stay put while `moov` grows; the new samples go in
/// a second `mdat` after it.
public struct EnhancedPodcastWriter {
    public struct Chapter {
        public var start: Double
        public var title: String
        public var link: String?

        public init(_ start: Double, _ title: String, link: String? = nil) {
            self.start = start
            self.title = title
            self.link = link
        }
    }

    public struct Picture {
        public var start: Double
        public var bytes: Data
        /// The sample description's format: "jpeg" or "png ".
        public var format: String

        public init(_ start: Double, _ bytes: Data, format: String) {
            self.start = start
            self.bytes = bytes
            self.format = format
        }
    }

    public var chapters: [Chapter]
    public var pictures: [Picture]
    public var seconds: Double

    public init(chapters: [Chapter], pictures: [Picture], seconds: Double) {
        self.chapters = chapters
        self.pictures = pictures
        self.seconds = seconds
    }

    /// `m4a` with the chapter tracks added. A track's samples follow each
    /// other from 0 s, so the first chapter and picture start there.
    public func rewrite(_ m4a: Data) throws -> Data {
        guard chapters.first?.start == 0, pictures.first.map({ $0.start == 0 }) ?? true else {
            throw Failure(message: "the first chapter and picture must start at 0 s")
        }
        let file = [UInt8](m4a)
        let top = Self.children(file, 0..<file.count)
        guard let moov = top.last, moov.type == "moov" else { throw Failure(message: "moov is not the last box") }
        let movie = Self.children(file, moov.body)
        let trackIDs = movie.filter { $0.type == "trak" }.compactMap { Self.trackID(file, $0) }
        guard let audio = movie.first(where: { $0.type == "trak" }), let highest = trackIDs.max() else {
            throw Failure(message: "no track")
        }
        let (textID, pictureID) = (highest + 1, highest + 2)
        let textSamples = chapters.map(Self.textSample)
        let pictureSamples = pictures.map { [UInt8]($0.bytes) }

        func movieBox(mediaStart: Int) -> [UInt8] {
            var body: [UInt8] = []
            for child in movie {
                let bytes = Array(file[child.whole])
                if child.whole == audio.whole {
                    let reference = Self.box("tref", Self.box("chap", Self.u32(textID) + Self.u32(pictureID)))
                    body += Self.box("trak", Array(file[child.body]) + reference)
                } else {
                    body += bytes
                }
            }
            let pictureStart = mediaStart + textSamples.reduce(0) { $0 + $1.count }
            body += track(id: textID, handler: "text", format: "text", starts: chapters.map(\.start),
                          sizes: textSamples.map(\.count), firstOffset: mediaStart)
            body += track(id: pictureID, handler: "vide", format: pictures.first?.format ?? "jpeg",
                          starts: pictures.map(\.start), sizes: pictureSamples.map(\.count), firstOffset: pictureStart)
            return Self.box("moov", body)
        }
        // The chunk offsets are fixed-width, so moov's size does not depend on them.
        let mediaStart = moov.whole.lowerBound + movieBox(mediaStart: 0).count + 8
        let media = textSamples.flatMap { $0 } + pictureSamples.flatMap { $0 }
        return Data(file[0..<moov.whole.lowerBound] + movieBox(mediaStart: mediaStart) + Self.box("mdat", media))
    }

    /// A track of one sample per chunk, in milliseconds.
    private func track(id: UInt32, handler: String, format: String, starts: [Double], sizes: [Int],
                       firstOffset: Int) -> [UInt8] {
        let milliseconds = starts.map { UInt32($0 * 1000) } + [UInt32(seconds * 1000)]
        let durations = zip(milliseconds, milliseconds.dropFirst()).map { $1 - $0 }
        var offsets: [UInt32] = []
        var offset = firstOffset
        for size in sizes {
            offsets.append(UInt32(offset))
            offset += size
        }
        // tkhd v0: flags (disabled, as chapter tracks are), times, ID, then the rest zeroed.
        let header = Self.fullBox("tkhd", [UInt8](repeating: 0, count: 8) + Self.u32(id) + [UInt8](repeating: 0, count: 68))
        let mediaHeader = Self.fullBox("mdhd", Self.u32(0) + Self.u32(0) + Self.u32(1000) + Self.u32(UInt32(seconds * 1000))
                                       + [0x55, 0xC4, 0, 0])
        let handlerBox = Self.fullBox("hdlr", Self.u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        // A sample entry (six reserved bytes and a data reference index); a
        // picture's is a visual one: 64 × 64, 72 dpi, one frame, 24-bit.
        var entry: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]
        if handler == "vide" {
            entry += [UInt8](repeating: 0, count: 16) + Self.u16(64) + Self.u16(64) + Self.u32(0x0048_0000)
                + Self.u32(0x0048_0000) + Self.u32(0) + Self.u16(1) + [UInt8](repeating: 0, count: 32) + Self.u16(24)
                + [0xFF, 0xFF]
        }
        let description = Self.fullBox("stsd", Self.u32(1) + Self.box(format, entry))
        let timing = Self.fullBox("stts", Self.u32(UInt32(durations.count)) + durations.flatMap { Self.u32(1) + Self.u32($0) })
        let chunks = Self.fullBox("stsc", Self.u32(1) + Self.u32(1) + Self.u32(1) + Self.u32(1))
        let sizeTable = Self.fullBox("stsz", Self.u32(0) + Self.u32(UInt32(sizes.count)) + sizes.flatMap { Self.u32(UInt32($0)) })
        let offsetTable = Self.fullBox("stco", Self.u32(UInt32(offsets.count)) + offsets.flatMap(Self.u32))
        let sampleTable = Self.box("stbl", description + timing + chunks + sizeTable + offsetTable)
        let dataReference = Self.box("dinf", Self.fullBox("dref", Self.u32(1) + Self.fullBox("url ", [], flags: 1)))
        let information = Self.box("minf", dataReference + sampleTable)
        return Self.box("trak", header + Self.box("mdia", mediaHeader + handlerBox + information))
    }

    /// A text sample: the title's length and UTF-8, then its link's `href`
    /// (first and last character, the address and an empty tooltip).
    private static func textSample(_ chapter: Chapter) -> [UInt8] {
        let title = Array(chapter.title.utf8)
        var sample = u16(UInt16(title.count)) + title
        if let link = chapter.link {
            let address = Array(link.utf8)
            sample += box("href", u16(0) + u16(UInt16(title.count)) + [UInt8(address.count)] + address + [0])
        }
        return sample
    }

    private struct Box {
        let type: String
        let whole: Range<Int>
        let body: Range<Int>
    }

    private static func children(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            guard size >= 8, offset + size <= range.upperBound else { break }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            found.append(Box(type: type, whole: offset..<offset + size, body: offset + 8..<offset + size))
            offset += size
        }
        return found
    }

    private static func trackID(_ bytes: [UInt8], _ track: Box) -> UInt32? {
        guard let header = children(bytes, track.body).first(where: { $0.type == "tkhd" }) else { return nil }
        let version = bytes[header.body.lowerBound]
        let at = header.body.lowerBound + 4 + (version == 1 ? 16 : 8)
        return bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    private static func fullBox(_ type: String, _ body: [UInt8], flags: UInt8 = 0) -> [UInt8] {
        box(type, [0, 0, 0, flags] + body)
    }

    private static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }

    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
