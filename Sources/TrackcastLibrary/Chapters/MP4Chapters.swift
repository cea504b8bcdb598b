import Foundation
import TrackcastCore

/// Reads the chapters of an MP4, M4A or M4B file: the QuickTime chapter
/// track (a text track named by another track's `tref/chap`, one sample
/// per chapter, as Apple's tools and ffmpeg write it, each sample's `href`
/// its link) with the pictures of a JPEG or PNG track named beside it (as
/// enhanced podcasts carry them), or else Nero's `moov/udta/chpl` list. GStreamer 1.22's qtdemux reads neither into a
/// table of contents, so the player cannot supply these.
///
/// Every size and offset comes from the file and is checked before use:
/// truncated or garbage input gives fewer chapters or none, never a crash.
public enum MP4Chapters {
    /// The most of `moov` read: it holds the sample tables, about 4 bytes a
    /// sample, so even a many-hour episode's is a few megabytes.
    static let moovLimit = 32 << 20
    /// The most chapter samples read, and the most bytes of each.
    static let sampleLimit = 4096
    static let titleLimit = 1024
    /// The most of a text sample read: its title and the boxes after it
    /// (style runs, the link).
    static let textSampleLimit = 4096
    /// The largest chapter picture read, and the most bytes of pictures.
    public static let pictureLimit = 2 << 20
    static let pictureBudget = 8 << 20

