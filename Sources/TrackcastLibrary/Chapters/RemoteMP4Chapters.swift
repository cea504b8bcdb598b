import Foundation

/// The chapters of an MP4 (M4A, M4B) on a web server, read as
/// `MP4Chapters` reads a file but through HTTP Range requests: the boxes'
/// headers, `moov` and the chapter samples, never the media between them.
///
/// The reader walks the file by offsets it learns as it goes, so it runs in
/// rounds: each runs `MP4Chapters` over the bytes fetched so far, notes the
/// ranges it asked for and missed, and fetches those (joined, and at least a
/// block each, which often brings the next header or all of `moov` along).
/// A few rounds and a byte budget bound it; cancelling its task ends it.
public struct RemoteMP4Chapters: Sendable {
    /// What a reading found, and what it cost.
    public struct Reading: Sendable, Equatable {
        public var chapters: [Chapter]
        public var bytesFetched: Int
        public var requests: Int
    }

    /// The least a request asks for: headers and small boxes come together.
    static let block = 64 << 10
    /// The most bytes a reading fetches: all of the largest `moov` read, all
    /// the chapter pictures read, and a megabyte for headers and titles.
    static let budget = MP4Chapters.moovLimit + MP4Chapters.pictureBudget + (1 << 20)
    /// A file walks its top-level boxes one round each, then fetches its
    /// samples: ftyp, free, mdat, moov and the samples are five.
    static let rounds = 8

    private let client: HTTPClient
    private let timeouts: HTTPTimeouts

    public init(client: HTTPClient, timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(10), total: .seconds(30))) {
        self.client = client
        self.timeouts = timeouts
    }

    /// The chapters of the MP4 at `url`; none when the server cannot send
    /// ranges of a file larger than a block, or fails, or the file has none.
    @concurrent public func read(_ url: URL) async -> Reading {
        var reading = Reading(chapters: [], bytesFetched: 0, requests: 0)
        var fetched = FetchedRanges()
        guard let first = await fetch(url, 0..<Self.block, into: &reading) else { return reading }
        guard let length = first.total else {
            // The whole file came back (a server without ranges): small enough to read as it is.
            reading.chapters = MP4Chapters.read(Data(first.bytes))
            return reading
        }
        fetched.insert(first.bytes, at: 0)
        for _ in 0..<Self.rounds {
            var missed: [Range<Int>] = []
            reading.chapters = MP4Chapters.read(length: length) { offset, count in
                let wanted = offset..<min(length, offset + count)
                if let bytes = fetched.bytes(wanted) { return bytes }
                missed.append(wanted)
                return []
            }
            if missed.isEmpty || Task.isCancelled { return reading }
            for range in Self.requests(for: missed, length: length) {
                guard reading.bytesFetched + range.count <= Self.budget,
                      let part = await fetch(url, range, into: &reading), part.total == length else { return reading }
                fetched.insert(part.bytes, at: range.lowerBound)
            }
        }
        return reading
    }

    /// The ranges to ask for: missed ones close together joined, each at
    /// least a block long where the file allows.
    static func requests(for missed: [Range<Int>], length: Int) -> [Range<Int>] {
        var joined: [Range<Int>] = []
        for range in missed.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = joined.last, range.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range.lowerBound..<min(length, max(range.upperBound, range.lowerBound + block)))
            }
        }
        return joined
    }

    /// One Range request: the bytes and the file's whole length from a 206;
    /// from a 200 (ranges not served) the whole file, if it is under two blocks.
    private func fetch(_ url: URL, _ range: Range<Int>,
                       into reading: inout Reading) async -> (bytes: [UInt8], total: Int?)? {
        guard !Task.isCancelled else { return nil }
        let body = ResponseBodyBuffer(limit: Int64(max(range.count, 2 * Self.block)))
        reading.requests += 1
        let head: HTTPResponseHead
        do {
            head = try await client.get(url, headers: ["Range": "bytes=\(range.lowerBound)-\(range.upperBound - 1)",
                                                       "Accept-Encoding": "identity"],
                                        timeouts: timeouts, receiver: body)
        } catch {
            return nil
        }
        let bytes = [UInt8](body.data)
        reading.bytesFetched += bytes.count
        switch head.status {
        case 206:
            guard let answered = head[header: "content-range"].flatMap(ByteCountHeaders.contentRange),
                  answered.start == Int64(range.lowerBound), let total = answered.total,
                  let length = Int(exactly: total), bytes.count == Int(answered.end - answered.start + 1)
            else { return nil }
            return (bytes, length)
        case 200 where range.lowerBound == 0:
            return (bytes, nil)
        default:
            return nil
        }
    }
}

/// Parts of a remote file fetched so far, by offset.
struct FetchedRanges {
    private var parts: [(offset: Int, bytes: [UInt8])] = []

    mutating func insert(_ bytes: [UInt8], at offset: Int) {
        parts.append((offset, bytes))
    }

    /// `range`'s bytes if one part holds all of it.
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        for part in parts where part.offset <= range.lowerBound && range.upperBound <= part.offset + part.bytes.count {
            return Array(part.bytes[(range.lowerBound - part.offset)..<(range.upperBound - part.offset)])
        }
        return nil
    }
}
