import Foundation
import Synchronization

/// A live HLS stream served from a `TestHTTPServer`, as a live encoder
/// publishes one: a media playlist without `EXT-X-ENDLIST` at `path`, a
/// sliding window of the newest `window` one-second segments, one more
/// published at each `advance()`. Segments come from `segments` in order
/// (MPEG-TS of continuous timestamps), so the stream can run as long as
/// they last. Given a `programDate` (the first segment's), each playlist
/// dates its first segment with `EXT-X-PROGRAM-DATE-TIME` and carries
/// `dateRanges` (`EXT-X-DATERANGE` lines), as a live encoder's with ads does;
/// `setDateRanges(_:)` changes them from the next playlist on.
public final class LiveStream: Sendable {
    public let path: String
    private let segments: [Data]
    private let window: Int
    private let server: TestHTTPServer
    private let programDate: Date?
    private let dateRanges: Mutex<[String]>
    /// How many segments are published.
    private let published: Mutex<Int>

    public init(segments: [Data], on server: TestHTTPServer, path: String = "/live/playlist.m3u8", window: Int,
                initially: Int, programDate: Date? = nil, dateRanges: [String] = []) {
        self.path = path
        self.programDate = programDate
        self.dateRanges = Mutex(dateRanges)
        self.segments = segments
        self.window = window
        self.server = server
        published = Mutex(min(initially, segments.count))
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        for (index, data) in segments.enumerated() {
            server.route("/\(folder)/segment\(index).ts", .serve(data, contentType: "video/mp2t"))
        }
        publish()
    }

    public var publishedCount: Int { published.withLock { $0 } }

    /// Publishes the next segment, as an encoder does once a segment's length has passed.
    public func advance() {
        published.withLock { $0 = min($0 + 1, segments.count) }
        publish()
    }

    /// Publishes a segment every second, as a live encoder does, until the
    /// segments run out or the task is cancelled (cancel it when done).
    public func publishEverySecond() -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled, publishedCount < segments.count {
                try? await Task.sleep(for: .seconds(1))
                advance()
            }
        }
    }

    /// Publishes the playlist again with `lines` as its date ranges, as an
    /// encoder does when an ad break is scheduled or withdrawn.
    public func setDateRanges(_ lines: [String]) {
        dateRanges.withLock { $0 = lines }
        publish()
    }

    private func publish() {
        let count = published.withLock { $0 }
        let first = max(0, count - window)
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        if let programDate {
            let date = programDate.addingTimeInterval(Double(first))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            lines += ["#EXT-X-PROGRAM-DATE-TIME:" + formatter.string(from: date)]
            lines += dateRanges.withLock { $0 }
        }
        for index in first..<count { lines += ["#EXTINF:1.0,", "segment\(index).ts"] }
        server.route(path, .serve(Data((lines + [""]).joined(separator: "\n").utf8),
                                  contentType: "application/vnd.apple.mpegurl"))
    }

    /// `seconds` one-second AAC segments in MPEG-TS with continuous timestamps, made with gst-launch-1.0.
    public static func makeSegments(seconds: Int) async throws -> [Data] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-live-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoder = ProcessInfo.processInfo.environment["TRACKCAST_TEST_AAC_ENCODER"] ?? "avenc_aac"
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=\(seconds * 50)", "samplesperbuffer=960", "!",
            "audio/x-raw,rate=48000,channels=2", "!", "audioconvert", "!", encoder, "!", "aacparse", "!", "mpegtsmux", "!",
            "multifilesink", "location=\(folder.path)/segment%05d.ts", "next-file=max-duration", "max-file-duration=1000000000",
        ], timeout: .seconds(60))
        guard made.status == 0 else { throw SegmentError(message: made.standardError) }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ts") }.sorted()
            .map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    }

    public struct SegmentError: Error { public let message: String }
}