    /// The chapters of the file at `url`, reading only its boxes' headers,
    /// `moov` and the chapter samples.
    public static func read(contentsOf url: URL) -> [Chapter] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        guard let length = try? handle.seekToEnd(), let fileLength = Int(exactly: length) else { return [] }
        return read(length: fileLength) { offset, count in
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return [] }
            return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
        }
    }

    /// The chapters of a whole file in memory.
    public static func read(_ data: Data) -> [Chapter] {
        let bytes = [UInt8](data)
        return read(length: bytes.count) { offset, count in
            Array(bytes[offset..<min(bytes.count, offset + min(count, bytes.count - offset))])
        }
    }

    /// `fetch(offset, count)` returns up to `count` bytes at `offset`, with
    /// `0 <= offset < length`.
    static func read(length: Int, fetch: (Int, Int) -> [UInt8]) -> [Chapter] {
        guard let moov = topLevelMoov(length: length, fetch: fetch) else { return [] }
        let movie = boxes(in: moov, 0..<moov.count)
        let tracks = movie.filter { $0.type == "trak" }.map { Track(moov, $0.body) }
        let referenced = Set(tracks.flatMap(\.chapterTrackIDs))
        let chapterTracks = tracks.filter { $0.id.map(referenced.contains) == true }
        if let track = chapterTracks.first(where: \.isText) {
            var chapters = track.chapters(length: length, fetch: fetch)
            if let pictureTrack = chapterTracks.first(where: { $0.pictureType != nil }) {
                chapters = withPictures(chapters, pictureTrack.pictures(length: length, fetch: fetch))
            }
            if !chapters.isEmpty { return chapters }
        }
        guard let udta = movie.first(where: { $0.type == "udta" }),
              let chpl = boxes(in: moov, udta.body).first(where: { $0.type == "chpl" }) else { return [] }
        return neroChapters(moov, chpl.body)
    }

    // MARK: Boxes

    struct Box {
        let type: String
        let body: Range<Int>
    }

    /// The boxes in `range` of `bytes`, up to the first that does not fit.
    static func boxes(in bytes: [UInt8], _ range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while let header = boxHeader(Array(bytes[offset..<min(range.upperBound, offset + 16)]),
                                     remaining: range.upperBound - offset) {
            found.append(Box(type: header.type, body: offset + header.headerLength..<offset + header.size))
            offset += header.size
        }
        return found
    }

    /// A box's header from the first bytes of it: its type, header length
    /// and whole size, if it fits in the `remaining` bytes.
    static func boxHeader(_ bytes: [UInt8], remaining: Int) -> (type: String, headerLength: Int, size: Int)? {
        var reader = ByteReader(bytes)
        guard let size32 = reader.u32(), let typeBytes = reader.bytes(4) else { return nil }
        let type = String(decoding: typeBytes, as: UTF8.self)
        var headerLength = 8
        var size: Int
        switch size32 {
        case 0: size = remaining
        case 1:
            guard let size64 = reader.u64(), let exact = Int(exactly: size64) else { return nil }
            headerLength = 16
            size = exact
        default: size = Int(size32)
        }
        guard size >= headerLength, size <= remaining else { return nil }
        return (type, headerLength, size)
    }

    /// The body of the top-level `moov`, wherever it is (writers put it
    /// first for streaming or last, after the media).
    private static func topLevelMoov(length: Int, fetch: (Int, Int) -> [UInt8]) -> [UInt8]? {
        var offset = 0
        while offset < length, let header = boxHeader(fetch(offset, 16), remaining: length - offset) {
            if header.type == "moov" {
                let bodyLength = header.size - header.headerLength
                guard bodyLength <= moovLimit else { return nil }
                let body = fetch(offset + header.headerLength, bodyLength)
                return body.count == bodyLength ? body : nil
            }
            offset += header.size
        }
        return nil
    }

    /// Each chapter with the picture showing at its start: the last that
    /// starts at or before it (the two tracks' times are rounded apart).
    /// Both tracks' starts only grow, so one pass over each.
    private static func withPictures(_ chapters: [Chapter], _ pictures: [(start: Double, image: ChapterImage)])
        -> [Chapter] {
        var next = 0
        return chapters.map { chapter in
            while next < pictures.count, pictures[next].start <= chapter.start + 0.01 { next += 1 }
            var chapter = chapter
            chapter.image = next > 0 ? pictures[next - 1].image : nil
            return chapter
        }
    }

    // MARK: Nero

    /// `chpl`: version, flags, (a reserved word from version 1 on), a
    /// count, then per chapter a start in 100 ns units and a titled
    /// Pascal string of UTF-8.
    private static func neroChapters(_ bytes: [UInt8], _ body: Range<Int>) -> [Chapter] {
        var reader = ByteReader(bytes, body)
        guard let version = reader.u8(), reader.skip(3), version == 0 || reader.skip(4),
              let count = reader.u8() else { return [] }
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard let units = reader.u64(), let titleLength = reader.u8(),
                  let title = reader.bytes(Int(titleLength)), let start = MediaTime.seconds(Double(units) / 10_000_000)
            else { break }
            chapters.append(Chapter(start: start, title: text(title), source: .embedded))
        }
        return chapters
    }

    // MARK: QuickTime chapter track

    /// What of a `trak` the chapter track needs: its ID, the tracks it
    /// names as its chapters, and where and when its samples are.
    struct Track {
        var id: UInt32?
        /// `hdlr`'s handler type: "text" (QuickTime) or "sbtl" for titles.
        var handler: String?
        /// The first sample description's format: "jpeg" or "png " for pictures.
        var sampleFormat: String?
        var chapterTrackIDs: [UInt32] = []
        var timescale: UInt32?
        var sampleDurations: [(count: UInt32, duration: UInt32)] = []
        var sampleSizes: [UInt32] = []
        var chunkOffsets: [UInt64] = []
        /// `stsc`: from chunk `firstChunk` (1-based) on, each chunk holds `samplesPerChunk` samples.
        var chunkRuns: [(firstChunk: UInt32, samplesPerChunk: UInt32)] = []

        var isText: Bool { handler == "text" || handler == "sbtl" }

        /// The MIME type of a track of still pictures.
        var pictureType: String? {
            guard handler == "vide" else { return nil }
            return switch sampleFormat {
            case "jpeg": "image/jpeg"
            case "png ": "image/png"
            default: nil
            }
        }

        /// `depth` counts the boxes below `trak` (`mdia`, `minf`, `stbl`),
        /// so nesting in a hostile file cannot run the stack out.
        init(_ bytes: [UInt8], _ body: Range<Int>, depth: Int = 0) {
            for box in MP4Chapters.boxes(in: bytes, body) {
                var reader = ByteReader(bytes, box.body)
                switch box.type {
                case "tkhd":
                    // Version 1 has 64-bit creation and modification times.
                    guard let version = reader.u8(), reader.skip(3 + (version == 1 ? 16 : 8)) else { continue }
                    id = reader.u32()
                case "tref":
                    for reference in MP4Chapters.boxes(in: bytes, box.body) where reference.type == "chap" {
                        var ids = ByteReader(bytes, reference.body)
                        while let id = ids.u32() { chapterTrackIDs.append(id) }
                    }
                case "mdia", "minf", "stbl":
                    guard depth < 3 else { continue }
                    let inner = Track(bytes, box.body, depth: depth + 1)
                    timescale = timescale ?? inner.timescale
                    handler = handler ?? inner.handler
                    sampleFormat = sampleFormat ?? inner.sampleFormat
                    sampleDurations += inner.sampleDurations
                    sampleSizes += inner.sampleSizes
                    chunkOffsets += inner.chunkOffsets
                    chunkRuns += inner.chunkRuns
                case "hdlr":
                    guard reader.skip(8), let type = reader.bytes(4) else { continue }
                    handler = String(decoding: type, as: UTF8.self)
                case "stsd":
                    // Version and flags, an entry count, then the first entry's size and format.
                    guard reader.skip(12), let format = reader.bytes(4) else { continue }
                    sampleFormat = String(decoding: format, as: UTF8.self)
                case "mdhd":
                    guard let version = reader.u8(), reader.skip(3 + (version == 1 ? 16 : 8)) else { continue }
                    timescale = reader.u32()
                case "stts":
                    guard reader.skip(4), let count = reader.u32() else { continue }
                    for _ in 0..<min(count, UInt32(MP4Chapters.sampleLimit)) {
                        guard let samples = reader.u32(), let duration = reader.u32() else { break }
                        sampleDurations.append((samples, duration))
                    }
                case "stsz":
                    guard reader.skip(4), let uniform = reader.u32(), let count = reader.u32() else { continue }
                    let limited = Int(min(count, UInt32(MP4Chapters.sampleLimit)))
                    if uniform != 0 {
                        sampleSizes = Array(repeating: uniform, count: limited)
                    } else {
                        for _ in 0..<limited {
                            guard let size = reader.u32() else { break }
                            sampleSizes.append(size)
                        }
                    }
                case "stco", "co64":
                    guard reader.skip(4), let count = reader.u32() else { continue }
                    for _ in 0..<min(count, UInt32(MP4Chapters.sampleLimit)) {
                        guard let offset = box.type == "co64" ? reader.u64() : reader.u32().map(UInt64.init) else { break }
                        chunkOffsets.append(offset)
                    }
                case "stsc":
                    guard reader.skip(4), let count = reader.u32() else { continue }
                    for _ in 0..<min(count, UInt32(MP4Chapters.sampleLimit)) {
                        guard let first = reader.u32(), let perChunk = reader.u32(), reader.skip(4) else { break }
                        chunkRuns.append((first, perChunk))
                    }
                default:
                    continue
                }
            }
        }

        /// Each sample's file offset, chunk by chunk, as `stsc` lays them out.
        var sampleOffsets: [Int] {
            var offsets: [Int] = []
            var sample = 0
            for (chunkIndex, chunkOffset) in chunkOffsets.enumerated() {
                let chunk = UInt32(truncatingIfNeeded: chunkIndex + 1)
                let perChunk = chunkRuns.last { $0.firstChunk <= chunk }?.samplesPerChunk ?? 1
                guard var offset = Int(exactly: chunkOffset) else { break }
                for _ in 0..<min(perChunk, UInt32(MP4Chapters.sampleLimit)) {
                    guard sample < sampleSizes.count, offsets.count < MP4Chapters.sampleLimit else { return offsets }
                    offsets.append(offset)
                    let (next, overflow) = offset.addingReportingOverflow(Int(sampleSizes[sample]))
                    guard !overflow else { return offsets }
                    offset = next
                    sample += 1
                }
            }
            return offsets
        }

        /// Each sample's start in seconds.
        var sampleStarts: [Double] {
            guard let timescale, timescale > 0 else { return [] }
            var starts: [Double] = []
            var time: Double = 0
            for run in sampleDurations {
                for _ in 0..<min(run.count, UInt32(MP4Chapters.sampleLimit)) {
                    guard starts.count < MP4Chapters.sampleLimit else { return starts }
                    starts.append(MediaTime.seconds(time / Double(timescale)) ?? MediaTime.maximumSeconds)
                    time += Double(run.duration)
                }
            }
            return starts
        }

        /// One chapter per text sample: a 16-bit length, the title, then
        /// boxes, of which `href` holds the chapter's link.
        func chapters(length: Int, fetch: (Int, Int) -> [UInt8]) -> [Chapter] {
            zip(sampleStarts, zip(sampleOffsets, sampleSizes)).compactMap { start, sample in
                let (offset, size) = sample
                guard size >= 2, offset < length else { return nil }
                let bytes = fetch(offset, min(Int(size), MP4Chapters.textSampleLimit))
                var reader = ByteReader(bytes)
                guard let titleLength = reader.u16() else { return nil }
                let titleEnd = min(2 + Int(titleLength), bytes.count)
                let title = Array(bytes[2..<min(titleEnd, 2 + MP4Chapters.titleLimit)])
                let link = MP4Chapters.boxes(in: bytes, titleEnd..<bytes.count)
                    .first { $0.type == "href" }
                    .flatMap { MP4Chapters.link(bytes, $0.body) }
                return Chapter(start: start, title: MP4Chapters.text(title), url: link, source: .embedded)
            }
        }

        /// Each picture sample's start and image, within the size limits.
        func pictures(length: Int, fetch: (Int, Int) -> [UInt8]) -> [(start: Double, image: ChapterImage)] {
            guard let pictureType else { return [] }
            var budget = MP4Chapters.pictureBudget
            return zip(sampleStarts, zip(sampleOffsets, sampleSizes)).compactMap { start, sample in
                let (offset, size) = (sample.0, Int(sample.1))
                guard size > 0, size <= MP4Chapters.pictureLimit, size <= budget, offset < length else { return nil }
                budget -= size
                let bytes = fetch(offset, size)
                guard bytes.count == size else { return nil }
                return (start, .embedded(Data(bytes), mimeType: pictureType))
            }
        }
    }

    /// `href` (3GPP timed text's hypertext box): the first and last
    /// character it spans, then the address and a tooltip, each after a
    /// byte of length.
    static func link(_ bytes: [UInt8], _ body: Range<Int>) -> URL? {
        var reader = ByteReader(bytes, body)
        guard reader.skip(4), let length = reader.u8(), let address = reader.bytes(Int(length)) else { return nil }
        // Web addresses only, as in feeds and ID3 tags.
        return FeedURLResolver.resolve(String(decoding: address, as: UTF8.self), against: nil)
    }

    /// UTF-8, or UTF-16 after a byte-order mark, as QuickTime text samples are.
    static func text(_ bytes: [UInt8]) -> String? {
        let decoded: String? = if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            String(data: Data(bytes), encoding: .utf16)
        } else {
            String(decoding: bytes, as: UTF8.self)
        }
        let trimmed = decoded?.trimmingCharacters(in: CharacterSet(charactersIn: "\0").union(.whitespacesAndNewlines))
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}

/// Big-endian reads from a range of bytes; each returns `nil` rather than
/// reading past the range's end.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int

    init(_ bytes: [UInt8], _ range: Range<Int>? = nil) {
        self.bytes = bytes
        let range = range ?? 0..<bytes.count
        offset = max(0, range.lowerBound)
        end = min(bytes.count, range.upperBound)
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= end - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func skip(_ count: Int) -> Bool { bytes(count) != nil }

    mutating func u8() -> UInt8? { bytes(1)?.first }
    mutating func u16() -> UInt16? { bytes(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }
    mutating func u32() -> UInt32? { bytes(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } } }
    mutating func u64() -> UInt64? { bytes(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } } }
}
