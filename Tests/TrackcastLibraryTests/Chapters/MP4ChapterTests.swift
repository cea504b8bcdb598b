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

    @Test("an M4A streamed from a server: the same chapters as from the file, moov last or first, for a fraction of its bytes")
    func overHTTP() async throws {
        let directory = try TemporaryDirectory()
        let written = directory.url.appendingPathComponent("written.m4a")
        try await ChapteredMedia.write(.m4a, seconds: 120, chapters: Self.marks, to: written)
        let fastStart = directory.url.appendingPathComponent("faststart.m4a")
        let moved = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"), arguments: [
            "-loglevel", "error", "-i", written.path, "-map", "0:a", "-c", "copy", "-movflags", "+faststart", fastStart.path,
        ])
        try #require(moved.status == 0, "\(moved.standardError)")
        let server = try TestHTTPServer()
        defer { server.stop() }
        let reader = RemoteMP4Chapters(client: HTTPClient(userAgent: "Trackcast-tests"))
        for (name, file) in [("moov-last.m4a", written), ("moov-first.m4a", fastStart)] {
            let bytes = try Data(contentsOf: file)
            server.route("/\(name)", .serve(bytes, contentType: "audio/mp4"))
            let reading = await reader.read(try #require(URL(string: server.url("/\(name)"))))
            #expect(reading.chapters == MP4Chapters.read(contentsOf: file), "\(name)")
            #expect(reading.chapters.map(\.title) == ["Opening", "Middle part", "Ende – Schluss"], "\(name)")
            // Headers, moov and the chapter samples, not the media: a 2 MB file, a few blocks of it.
            #expect(reading.bytesFetched < 300_000 && reading.bytesFetched * 5 < bytes.count,
                    "\(name): \(reading.bytesFetched) of \(bytes.count) bytes in \(reading.requests) requests")
            #expect(server.log(for: "/\(name)").allSatisfy { $0.headers["range"]?.hasPrefix("bytes=") == true })
            print("\(name): \(reading.bytesFetched) of \(bytes.count) bytes in \(reading.requests) requests")
        }

        // A server that sends the whole file whatever is asked: a small one is read as it is, a large one not at all.
        let small = directory.url.appendingPathComponent("small.m4a")
        try await ChapteredMedia.write(.m4a, seconds: 3, chapters: Self.marks.prefix(2).map { $0 }, to: small)
        server.route("/small.m4a", .encoded(try Data(contentsOf: small), contentType: "audio/mp4", encoding: "identity"))
        server.route("/large.m4a", .encoded(try Data(contentsOf: written), contentType: "audio/mp4", encoding: "identity"))
        #expect(await reader.read(try #require(URL(string: server.url("/small.m4a")))).chapters.count == 2)
        let large = await reader.read(try #require(URL(string: server.url("/large.m4a"))))
        #expect(large.chapters.isEmpty && large.requests == 1)
    }

    @Test("an enhanced podcast's chapter links and pictures, from the file and over HTTP; only web links are kept")
    func linksAndPictures() async throws {
        let directory = try TemporaryDirectory()
        let sound = directory.url.appendingPathComponent("sound.m4a")
        try await ChapteredMedia.writeAACTone(seconds: 60, to: sound)
        let jpeg = try await ChapteredMedia.testPicture(encoder: "jpegenc", in: directory.url)
        let png = try await ChapteredMedia.testPicture(encoder: "pngenc", in: directory.url)
        let writer = EnhancedPodcastWriter(chapters: [
            .init(0, "Cold open", link: "https://example.org/open?a=1&b=2"),
            .init(20, "Interview"),
            .init(40, "Listener mail", link: "file:///etc/passwd"),
        ], pictures: [.init(0, jpeg, format: "jpeg"), .init(40, jpeg + Data([0]), format: "jpeg")], seconds: 60)
        let file = directory.url.appendingPathComponent("enhanced.m4a")
        try writer.rewrite(try Data(contentsOf: sound)).write(to: file)

        let chapters = MP4Chapters.read(contentsOf: file)
        #expect(chapters.map(\.title) == ["Cold open", "Interview", "Listener mail"])
        #expect(chapters.map(\.url?.absoluteString) == ["https://example.org/open?a=1&b=2", nil, nil])
        // The first picture lasts until the next one starts.
        #expect(chapters.map(\.image) == [.embedded(jpeg, mimeType: "image/jpeg"), .embedded(jpeg, mimeType: "image/jpeg"),
                                           .embedded(jpeg + Data([0]), mimeType: "image/jpeg")])

        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/enhanced.m4a", .serve(try Data(contentsOf: file), contentType: "audio/mp4"))
        let reading = await RemoteMP4Chapters(client: HTTPClient(userAgent: "Trackcast-tests"))
            .read(try #require(URL(string: server.url("/enhanced.m4a"))))
        #expect(reading.chapters == chapters)
        print("enhanced.m4a: \(reading.bytesFetched) of \(try Data(contentsOf: file).count) bytes in \(reading.requests) requests")

        // PNG pictures are read as PNG; a picture over the limit is left out, not cut.
        let pngWriter = EnhancedPodcastWriter(chapters: [.init(0, "One"), .init(30, "Two")],
                                              pictures: [.init(0, png, format: "png "),
                                                         .init(30, Data(count: MP4Chapters.pictureLimit + 1), format: "png ")],
                                              seconds: 60)
        let pngChapters = MP4Chapters.read(try pngWriter.rewrite(try Data(contentsOf: sound)))
        #expect(pngChapters.map(\.image) == [.embedded(png, mimeType: "image/png"), .embedded(png, mimeType: "image/png")])
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
