import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Chapters")
struct ChapterTests {
    static let chaptersFile = Data("""
        {"version": "1.2.0", "chapters": [
          {"startTime": 0, "title": "Intro", "img": "art/intro.jpg"},
          {"startTime": 65.5, "title": "News", "url": "https://example.org/news"},
          {"startTime": 90, "title": "Ad marker", "toc": false, "img": "https://example.org/ad.png"},
          {"startTime": "120", "title": "Interview"},
          {"title": "No start, skipped"}
        ]}
        """.utf8)

    @Test("a Podcasting 2.0 chapters file: starts, titles, links and images; toc:false kept but not listed")
    func podcastChaptersFile() throws {
        let base = URL(string: "https://cdn.example.org/show/ep1/chapters.json")!
        let list = ChapterList(try PodcastChaptersFile.parse(Self.chaptersFile, relativeTo: base))
        #expect(list.chapters.map(\.start) == [0, 65.5, 90, 120])
        #expect(list.chapters[0].image == .remote(URL(string: "https://cdn.example.org/show/ep1/art/intro.jpg")!))
        #expect(list.chapters[1].url?.absoluteString == "https://example.org/news")
        #expect(list.listed.map(\.title) == ["Intro", "News", "Interview"])
        #expect(list.chapters.allSatisfy { $0.source == .chaptersFile })
        #expect(throws: PodcastChaptersFile.ParseError.notJSON) { try PodcastChaptersFile.parse(Data("<html>".utf8)) }
        #expect(throws: PodcastChaptersFile.ParseError.noChapters) { try PodcastChaptersFile.parse(Data("{}".utf8)) }
    }

    @Test("the current chapter is the last one started; next, previous and where it ends")
    func playHead() throws {
        let list = ChapterList(try PodcastChaptersFile.parse(Self.chaptersFile))
        #expect(list.chapter(at: 0)?.title == "Intro")
        #expect(list.chapter(at: 65.4)?.title == "Intro")
        #expect(list.chapter(at: 65.5)?.title == "News")
        // A hidden chapter still marks a place (its image shows from there).
        #expect(list.chapter(at: 100)?.title == "Ad marker")
        #expect(list.chapter(at: 5000)?.title == "Interview")
        #expect(list.end(ofChapterAt: 70) == 90)
        #expect(list.end(ofChapterAt: 130) == nil)
        #expect(list.nextStart(after: 10) == 65.5)
        #expect(list.nextStart(after: 70) == 120, "next skips the unlisted chapter")
        #expect(list.nextStart(after: 125) == nil)
        #expect(list.previousStart(before: 80) == 65.5, "well into a chapter: back to its start")
        #expect(list.previousStart(before: 66) == 0, "just after a start: the chapter before")
        #expect(ChapterList([]).chapter(at: 10) == nil)
    }

    @Test("sources merge by priority: the chapters file over the feed over the file, details lent within a second")
    func merging() {
        let picture = ChapterImage.embedded(Data([0x89, 0x50, 0x4E, 0x47]), mimeType: "image/png")
        let embedded = [Chapter(start: 0, title: "Chapter 1", image: picture, source: .embedded),
                        Chapter(start: 30.2, title: "Chapter 2", url: URL(string: "https://example.org/2"), source: .embedded)]
        let feed = [Chapter(start: 0, title: "Welcome", source: .feed), Chapter(start: 30, title: "", source: .feed)]
        let merged = ChapterList.merged([embedded, feed])
        #expect(merged.chapters.map(\.title) == ["Welcome", "Chapter 2"])
        #expect(merged.chapters.map(\.source) == [.feed, .feed])
        #expect(merged.chapters[1].url?.absoluteString == "https://example.org/2")
        #expect(merged.chapters.map(\.image) == [picture, nil])
        #expect(ChapterList.merged([embedded, []]).chapters.map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(ChapterList.merged([[], []]).isEmpty)
    }

    @Test("ID3v2.3 and v2.4 CHAP frames at the start of an MP3 written here", arguments: [UInt8(3), 4])
    func id3Chapters(version: UInt8) async throws {
        let directory = try TemporaryDirectory()
        let audio = directory.url.appendingPathComponent("body.mp3")
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=100", "!", "audioconvert", "!", "lamemp3enc", "!",
            "filesink", "location=\(audio.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "\(made.standardError)")
        let tag = ID3TagWriter(version: version, chapters: [
            (0, 1200, "Opening", nil), (1200, 2000, "Zwischenspiel – Teil 2", "https://example.org/2"),
        ])
        let file = directory.url.appendingPathComponent("chapters.mp3")
        try (tag.data() + Data(contentsOf: audio)).write(to: file)

        let handle = try FileHandle(forReadingFrom: file)
        let header = try handle.read(upToCount: ID3Chapters.headerLength) ?? Data()
        let length = try #require(ID3Chapters.tagLength(header: header))
        try handle.seek(toOffset: 0)
        let chapters = ID3Chapters.read(try handle.read(upToCount: length) ?? Data())
        #expect(chapters.map(\.start) == [0, 1.2])
        #expect(chapters.map(\.title) == ["Opening", "Zwischenspiel – Teil 2"])
        #expect(chapters[1].url?.absoluteString == "https://example.org/2")
        #expect(ID3Chapters.read(try Data(contentsOf: audio)).isEmpty)
        // A tag cut short ends the reading instead of crashing.
        #expect(ID3Chapters.read(tag.data().prefix(40)).count < 2)
    }

