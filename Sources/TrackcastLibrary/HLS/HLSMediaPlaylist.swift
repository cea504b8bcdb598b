import Foundation
import TrackcastCore

/// What Trackcast reads of an HLS media playlist itself: its length, whether
/// it ends, and the interstitials it schedules. GStreamer plays the
/// segments; this is only for what GStreamer does not do.
///
/// The playlist comes from the network: it is read in one pass over its
/// bytes (each attribute list too, in one pass), every number is checked to
/// be finite and within a media time, and anything malformed is skipped
/// rather than trusted. Nothing here traps.
public struct HLSMediaPlaylist: Sendable, Equatable {
    /// Where it was read from: a live stream's is read again there.
    public var url: URL
    /// The sum of the segments' `EXTINF` durations, in seconds.
    public var duration: Double
    /// `EXT-X-ENDLIST` is present: the playlist is complete, not live.
    public var hasEndList: Bool
    /// `EXT-X-TARGETDURATION`, in seconds: how often a live playlist is
    /// re-read; nil when missing or not a time.
    public var targetDuration: Double?
    public var interstitials: [HLSInterstitial]
    /// The date at 0 s of the timeline its interstitials are placed on: its
    /// first segment's (by the first `EXT-X-PROGRAM-DATE-TIME`), or the one
    /// asked for; nil without a program date.
    public var timelineStart: Date?
    /// Where its first segment falls on that timeline: 0 unless placed on
    /// an earlier read's (a live playlist's window has moved on since).
    public var windowStart: Double?
    /// The variants of the master playlist it was reached through
    /// (`HLSInterstitialFetcher`); none when it was read directly.
    public var variants: [StreamVariant] = []

    /// Larger playlists are refused: a VOD playlist of a day of 2 s
    /// segments with program dates is about 6 MB.
    public static let maximumSize = 8 << 20
    /// Attributes past this many in one tag are ignored.
    static let maximumAttributes = 64
    /// Interstitials past this many are ignored.
    static let maximumInterstitials = 1_000
    /// The class of date ranges that are interstitials.
    static let interstitialClass = "com.apple.hls.interstitial"

    /// Reads `text`, fetched from `url` (against which asset addresses
    /// resolve). Given a `timelineStart` (an earlier read's of the same live
    /// stream), its interstitials are placed on that timeline rather than
    /// from its own first segment, which has moved on with the live window.
    public init(_ text: String, url: URL, timelineStart: Date? = nil) throws(HLSPlaylistError) {
        var steps = 0
        try self.init(text, url: url, timelineStart: timelineStart, steps: &steps)
    }

    /// `steps` counts the bytes looked at, for the tests that hold the reading linear.
    init(_ text: String, url: URL, timelineStart: Date? = nil, steps: inout Int) throws(HLSPlaylistError) {
        self.url = url
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumSize else { throw .tooLarge(bytes: bytes.count) }
        var lines = LineReader(bytes: bytes)
        guard let first = lines.next(steps: &steps), HLSAttributes.hasPrefix(bytes, first, "#EXTM3U") else {
            throw .notAPlaylist
        }
        var duration = 0.0
        var hasEndList = false
        var targetDuration: Double?
        // The first program date and where on the timeline it falls.
        var anchor: (date: Date, position: Double)?
        var ranges: [(attributes: HLSAttributes, date: Date)] = []
        while let line = lines.next(steps: &steps) {
            if HLSAttributes.hasPrefix(bytes, line, "#EXTINF:") {
                let value = HLSAttributes.number(bytes, line.lowerBound + 8..<line.upperBound, upTo: UInt8(ascii: ","))
                if let value, value >= 0, value <= HLSAttributes.maximumSeconds {
                    duration = min(duration + value, HLSAttributes.maximumSeconds)
                }
            } else if HLSAttributes.hasPrefix(bytes, line, "#EXT-X-PROGRAM-DATE-TIME:"), anchor == nil {
                let text = HLSAttributes.string(bytes, line.lowerBound + 25..<line.upperBound)
                if let date = FeedDateParser.parse(text) { anchor = (date, duration) }
            } else if HLSAttributes.hasPrefix(bytes, line, "#EXT-X-DATERANGE:") {
                guard ranges.count < Self.maximumInterstitials else { continue }
                let attributes = HLSAttributes(bytes, line.lowerBound + 17..<line.upperBound, steps: &steps)
                guard attributes["CLASS"] == Self.interstitialClass, let start = attributes["START-DATE"],
                      let date = FeedDateParser.parse(start) else { continue }
                ranges.append((attributes, date))
            } else if HLSAttributes.hasPrefix(bytes, line, "#EXT-X-ENDLIST") {
                hasEndList = true
            } else if HLSAttributes.hasPrefix(bytes, line, "#EXT-X-TARGETDURATION:"), targetDuration == nil {
                let value = HLSAttributes.number(bytes, line.lowerBound + 22..<line.upperBound, upTo: UInt8(ascii: ","))
                if let value, value > 0, value <= HLSAttributes.maximumSeconds { targetDuration = value }
            }
        }
        self.duration = duration
        self.hasEndList = hasEndList
        self.targetDuration = targetDuration
        // Without a program date nothing can be placed on the timeline.
        guard let anchor else {
            interstitials = []
            return
        }
        let ownStart = anchor.date.addingTimeInterval(-anchor.position)
        let start = timelineStart ?? ownStart
        let offset = ownStart.timeIntervalSince(start)
        self.timelineStart = start
        windowStart = offset.isFinite && abs(offset) <= HLSAttributes.maximumSeconds ? offset : nil
        interstitials = ranges.compactMap { Self.interstitial($0.attributes, date: $0.date, timelineStart: start, url: url) }
    }

