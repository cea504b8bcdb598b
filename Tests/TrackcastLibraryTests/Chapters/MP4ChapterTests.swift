import Foundation
import Testing
import TestSupport
import TrackcastLibrary

@Suite("MP4 chapters", .needs("ffmpeg"))
struct MP4ChapterTests {
    static let marks = [ChapteredMedia.Mark(0, "Opening"), .init(2, "Middle part"), .init(4.5, "Ende – Schluss")]

    @Test("the QuickTime chapter track of an M4A ffmpeg wrote, read from the file, moov after or before the media")
    func chapterTrack() async throws {
        let directory = try TemporaryDirectory()
        let written = directory.url.appendingPathComponent("written.m4a")
        try await ChapteredMedia.write(.m4a, seconds: 6, chapters: Self.marks, to: written)
        // The same with moov first, as web-optimised files have it.
        let fastStart = directory.url.appendingPathComponent("faststart.m4a")
        let moved = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), arguments: [
            "-loglevel", "error", "-i", written.path, "-map", "0:a", "-c", "copy", "-movflags", "+faststart", fastStart.path,
        ])
        try #require(moved.status == 0, "\(moved.standardError)")
        for (source, moovFirst) in [(written, false), (fastStart, true)] {
            // Renaming Nero's chpl leaves the chapter track as the only source.
            var bytes = try Data(contentsOf: source)
            let moov = try #require(bytes.range(of: Data("moov".utf8)))
            let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
            #expect((moov.lowerBound < mdat.lowerBound) == moovFirst)
            bytes.replaceSubrange(try #require(bytes.range(of: Data("chpl".utf8))), with: Data("xxxx".utf8))
            let file = directory.url.appendingPathComponent("track-only.m4a")
            try bytes.write(to: file)
            let chapters = MP4Chapters.read(contentsOf: file)
            #expect(chapters.map(\.start) == [0, 2, 4.5])
            #expect(chapters.map(\.title) == ["Opening", "Middle part", "Ende – Schluss"])
            #expect(chapters.allSatisfy { $0.source == .embedded })
        }
    }

    @Test("Nero chpl alone, when a file has no chapter track")
    func neroChapters() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("chapters.m4a")
        try await ChapteredMedia.write(.m4a, seconds: 6, chapters: Self.marks, to: file)
        // Renaming the track reference hides the chapter track; chpl is all that is left.
        var bytes = try Data(contentsOf: file)
        let reference = try #require(bytes.range(of: Data("chap".utf8)))
        bytes.replaceSubrange(reference, with: Data("xxxx".utf8))
        let chapters = MP4Chapters.read(bytes)
        #expect(chapters.map(\.start) == [0, 2, 4.5])
        #expect(chapters.map(\.title) == ["Opening", "Middle part", "Ende – Schluss"])
    }

    @Test("no chapters in an M4A without any, in other files, or in cut and damaged ones; none crash")
    func damaged() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("chapters.m4a")
        try await ChapteredMedia.write(.m4a, seconds: 6, chapters: Self.marks, to: file)
        let whole = try Data(contentsOf: file)
        #expect(MP4Chapters.read(Data()).isEmpty)
        #expect(MP4Chapters.read(Data("ID3\u{4}\0\0\0\0\0\0 not an MP4 at all".utf8)).isEmpty)
        // Cut anywhere: fewer chapters or none.
        for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 300)) {
            #expect(MP4Chapters.read(whole.prefix(length)).count <= 3)
        }
        // Every byte of moov overwritten in turn with 0xFF: sizes, counts and offsets go wild.
        let moov = try #require(whole.range(of: Data("moov".utf8)))
        for offset in stride(from: moov.lowerBound, to: whole.count, by: 7) {
            var damaged = whole
            damaged[offset] = 0xFF
            #expect(MP4Chapters.read(damaged).count <= 4096)
        }
        #expect(MP4Chapters.read(contentsOf: directory.url.appendingPathComponent("missing.m4a")).isEmpty)
    }
}
