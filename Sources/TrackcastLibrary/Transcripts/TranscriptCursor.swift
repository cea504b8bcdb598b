import Foundation

/// Where the play head is in a transcript: the cue being spoken, the cues
/// before and after it, and the cues a search finds. Lookups are binary
/// searches over the cues' starts, so following playback through a
/// transcript of thousands of cues costs a few comparisons a tick.
public struct TranscriptCursor: Sendable, Equatable {
    public let transcript: Transcript
    /// For each cue, the latest end among it and the cues before it: where
    /// a backward walk over overlapping cues can stop.
    private let latestEndSoFar: [TimeInterval]

    public init(_ transcript: Transcript) {
        self.transcript = transcript
        var latest = -TimeInterval.infinity
        latestEndSoFar = transcript.cues.map { cue in
            latest = max(latest, cue.end)
            return latest
        }
    }

    public var cues: [TranscriptCue] { transcript.cues }

    /// The cue being spoken at `position`: the last cue whose start has been
    /// reached and whose end has not passed. Between cues, before the first
    /// and after the last there is none; an untimed transcript has none.
    public func cueIndex(at position: TimeInterval) -> Int? {
        guard transcript.isTimed, position.isFinite else { return nil }
        var index = startedCount(at: position) - 1
        // Cues may overlap (two speakers at once): an earlier, longer cue
        // may still be running when the latest to start has ended.
        while index >= 0, latestEndSoFar[index] > position {
            if cues[index].end > position { return index }
            index -= 1
        }
        return nil
    }

    /// The first cue starting after `position`, e.g. for "next sentence".
    public func nextIndex(after position: TimeInterval) -> Int? {
        guard transcript.isTimed else { return nil }
        let index = startedCount(at: position)
        return index < cues.count ? index : nil
    }

    /// The last cue that started before `position` and is not the one
    /// being spoken: the cue before the current one, or, between cues,
    /// the one that just ended.
    public func previousIndex(before position: TimeInterval) -> Int? {
        guard transcript.isTimed else { return nil }
        let started = startedCount(at: position)
        let candidate = (cueIndex(at: position) ?? started) - 1
        return candidate >= 0 ? candidate : nil
    }

    /// The cues whose text contains `query`, ignoring case and diacritics
    /// ("cafe" finds "Café"), in order. Blank queries find nothing.
    public func search(_ query: String) -> [Int] {
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return [] }
        return cues.indices.filter {
            cues[$0].text.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    /// How many cues start at or before `position` (binary search).
    private func startedCount(at position: TimeInterval) -> Int {
        var low = 0, high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].start <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
