import Foundation
import Testing
import TrackcastLibrary

@Suite("Transcript cursor")
struct TranscriptCursorTests {
    /// 0–4 s, 4.5–9 s, a gap, 70.25–75 s (the sample WebVTT file's cues).
    static func sample() throws -> TranscriptCursor {
        TranscriptCursor(try TranscriptParser.parse(TranscriptTests.fixture("sample.vtt"), format: .webVTT))
    }

    @Test("the cue under the play head: started and not ended; none before, between and after the cues")
    func cueUnderPlayHead() throws {
        let cursor = try Self.sample()
        #expect(cursor.cueIndex(at: -1) == nil)
        #expect(cursor.cueIndex(at: 0) == 0)
        #expect(cursor.cueIndex(at: 4.49) == 0)
        #expect(cursor.cueIndex(at: 4.5) == 1)
        #expect(cursor.cueIndex(at: 30) == nil, "between cues nothing is spoken")
        #expect(cursor.cueIndex(at: 70.25) == 2)
        #expect(cursor.cueIndex(at: 74.99) == 2)
        #expect(cursor.cueIndex(at: 75) == nil, "a cue's end is not part of it")
        #expect(cursor.cueIndex(at: .nan) == nil)
    }

    @Test("overlapping cues: a long cue still running is found after a shorter later one ended")
    func overlappingCues() {
        let cursor = TranscriptCursor(Transcript(cues: [
            TranscriptCue(start: 0, end: 10, text: "a long one"),
            TranscriptCue(start: 2, end: 3, text: "an interjection"),
            TranscriptCue(start: 12, end: 14, text: "later"),
        ]))
        #expect(cursor.cueIndex(at: 2.5) == 1, "the latest to start wins while both run")
        #expect(cursor.cueIndex(at: 5) == 0)
        #expect(cursor.cueIndex(at: 11) == nil)
        #expect(cursor.cueIndex(at: 13) == 2)
    }

    @Test("every position of a long transcript finds the cue a linear scan finds")
    func agreesWithLinearScan() {
        // Cues of 1–3 s with gaps of 0–1 s, some overlapping their neighbour.
        var cues: [TranscriptCue] = []
        var start = 0.0
        for index in 0..<500 {
            let length = 1 + Double(index % 3)
            cues.append(TranscriptCue(start: start, end: start + length, text: "cue \(index)"))
            start += index % 7 == 0 ? length - 0.5 : length + Double(index % 2)
        }
        let cursor = TranscriptCursor(Transcript(cues: cues))
        for tenth in stride(from: 0.0, to: start + 5, by: 0.7) {
            let expected = cues.indices.last { cues[$0].start <= tenth && tenth < cues[$0].end }
            #expect(cursor.cueIndex(at: tenth) == expected, "at \(tenth) s")
        }
    }

    @Test("next and previous cue around the play head, inside a cue and between cues")
    func nextAndPrevious() throws {
        let cursor = try Self.sample()
        #expect(cursor.nextIndex(after: -1) == 0)
        #expect(cursor.nextIndex(after: 0) == 1)
        #expect(cursor.nextIndex(after: 30) == 2)
        #expect(cursor.nextIndex(after: 71) == nil)
        #expect(cursor.previousIndex(before: 0) == nil)
        #expect(cursor.previousIndex(before: 6) == 0, "inside the second cue: the first")
        #expect(cursor.previousIndex(before: 30) == 1, "between cues: the one that just ended")
        #expect(cursor.previousIndex(before: 72) == 1)
    }

    @Test("search ignores case and diacritics, in both directions; blank finds nothing")
    func search() throws {
        let cursor = try Self.sample()
        #expect(cursor.search("CAFES") == [2])
        #expect(cursor.search("café") == [2])
        #expect(cursor.search("alice") == [1])
        #expect(cursor.search("to") == [0, 1])
        #expect(cursor.search("  ") == [])
        #expect(cursor.search("podcasting") == [])
        let accented = TranscriptCursor(Transcript(cues: [TranscriptCue(start: 0, end: 1, text: "Über Straße und Crème brûlée")]))
        #expect(accented.search("uber") == [0])
        #expect(accented.search("CREME BRULEE") == [0])
    }

    @Test("an untimed (HTML) transcript has no cue under the play head, no next or previous, but can be searched")
    func untimed() throws {
        let cursor = TranscriptCursor(try TranscriptParser.parse(TranscriptTests.fixture("sample.html"), format: .html))
        #expect(cursor.cueIndex(at: 0) == nil)
        #expect(cursor.nextIndex(after: 0) == nil)
        #expect(cursor.previousIndex(before: 10) == nil)
        #expect(cursor.search("fades") == [2])
    }
}
