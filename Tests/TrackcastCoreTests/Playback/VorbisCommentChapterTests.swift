import Testing
import TrackcastCore

@Suite("Vorbis comment chapters")
struct VorbisCommentChapterTests {
    @Test("CHAPTERnnn and CHAPTERnnnNAME comments, in any order and case, become chapters ending where the next starts")
    func chapters() {
        let chapters = VorbisCommentChapters.chapters(from: [
            "TITLE=Episode", "CHAPTER002=00:01:05.250", "chapter002name=Zwischenspiel – Teil 2",
            "CHAPTER001=00:00:00.000", "CHAPTER001NAME=Opening", "CHAPTER003=01:00:00.5", "CHAPTER001URL=https://example.org",
        ], duration: .seconds(4000))
        #expect(chapters.map(\.start) == [.zero, .milliseconds(65250), .milliseconds(3_600_500)])
        #expect(chapters.map(\.title) == ["Opening", "Zwischenspiel – Teil 2", nil])
        #expect(chapters.map(\.end) == [.milliseconds(65250), .milliseconds(3_600_500), .seconds(4000)])
    }

    @Test("comments that are not chapters, and times that do not read, give none", arguments: [
        "CHAPTER=00:00:01", "CHAPTER001=", "CHAPTER001=1:2:3:4", "CHAPTER001=-5", "CHAPTER001=00:00:nan",
        "CHAPTER001=1e400", "CHAPTER001=::", "CHAPTERS=3", "CHAPTER001NAME=orphan", "no equals sign",
    ])
    func notChapters(comment: String) {
        #expect(VorbisCommentChapters.chapters(from: [comment], duration: nil).isEmpty)
    }

    @Test("a time past any media's end is taken as the longest time, 1e7 s")
    func clamped() {
        let chapters = VorbisCommentChapters.chapters(from: ["CHAPTER001=999999999:00:00.000"], duration: nil)
        #expect(chapters.map(\.start) == [.seconds(10_000_000)])
    }

    @Test("a chapter starting at or after the media's end is left out: none ends before it starts")
    func pastTheEnd() {
        let chapters = VorbisCommentChapters.chapters(from: [
            "CHAPTER001=00:00:00", "CHAPTER002=00:30:00", "CHAPTER003=01:00:00", "CHAPTER004=01:20:00",
        ], duration: .seconds(3600))
        #expect(chapters.map(\.start) == [.zero, .seconds(1800)])
        #expect(chapters.map(\.end) == [.seconds(1800), .seconds(3600)])
    }
}
