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
/// `TranscriptCursor` follows the play head through it and searches it.
public struct Transcript: Sendable, Equatable {
    public let cues: [TranscriptCue]
    /// Whether the cues carry real times (HTML transcripts do not).
    public let isTimed: Bool

    public init(cues: [TranscriptCue], isTimed: Bool = true) {
        self.cues = isTimed ? cues.sorted { $0.start < $1.start } : cues
        self.isTimed = isTimed
    }
}