    /// Whether `text` is a master playlist (variants, no segments).
    public static func isMaster(_ text: String) -> Bool {
        text.contains("#EXT-X-STREAM-INF") && !text.contains("#EXTINF")
    }

    /// The address of a master playlist's first variant: the first line
    /// after an `EXT-X-STREAM-INF` that is not a tag, resolved against `url`;
    /// only a web address.
    public static func firstVariant(in text: String, url: URL) -> URL? {
        var afterStreamInfo = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#EXT-X-STREAM-INF") {
                afterStreamInfo = true
            } else if afterStreamInfo, !trimmed.isEmpty, !trimmed.hasPrefix("#") {
                guard let resolved = URL(string: trimmed, relativeTo: url)?.absoluteURL,
                      ["http", "https"].contains(resolved.scheme?.lowercased() ?? "") else { return nil }
                return resolved
            }
        }
        return nil
    }

    private static func interstitial(_ attributes: HLSAttributes, date: Date, timelineStart: Date,
                                     url: URL) -> HLSInterstitial? {
        guard let id = attributes["ID"], !id.isEmpty else { return nil }
        let start = date.timeIntervalSince(timelineStart)
        guard start.isFinite, start >= 0, start <= HLSAttributes.maximumSeconds else { return nil }
        func seconds(_ name: String) -> Double? {
            attributes.number(name).flatMap { $0 >= 0 && $0 <= HLSAttributes.maximumSeconds ? $0 : nil }
        }
        func address(_ name: String) -> URL? {
            guard let text = attributes[name], let resolved = URL(string: text, relativeTo: url)?.absoluteURL,
                  ["http", "https"].contains(resolved.scheme?.lowercased() ?? "") else { return nil }
            return resolved
        }
        func list(_ name: String) -> [String] {
            (attributes[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let restrictions = list("X-RESTRICT")
        let triggers = list("CUE")
        var cue: HLSInterstitial.Cue = triggers.contains("ONCE") ? [.once] : []
        // Both PRE and POST is against the specification: neither is trusted, the date places it.
        switch (triggers.contains("PRE"), triggers.contains("POST")) {
        case (true, false): cue.insert(.pre)
        case (false, true): cue.insert(.post)
        default: break
        }
        let interstitial = HLSInterstitial(
            id: id, start: start, duration: seconds("DURATION") ?? seconds("PLANNED-DURATION"),
            assetURI: address("X-ASSET-URI"), assetList: address("X-ASSET-LIST"),
            resumeOffset: seconds("X-RESUME-OFFSET"),
            forbidsSkip: restrictions.contains("SKIP"), forbidsJump: restrictions.contains("JUMP"), cue: cue)
        // One or the other, as the specification says: neither is nothing to play.
        guard (interstitial.assetURI == nil) != (interstitial.assetList == nil) else { return nil }
        return interstitial
    }
}

/// The lines of a playlist, as byte ranges without their line ends.
struct LineReader {
    let bytes: [UInt8]
    var index = 0

    mutating func next(steps: inout Int) -> Range<Int>? {
        guard index < bytes.count else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            index += 1
            steps += 1
        }
        var end = index
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        index += 1
        return start..<end
    }
}
