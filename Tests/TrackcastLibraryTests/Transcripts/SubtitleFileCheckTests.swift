import Foundation
import Testing
import TrackcastLibrary

@Suite("Subtitle files checked before playing")
struct SubtitleFileCheckTests {
    private func file(_ name: String, _ bytes: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-check-\(UUID())-\(name)")
        try bytes.write(to: url)
        return url
    }

    @Test("SubRip in UTF-8 and in Latin-1, and WebVTT, are read; cues counted")
    func readable() throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nÜberall\n\n2\n00:00:03,000 --> 00:00:04,000\nça va\n"
        #expect(try SubtitleFileCheck.cueCount(of: file("a.srt", Data(srt.utf8))) == 2)
        #expect(try SubtitleFileCheck.cueCount(of: file("b.srt", srt.data(using: .isoLatin1)!)) == 2)
        let vtt = "WEBVTT\n\n00:01.000 --> 00:02.000\nHello\n"
        #expect(try SubtitleFileCheck.cueCount(of: file("c.vtt", Data(vtt.utf8))) == 1)
    }

    @Test("binary bytes, text without cues, a missing file and a huge one are refused with a reason")
    func refused() throws {
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(throws: SubtitleFileCheck.Failure.noCues) { try SubtitleFileCheck.cueCount(of: file("d.srt", binary)) }
        #expect(throws: SubtitleFileCheck.Failure.noCues) {
            try SubtitleFileCheck.cueCount(of: file("e.srt", Data("just some words\nand more\n".utf8)))
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-no-such-\(UUID()).srt")
        #expect { try SubtitleFileCheck.cueCount(of: missing) } throws: { error in
            if case .unreadable = error as? SubtitleFileCheck.Failure { true } else { false }
        }
        let huge = try file("f.srt", Data(count: SubtitleFileCheck.maxBytes + 1))
        #expect(throws: SubtitleFileCheck.Failure.tooLarge) { try SubtitleFileCheck.cueCount(of: huge) }
    }
}
