import Foundation

/// One timed piece of a transcript.
public struct TranscriptCue: Sendable, Equatable {
    /// Seconds from the start of the media.
    public var start: TimeInterval
    public var end: TimeInterval
    public var text: String
    public var speaker: String?

    public init(start: TimeInterval, end: TimeInterval, text: String, speaker: String? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.speaker = speaker
    }
}

/// An episode's transcript: timed cues in order, or (from a plain HTML
/// page) untimed paragraphs, which have no cue under the play head.
public struct Transcript: Sendable, Equatable {
    public let cues: [TranscriptCue]
    /// Whether the cues carry real times (HTML transcripts do not).
    public let isTimed: Bool

    public init(cues: [TranscriptCue], isTimed: Bool = true) {
        self.cues = isTimed ? cues.sorted { $0.start < $1.start } : cues
        self.isTimed = isTimed
    }

    /// The index of the cue being spoken at `position`: the last one that
    /// has started and not ended. Between cues there is none.
    public func cueIndex(at position: TimeInterval) -> Int? {
        guard isTimed, let index = cues.lastIndex(where: { $0.start <= position }) else { return nil }
        return position < cues[index].end ? index : nil
    }

    /// The cues containing `query`, ignoring case and diacritics, in order.
    public func search(_ query: String) -> [Int] {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return [] }
        return cues.indices.filter {
            cues[$0].text.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }
}