    @Test("CHAP frames handed on one at a time, as id3demux does, read as the whole tag does: v2.3 and v2.4, long ones too",
          arguments: [UInt8(3), 4])
    func id3FramesOneByOne(version: UInt8) throws {
        func frame(_ id: String, _ body: Data) -> Data { ID3TagWriter.frame(id, body, version: version) }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) + Data(repeating: 7, count: 300)
        let tag = ID3TagWriter(version: version, subframes: [
            (0, 1000, frame("TIT2", ID3TagWriter.title(String(repeating: "Lang ", count: 60)))
                + frame("APIC", ID3TagWriter.picture(jpeg, mimeType: "image/jpeg"))),
            (1000, 2000, frame("TIT2", ID3TagWriter.title("Short"))),
        ]).data()
        let bytes = [UInt8](tag)
        let whole = try #require(ID3Chapters.tagLength(header: tag))
        // The frames as id3demux hands them on: each whole, CTOC too.
        let frames = ID3Chapters.frames(bytes, from: ID3Chapters.headerLength, to: whole, version: version)
            .map { Array(bytes[$0.body.lowerBound - 10..<$0.body.upperBound]) }
        #expect(frames.count == 3)
        let chapters = ID3Chapters.read(frames: frames)
        #expect(chapters.map(\.title) == [String(repeating: "Lang ", count: 60).trimmingCharacters(in: .whitespaces), "Short"])
        #expect(chapters == ID3Chapters.read(tag))
        #expect(chapters.first?.image == .embedded(jpeg, mimeType: "image/jpeg"))
        // A frame whose size counts neither way is not read.
        #expect(ID3Chapters.read(frames: frames.map { Array($0.dropLast()) }).isEmpty)
    }

    @Test("ID3 CHAP sub-frames: WXXX links (web only) and APIC pictures kept; ones cut short cost nothing else",
          arguments: [UInt8(3), 4])
    func id3LinksAndPictures(version: UInt8) throws {
        func frame(_ id: String, _ body: Data) -> Data { ID3TagWriter.frame(id, body, version: version) }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) + Data(repeating: 0, count: 10)
        let tag = ID3TagWriter(version: version, subframes: [
            (0, 1000, frame("TIT2", ID3TagWriter.title("Cover"))
                + frame("WXXX", ID3TagWriter.link("https://example.org/notes", description: "Notizen"))
                + frame("APIC", ID3TagWriter.picture(jpeg, mimeType: "image/jpeg", description: "Kapitel 1"))),
            (1000, 2000, frame("WXXX", ID3TagWriter.link("javascript:alert(1)"))
                + frame("APIC", ID3TagWriter.picture(Data("file:///etc/passwd".utf8), mimeType: "-->"))
                + frame("TIT2", ID3TagWriter.title("Script"))),
            (2000, 3000, frame("WXXX", ID3TagWriter.link("file:///home/someone/notes.html"))
                + frame("APIC", ID3TagWriter.picture(Data("https://example.org/3.png".utf8), mimeType: "-->"))
                + frame("TIT2", ID3TagWriter.title("Local"))),
            // Bodies cut short ahead of the title: the title still reads.
            (3000, 4000, frame("APIC", ID3TagWriter.picture(jpeg, mimeType: "image/jpeg").prefix(6))
                + frame("APIC", ID3TagWriter.picture(Data(), mimeType: "image/png", description: "leer"))
                + frame("WXXX", ID3TagWriter.link("https://example.org/4", description: "x").prefix(4))
                + frame("TIT2", ID3TagWriter.title("Cut short"))),
            // A sub-frame claiming more than its chapter holds ends the sub-frames.
            (4000, 5000, frame("TIT2", ID3TagWriter.title("Overrun"))
                + frame("APIC", ID3TagWriter.picture(jpeg, mimeType: "image/jpeg")).prefix(20)),
        ])
        let data = tag.data()
        let chapters = ID3Chapters.read(data)
        #expect(chapters.map(\.start) == [0, 1, 2, 3, 4])
        #expect(chapters.map(\.title) == ["Cover", "Script", "Local", "Cut short", "Overrun"])
        #expect(chapters.map(\.url?.absoluteString) == ["https://example.org/notes", nil, nil, nil, nil])
        #expect(chapters.map(\.image) == [.embedded(jpeg, mimeType: "image/jpeg"), nil,
                                          .remote(URL(string: "https://example.org/3.png")!), nil, nil])
        // Every cut of the tag reads without a crash.
        for length in 0...data.count { _ = ID3Chapters.read(data.prefix(length)) }
    }

    @Test("a chapters file is fetched over HTTP once, then read from the cache; a 404 is an error")
    func fetchAndCache() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/ep1/chapters.json", .document(Self.chaptersFile, contentType: "application/json+chapters"))
        server.route("/missing.json", .status(404))
        let directory = try TemporaryDirectory()
        let fetcher = ChapterFetcher(client: HTTPClient(userAgent: "test"), cacheDirectory: directory.url)
        let url = try #require(URL(string: server.url("/ep1/chapters.json")))
        let first = try await fetcher.chapters(at: url, for: EpisodeID(rawValue: 7))
        #expect(first.count == 4)
        #expect(first[0].image == .remote(URL(string: server.url("/ep1/art/intro.jpg"))!))
        let again = try await fetcher.chapters(at: url, for: EpisodeID(rawValue: 7))
        #expect(again == first)
        #expect(server.log(for: "/ep1/chapters.json").count == 1)
        await #expect(throws: ChapterFetcher.FetchError.status(404)) {
            try await fetcher.chapters(at: URL(string: server.url("/missing.json"))!, for: EpisodeID(rawValue: 8))
        }
    }
}
