import Foundation
import TestSupport
import Testing
import TrackcastLibrary

/// Resume positions, the queue and the sleep timer through the running app.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// A minute of Opus, long enough to be killed in the middle of.
    static func minuteOfAudio() async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-minute-\(UUID()).opus")
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=600", "samplesperbuffer=4800", "wave=sine", "!",
            "audio/x-raw,rate=48000,channels=1", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
            "filesink", "location=\(file.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "gst-launch failed: \(made.standardError)")
        return file
    }

    @Test("SIGKILL while playing: the next start resumes within the flush interval of where it was")
    func resumesAfterKill() async throws {
        let library = RunningApp.temporaryLibrary()
        let media = try await Self.minuteOfAudio()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let first = try await RunningApp.launch(library: library, arguments: [media.path])
        let played = await first.waitFor(timeout: .seconds(40)) { $0.positions().contains { $0 >= 12 } }
        let killedAt = first.positions().last ?? 0
        kill(first.pid, SIGKILL)
        _ = await first.finish(timeout: .seconds(10))
        try #require(played, "the file did not play: \(first.standardOutput) \(first.standardError)")

        let second = try await RunningApp.launch(library: library, arguments: [media.path])
        let resumed = await second.waitFor(timeout: .seconds(30)) { !$0.positions().isEmpty }
        let start = second.positions().first ?? 0
        _ = try await second.quit()
        try #require(resumed, "the file did not play again: \(second.standardOutput) \(second.standardError)")
        print("killed at \(killedAt) s, resumed at \(start) s")
        // Flushed every 5 s from positions recorded every second; the first
        // tick after resuming may be half a second on.
        #expect(start >= killedAt - 7 && start <= killedAt + 1.5, "killed at \(killedAt) s, resumed at \(start) s")
    }

    @Test("the queue is edited through actions, advances at the end of an episode, and is kept in the library")
    func queueAdvancesAndPersists() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            // Episode 1 is "Welcome", episode 2 "Tips".
            try await app.activate("queue-last", "[<int64 2>]")
            try #require(await app.waitForLine("queue: 1 episodes"))
            var mark = app.standardOutput.endIndex
            try await app.activate("queue-last", "[<int64 1>]")
            try #require(await app.waitForLine("queue: 2 episodes", after: mark))
            mark = app.standardOutput.endIndex
            try await app.activate("queue-move", "[<(int64 1, 0)>]")
            try #require(await app.waitForLine("up next: 2 episodes", after: mark), "\(app.standardOutput[mark...])")
            #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1, 2])
            mark = app.standardOutput.endIndex
            try await app.activate("queue-remove", "[<int64 1>]")
            try #require(await app.waitForLine("queue: 1 episodes", after: mark))

            // Welcome plays to its end; Tips follows and leaves the queue.
            mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: mark))
            let started = mark
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !$0.positions(after: started).isEmpty
            })
            try await app.activate("seek-to", "[<10000.0>]")
            let advanced = await app.waitForLine("next in the queue: episode 2", after: mark, timeout: .seconds(30))
            try #require(advanced, "the queue did not advance: \(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sample/tips.opus", after: mark))
            #expect(await app.waitForLine("queue: 0 episodes", after: mark))
            #expect(await app.waitForLine("finished episode(", after: mark))

            try await app.activate("queue-next", "[<int64 1>]")
            #expect(await app.waitForLine("queue: 1 episodes", after: mark))
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [1])
    }

    @Test("the feed's chapters are followed by the play head; the end-of-chapter sleep timer pauses at the boundary")
    func chaptersAndSleepTimer() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            // "Welcome to Trackcast": chapters "Welcome" at 0 s and "Keys to try" at 11 s.
            var mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("chapters: 2", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitForLine("chapter: Welcome", after: mark))
            try await app.activate("sleep-timer", "[<'end-of-chapter'>]")
            try #require(await app.waitForLine("sleep timer: endOfChapter", after: mark))
            let paused = await app.waitForLine("sleep timer: paused at", after: mark, timeout: .seconds(40))
            try #require(paused, "the timer never paused: \(app.standardOutput[mark...])")
            try #require(await app.waitForLine("playback: paused", after: mark))
            let pausedAt = try #require(RunningApp.loggedValues("paused at ", in: app.standardOutput[mark...]).last)
            print("end-of-chapter sleep timer paused at \(pausedAt) s (chapter ends at 11 s)")
            #expect(abs(pausedAt - 11) <= 0.5, "paused at \(pausedAt) s, the chapter ends at 11 s")
            // The pause wrote where it stopped to the library at once, not at the next 5 s flush.
            let saved = await Self.savedPosition(library, .episode(EpisodeID(rawValue: 1))) { abs($0 - pausedAt) < 0.02 }
            #expect(saved.map { abs($0 - pausedAt) < 0.02 } == true, "saved \(saved ?? -1) s, paused at \(pausedAt) s")

            // The chapter under the play head is the last one announced.
            func inChapter(_ title: String) async -> Bool {
                await app.waitFor(timeout: .seconds(20)) {
                    $0.standardOutput.split(separator: "\n").last { $0.contains("chapter: ") }?.hasSuffix("chapter: \(title)") == true
                }
            }
            try await app.activate("seek-to", "[<5.0>]")
            #expect(await inChapter("Welcome"))
            try await app.activate("next-chapter")
            #expect(await inChapter("Keys to try"))
            // Just after a chapter's start, "previous" goes to the one before.
            try await app.activate("previous-chapter")
            #expect(await inChapter("Welcome"))
            mark = app.standardOutput.endIndex
            try await app.activate("next-chapter")
            try await app.activate("play-pause")
            #expect(await app.waitForLine("playback: ended", after: mark, timeout: .seconds(30)))
            // Entering a chapter is announced once, however many ticks follow.
            #expect(app.standardOutput[mark...].components(separatedBy: "chapter: Keys to try").count == 2,
                    "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    /// The chapter last announced: the one under the play head.
    fileprivate static func currentChapter(_ output: String) -> String? {
        output.split(separator: "\n").last { $0.contains("chapter: ") }
            .flatMap { line in line.range(of: "chapter: ").map { String(line[$0.upperBound...]) } }
    }

    @Test("a Podcasting 2.0 chapters file served on loopback wins over the feed's Podlove chapters, which lend it a title; toc:false chapters are passed over by next; the file is fetched once")
    func chaptersFileOverLoopback() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-episode-\(UUID()).opus")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=80", "samplesperbuffer=4800", "!", "audio/x-raw,rate=48000,channels=1", "!",
            "audioconvert", "!", "opusenc", "!", "oggmux", "!", "filesink", "location=\(media.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "gst-launch failed: \(made.standardError)")
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/episode.opus", .serve(try Data(contentsOf: media), contentType: "audio/ogg"))
        server.route("/episode/chapters.json", .document(Data("""
            {"version": "1.2.0", "chapters": [
              {"startTime": 0, "title": "Intro", "img": "intro.png"},
              {"startTime": 2, "title": "Sponsor", "toc": false},
              {"startTime": 4, "title": "Interview", "url": "https://example.org/guest"},
              {"startTime": 6}
            ]}
            """.utf8), contentType: "application/json+chapters"))
        server.route("/feed.xml", .document(Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:psc="http://podlove.org/simple-chapters">
            <channel><title>Chaptered</title><link>https://example.org</link><description>d</description>
            <item><title>One</title><guid>one</guid><pubDate>Mon, 02 Jan 2023 10:00:00 GMT</pubDate>
            <enclosure url="\(server.url("/episode.opus"))" type="audio/ogg" length="1000"/>
            <podcast:chapters url="\(server.url("/episode/chapters.json"))" type="application/json+chapters"/>
            <psc:chapters version="1.2"><psc:chapter start="00:00:00" title="Hello"/><psc:chapter start="00:00:06" title="Goodbye"/></psc:chapters>
            </item></channel></rss>
            """.utf8), contentType: "application/rss+xml"))
        let subscribed = try await ChildProcess.run(trackcast, arguments: ["--library", library.path, "subscribe", server.url("/feed.xml")])
        try #require(subscribed.status == 0, "\(subscribed.standardError)")

        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            var mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("chapters: 4 (3 listed)", after: mark, timeout: .seconds(30)),
                         "\(app.standardOutput[mark...])")
            try #require(await app.waitForLine("playback: playing", after: mark))
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at", after: mark))
            // The unlisted chapter still is where the play head is; next passes over it.
            for (action, parameter, title) in [("seek-to", "[<2.5>]", "Sponsor"), ("seek-to", "[<0.5>]", "Intro"),
                                               ("next-chapter", "[]", "Interview"), ("seek-chapter", "[<2>]", "Goodbye")] {
                try await app.activate(action, parameter)
                let arrived = await app.waitFor(timeout: .seconds(10)) { Self.currentChapter($0.standardOutput) == title }
                #expect(arrived, "after \(action) \(parameter) the chapter is \(Self.currentChapter(app.standardOutput) ?? "none"), not \(title)")
            }
            // Again: from the cache, not the server.
            mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            #expect(await app.waitForLine("chapters: 4 (3 listed)", after: mark, timeout: .seconds(30)))
            #expect(server.log(for: "/episode/chapters.json").count == 1)
            #expect(await app.waitForLine("search index: 3 chapters of episode 1"), "the listed chapters the file gave")
        }
        #expect(result.status == 0 && !result.timedOut)
        // "Interview" is only in the chapters file: the search finds it with its start.
        let found = try await ChildProcess.run(trackcast, arguments: ["--library", library.path, "search", "interview"])
        #expect(found.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").prefix(5).joined(separator: " ") }
                == ["1 Chaptered One chapter 4"], "\(found.standardOutput)")
    }

    @Test("a file's own chapters in each container: the list, the chapter under the play head after seeks, each entered once as it plays",
          arguments: ChapteredMedia.Container.allCases)
    func chaptersInEachContainer(container: ChapteredMedia.Container) async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-chapters-\(UUID()).\(container)")
        try await ChapteredMedia.write(container, seconds: 7, chapters: [.init(0, "Opening"), .init(2, "Middle part"),
                                                                          .init(4.5, "Ende – Schluss")], to: media)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            for (position, title) in [(3.0, "Middle part"), (0.5, "Opening"), (5.0, "Ende – Schluss"), (2.1, "Middle part")] {
                try await app.activate("seek-to", "[<\(position)>]")
                let arrived = await app.waitFor(timeout: .seconds(10)) { Self.currentChapter($0.standardOutput) == title }
                #expect(arrived, "at \(position) s the chapter is \(Self.currentChapter(app.standardOutput) ?? "none"), not \(title)")
            }
            try await app.activate("seek-to", "[<1.0>]")
            try #require(await app.waitFor(timeout: .seconds(10)) { Self.currentChapter($0.standardOutput) == "Opening" })
            let mark = app.standardOutput.endIndex
            try await app.activate("play-pause")
            try #require(await app.waitForLine("playback: ended", after: mark, timeout: .seconds(30)),
                         "\(app.standardOutput[mark...])")
            let played = app.standardOutput[mark...]
            #expect(played.components(separatedBy: "chapter: Middle part").count == 2, "\(played)")
            #expect(played.components(separatedBy: "chapter: Ende – Schluss").count == 2, "\(played)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("an MP3 (ID3 CHAP) or M4A (chapter track, moov last) streamed over HTTP shows its own chapters, and next-chapter lands at the second one's start",
          arguments: [ChapteredMedia.Container.mp3, .m4a])
    func streamedChapters(container: ChapteredMedia.Container) async throws {
        let library = RunningApp.temporaryLibrary()
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-chapters-\(UUID()).\(container)")
        try await ChapteredMedia.write(container, seconds: 7, chapters: [.init(0, "Opening"), .init(2, "Middle part"),
                                                                          .init(4.5, "Ende – Schluss")], to: media)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let path = "/episode.\(container)"
        server.route(path, .serve(try Data(contentsOf: media), contentType: container == .mp3 ? "audio/mpeg" : "audio/mp4"))
        let app = try await RunningApp.launch(library: library, arguments: [server.url(path)])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            try await app.activate("next-chapter")
            let arrived = await app.waitFor(timeout: .seconds(10)) { Self.currentChapter($0.standardOutput) == "Middle part" }
            #expect(arrived, "the chapter is \(Self.currentChapter(app.standardOutput) ?? "none")")
            // Where it stands, as the desktop reads it: MPRIS Position, in microseconds.
            let position = try await app.mprisPlayerProperty("Position")
            let microseconds = position.split { !$0.isNumber }.compactMap { Int($0) }.last { $0 > 64 }
            #expect(microseconds.map { abs($0 - 2_000_000) < 300_000 } == true, "MPRIS Position: \(position)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    /// A 2×2 PNG.
    static let png = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==")!

    /// A 7 s MP3 in three chapters: "Plain" without a picture, "Carried" with
    /// `png` in its tag and a web link, "Linked" with a picture at `linkedPicture`.
    static func picturedEpisode(in folder: URL, linkedPicture: String) async throws -> URL {
        let plain = folder.appendingPathComponent("plain.mp3")
        try await ChapteredMedia.write(.mp3, seconds: 7, chapters: [], to: plain)
        let plainBytes = try Data(contentsOf: plain)
        let sound = plainBytes.dropFirst(try #require(ID3Chapters.tagLength(header: plainBytes)))
        func frame(_ id: String, _ body: Data) -> Data { ID3TagWriter.frame(id, body, version: 4) }
        let tag = ID3TagWriter(version: 4, subframes: [
            (0, 2000, frame("TIT2", ID3TagWriter.title("Plain"))),
            (2000, 4500, frame("TIT2", ID3TagWriter.title("Carried"))
                + frame("WXXX", ID3TagWriter.link("https://example.org/carried"))
                + frame("APIC", ID3TagWriter.picture(png, mimeType: "image/png"))),
            (4500, 7000, frame("TIT2", ID3TagWriter.title("Linked"))
                + frame("APIC", ID3TagWriter.picture(Data(linkedPicture.utf8), mimeType: "-->"))),
        ]).data()
        let media = folder.appendingPathComponent("pictures.mp3")
        try (tag + sound).write(to: media)
        return media
    }

    @Test("on the playing episode's page the chapter list shows chapter pictures, and the current chapter's is the artwork")
    func chapterPicturesOnTheEpisodePage() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pictures-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let library = RunningApp.temporaryLibrary()
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: scratch)
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/art.png", .serve(Self.png, contentType: "image/png"))
        let media = try Data(contentsOf: try await Self.picturedEpisode(in: scratch, linkedPicture: server.url("/art.png")))
        server.route("/episode.mp3", .serve(media, contentType: "audio/mpeg"))
        server.route("/feed", .serve(Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Pictures</title>
              <item><title>In chapters</title><guid>one</guid>
                <enclosure url="/episode.mp3" type="audio/mpeg" length="\(media.count)"/></item>
            </channel></rss>
            """.utf8), contentType: "application/rss+xml"))

        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitForLine("show page: 1 episodes", timeout: .seconds(20)), "\(app.standardOutput)")
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            try await app.activate("open-episode", "[<int64 1>]")
            try #require(await app.waitForLine("episode page: 3 chapters, 1 linked, 2 with pictures"), "\(app.standardOutput)")
            try await app.activate("episode-section", "[<'chapters'>]")
            let thumbnails = await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput.components(separatedBy: "episode page: chapter picture ").count == 3
            }
            #expect(thumbnails, "\(app.standardOutput.split(separator: "\n").filter { $0.contains("episode page") })")
            let mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<3.0>]")
            let artwork = await app.waitFor(timeout: .seconds(20)) { app in
                app.standardOutput[mark...].split(separator: "\n").contains { $0.contains("episode page: artwork") && $0.hasSuffix(".png") }
            }
            #expect(artwork, "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a chapter's picture, carried in the tag or linked, is the artwork while it plays, in MPRIS too; a chapter without brings none back; its web link opens in the browser")
    func chapterArtwork() async throws {
        let library = RunningApp.temporaryLibrary()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pictures-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: scratch)
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/art.png", .serve(Self.png, contentType: "image/png"))
        let media = try await Self.picturedEpisode(in: scratch, linkedPicture: server.url("/art.png"))
        let png = Self.png
        let browser = try TestBrowser(in: scratch)
        let app = try await RunningApp.launch(library: library, arguments: [media.path], environment: browser.environment)
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            func artwork(_ matches: @escaping (URL?) -> Bool) async -> URL?? { await Self.mprisArtwork(of: app, matching: matches) }
            try await app.activate("seek-to", "[<3.0>]")
            let carried = try #require(await artwork { url in url?.path.contains("/chapter-art/") ?? false } ?? nil,
                                       "the carried picture never became the artwork")
            #expect(try Data(contentsOf: carried) == png)
            // Its web link opens in the desktop's browser, as the chapter menu's item does.
            try await app.activate("open-chapter-link")
            let launched = await app.waitFor(timeout: .seconds(20)) { _ in browser.opened.contains("https://example.org/carried") }
            #expect(launched, "the browser was asked for \(browser.opened)")
            try await app.activate("seek-to", "[<5.0>]")
            let linked = try #require(await artwork { url in url != nil && url != carried } ?? nil,
                                      "the linked picture never became the artwork")
            #expect(linked.isFileURL && (try? Data(contentsOf: linked)) == png, "\(linked)")
            #expect(server.log(for: "/art.png").count == 1)
            try await app.activate("seek-to", "[<0.5>]")
            let cleared = await artwork { url in url == nil } != nil
            let kept = (try? await Self.mprisArtURL(of: app)) ?? nil
            #expect(cleared, "a chapter without a picture kept \(kept?.path ?? "")")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("picture-in-picture for audio shows the artwork and follows the chapters' pictures")
    func audioPictureInPicture() async throws {
        let library = RunningApp.temporaryLibrary()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pip-audio-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: scratch)
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/art.png", .serve(Self.png, contentType: "image/png"))
        let media = try await Self.picturedEpisode(in: scratch, linkedPicture: server.url("/art.png"))
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            var mark = app.standardOutput.endIndex
            try await app.activate("pip")
            try #require(await app.waitForLine("pip: shown", after: mark), "\(app.standardOutput[mark...])")
            // The first chapter has no picture and a file has no episode artwork: the icon.
            #expect(await app.waitForLine("pip: artwork none", after: mark), "\(app.standardOutput[mark...])")
            mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<3.0>]")
            #expect(await app.waitForLine("pip: artwork shown", after: mark), "\(app.standardOutput[mark...])")
            mark = app.standardOutput.endIndex
            try await app.activate("seek-to", "[<0.5>]")
            #expect(await app.waitForLine("pip: artwork none", after: mark), "\(app.standardOutput[mark...])")
            // Playing on keeps it open; P closes it.
            mark = app.standardOutput.endIndex
            try await app.activate("play-pause")
            try #require(await app.waitForLine("playback: playing", after: mark))
            #expect(!app.standardOutput[mark...].contains("pip: closed"))
            try await app.activate("pip")
            #expect(await app.waitForLine("pip: closed", after: mark), "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("an enhanced podcast M4A streamed over HTTP: its chapter pictures are the artwork in MPRIS, and a chapter's link opens in the browser")
    func streamedEnhancedPodcast() async throws {
        let library = RunningApp.temporaryLibrary()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-enhanced-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: scratch)
        }
        let sound = scratch.appendingPathComponent("sound.m4a")
        try await ChapteredMedia.writeAACTone(seconds: 7, to: sound)
        let opening = try await ChapteredMedia.testPicture(encoder: "jpegenc", in: scratch)
        // A byte after the end of the image makes a second picture that decodes the same.
        let jpeg = opening + Data([0])
        let media = try EnhancedPodcastWriter(chapters: [.init(0, "Opening"), .init(2, "Pictured", link: "https://example.org/pictured"),
                                                         .init(4.5, "Plain")],
                                              pictures: [.init(0, opening, format: "jpeg"), .init(2, jpeg, format: "jpeg")],
                                              seconds: 7)
            .rewrite(try Data(contentsOf: sound))
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/enhanced.m4a", .serve(media, contentType: "audio/mp4"))
        let browser = try TestBrowser(in: scratch)
        let app = try await RunningApp.launch(library: library, arguments: [server.url("/enhanced.m4a")],
                                              environment: browser.environment)
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("chapters: 3"), "\(app.standardOutput)")
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("play-pause")
            try #require(await app.waitForLine("paused at"))
            try await app.activate("seek-to", "[<3.0>]")
            let pictured = await Self.mprisArtwork(of: app) { url in url.flatMap { try? Data(contentsOf: $0) } == jpeg } != nil
            let shown = try? await Self.mprisArtURL(of: app)
            #expect(pictured, "the artwork is \(String(describing: shown))")
            try await app.activate("open-chapter-link")
            let launched = await app.waitFor(timeout: .seconds(20)) { _ in browser.opened.contains("https://example.org/pictured") }
            #expect(launched, "the browser was asked for \(browser.opened)")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    /// MPRIS `mpris:artUrl`, as the desktop reads it.
    static func mprisArtURL(of app: RunningApp) async throws -> URL? {
        let metadata = try await app.mprisPlayerProperty("Metadata")
        guard let start = metadata.range(of: "'mpris:artUrl': <'") else { return nil }
        return URL(string: String(metadata[start.upperBound...].prefix { $0 != "'" }))
    }

    /// The artwork once `matches` holds for it (`nil` meaning none), within 10 s.
    static func mprisArtwork(of app: RunningApp, matching matches: @escaping (URL?) -> Bool) async -> URL?? {
        for _ in 0..<100 {
            if let url = try? await mprisArtURL(of: app), matches(url) { return .some(url) }
            if matches(nil), (try? await mprisArtURL(of: app)) == nil { return .some(nil) }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// The library's resume position for `key` once `condition` holds for it, or as it is after 10 s.
    static func savedPosition(_ library: URL, _ key: ResumeKey,
                                          until condition: (Double) -> Bool) async -> Double? {
        var position: Double?
        for _ in 0..<50 {
            position = try? await LibraryStore(directory: library).position(for: key)?.position
            if let position, condition(position) { break }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return position
    }

    /// The sleep timer's fade levels announced in `output`, a tenth at a time.
    fileprivate static func fadeLevels(_ output: Substring) -> [Double] {
        output.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "sleep timer: fade ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != " " })
        }
    }

    @Test("the end-of-episode sleep timer fades the last 10 s under the listener's volume, stops instead of going on with the queue and brings the sound back; cancelling ends a fade")
    func sleepTimerEndOfEpisode() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.activate("try-sample-show")
            try #require(await app.waitForLine("show page: 3 episodes"), "\(app.standardOutput)")
            try await app.activate("queue-last", "[<int64 2>]")
            try #require(await app.waitForLine("queue: 1 episodes"))
            let mark = app.standardOutput.endIndex
            // "Welcome" is 16 s long: the fade begins 6 s in.
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: mark))
            try await app.activate("sleep-timer", "[<'end-of-episode'>]")
            try #require(await app.waitForLine("sleep timer: endOfEpisode", after: mark))
            try #require(await app.waitForLine("sleep timer: fade 0.", after: mark, timeout: .seconds(30)), "\(app.standardOutput[mark...])")
            #expect(try await app.mprisPlayerProperty("Volume").contains("<1.0>"), "the fade moved the listener's volume")

            let cancelled = app.standardOutput.endIndex
            try await app.activate("sleep-timer", "[<'off'>]")
            #expect(await app.waitForLine("sleep timer: off", after: cancelled))
            #expect(await app.waitForLine("sleep timer: fade 1.0", after: cancelled))

            let again = app.standardOutput.endIndex
            try await app.activate("sleep-timer", "[<'end-of-episode'>]")
            let stopped = await app.waitForLine("sleep timer: stopped at the end of the episode", after: again, timeout: .seconds(30))
            try #require(stopped, "\(app.standardOutput[again...])")
            #expect(await app.waitForLine("playback: ended", after: again))
            let fading = app.standardOutput[again...]
            let stopLine = try #require(fading.range(of: "sleep timer: stopped at the end of the episode"))
            let levels = Self.fadeLevels(fading[..<stopLine.lowerBound])
            #expect(!levels.isEmpty && zip(levels, levels.dropFirst()).allSatisfy { $0 >= $1 }, "fade levels \(levels)")
            #expect((levels.last ?? 1) <= 0.1, "fade levels \(levels)")
            #expect(await app.waitForLine("sleep timer: fade 1.0", after: stopLine.upperBound), "the sound did not come back")
            // The queue stays where it was: nothing more plays.
            try await Task.sleep(for: .seconds(2))
            #expect(!app.standardOutput[mark...].contains("next in the queue"), "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).queue().map(\.id.rawValue) == [2])
    }

    @Test("a minutes sleep timer is extended and cancelled; set again, it fades, pauses a minute of media later and saves the position")
    func sleepTimerMinutes() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-long-\(UUID()).opus")
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=1000", "samplesperbuffer=4800", "wave=sine", "!",
            "audio/x-raw,rate=48000,channels=1", "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!",
            "filesink", "location=\(media.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "gst-launch failed: \(made.standardError)")
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("playback: playing"), "\(app.standardOutput)")
            try await app.activate("sleep-timer", "[<'1'>]")
            try #require(await app.waitForLine("sleep timer: minutes(1)"))
            try await app.activate("sleep-timer-extend")
            #expect(await app.waitForLine("sleep timer: extended by 5 min"))
            try await app.activate("sleep-timer", "[<'off'>]")
            #expect(await app.waitForLine("sleep timer: off"))

            let mark = app.standardOutput.endIndex
            let startedAt = RunningApp.loggedValues("position: ", in: app.standardOutput).last ?? 0
            try await app.activate("sleep-timer", "[<'1'>]")
            let paused = await app.waitForLine("sleep timer: paused at", after: mark, timeout: .seconds(90))
            try #require(paused, "the timer never paused: \(app.standardOutput[mark...].suffix(3000))")
            #expect(await app.waitForLine("playback: paused", after: mark))
            let pausedAt = try #require(RunningApp.loggedValues("paused at ", in: app.standardOutput[mark...]).last)
            print("minutes sleep timer: set at \(startedAt) s of media, paused at \(pausedAt) s")
            // A minute of media, give or take the ticks and a busy machine.
            #expect(pausedAt - startedAt > 55 && pausedAt - startedAt < 65, "set at \(startedAt) s, paused at \(pausedAt) s")
            let output = app.standardOutput[mark...]
            let pauseLine = try #require(output.range(of: "sleep timer: paused at"))
            let levels = Self.fadeLevels(output[..<pauseLine.lowerBound])
            #expect(levels.count >= 5 && zip(levels, levels.dropFirst()).allSatisfy { $0 >= $1 }, "fade levels \(levels)")
            #expect(await app.waitForLine("sleep timer: fade 1.0", after: pauseLine.upperBound), "the sound did not come back")
            let saved = await Self.savedPosition(library, .uri(media)) { abs($0 - pausedAt) < 0.02 }
            #expect(saved.map { abs($0 - pausedAt) < 0.02 } == true, "saved \(saved ?? -1) s, paused at \(pausedAt) s")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a show's own speed and intro and outro skips apply to its episodes; a speed chosen while it plays is remembered")
    func perShowSettings() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            try await app.activate("show-speed", "[<(int64 1, 1.5)>]")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 0.0 s"))
            try await app.activate("show-skip", "[<(int64 1, 3.0, 4.0)>]")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 3.0 s, outro 4.0 s"))

            // "Tips" (13 s) starts after its 3 s intro at 1.5× and skips its last 4 s.
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 2>]")
            #expect(await app.waitForLine("speed: 1.50", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !$0.positions(after: mark).isEmpty
            })
            let first = try #require(app.positions(after: mark).first)
            #expect(first >= 3 && first < 5, "started at \(first) s")
            #expect(await app.waitForLine("skipping the outro", after: mark, timeout: .seconds(30)))
            #expect(await app.waitForLine("finished episode(episode 2)", after: mark))
            #expect(app.positions(after: mark).allSatisfy { $0 < 10.5 || $0 >= 12.9 },
                    "played into the outro: \(app.positions(after: mark))")

            // The player bar's speed, chosen while the show plays, becomes the show's.
            let again = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: again))
            try await app.activate("playback-speed", "[<2.0>]")
            #expect(await app.waitForLine("show 1 settings: speed 2.0", after: again), "\(app.standardOutput[again...])")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(try await LibraryStore(directory: library).settings(for: ShowID(rawValue: 1))?.playbackSpeed == 2)
    }

    /// Types keys into the app's window, as a person would.
    fileprivate func typeKeys(_ keys: String) async throws {
        let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
        let found = try await ChildProcess.run(xdotool, arguments: ["search", "--name", "^Trackcast$"])
        let window = try #require(found.standardOutput.split(separator: "\n").first.map(String.init),
                                  "no Trackcast window: \(found.standardError)")
        _ = try await ChildProcess.run(xdotool, arguments: ["windowfocus", "--sync", window])
        _ = try await ChildProcess.run(xdotool, arguments: ["key", "--delay", "150"] + keys.split(separator: " ").map(String.init))
    }

    @Test("the show page's settings show the show's own and change from the keyboard; its episodes start after the intro and end before the outro, and the queue goes on")
    func showSettingsFromTheShowPage() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            try await app.activate("try-sample-show")
            try #require(await app.waitForLine("show page: 3 episodes"), "\(app.standardOutput)")
            try #require(await app.waitForLine("show settings shown: own speed false 1.0, intro 0.0 s, outro 0.0 s"))
            try await app.activate("show-skip", "[<(int64 1, 15.0, 30.0)>]")
            try #require(await app.waitForLine("show 1 settings: speed default, intro 15.0 s, outro 30.0 s"))
            try await app.activate("open-show", "[<int64 1>]")
            try #require(await app.waitForLine("show settings shown: own speed false 1.0, intro 15.0 s, outro 30.0 s"),
                         "\(app.standardOutput)")

            // From the episode list back past the sort and filter menus, the
            // (selectable) description and the show's menu to its settings
            // button beside the title; open it, switch the show's own speed on.
            try await typeKeys("shift+Tab shift+Tab shift+Tab shift+Tab shift+Tab Return Tab Return")
            try #require(await app.waitForLine("show 1 settings: speed 1.0, intro 15.0 s"), "\(app.standardOutput)")
            try await typeKeys("Tab Tab ctrl+a 1 period 5 Tab")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 15.0 s"), "\(app.standardOutput)")
            try await typeKeys("Tab ctrl+a 3 Tab")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 3.0 s, outro 30.0 s"), "\(app.standardOutput)")
            try await typeKeys("Tab ctrl+a 4 Tab")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 3.0 s, outro 4.0 s"), "\(app.standardOutput)")
            // Below them, Download New Episodes.
            try await typeKeys("Return Escape")
            try #require(await app.waitForLine("show 1 settings: speed 1.5, intro 3.0 s, outro 4.0 s, auto-download on"),
                         "\(app.standardOutput)")
            let stored = try await LibraryStore(directory: library).settings(for: ShowID(rawValue: 1))
            #expect(stored == ShowSettings(playbackSpeed: 1.5, skipIntro: 3, skipOutro: 4, autoDownload: true))

            // "Tips" (13 s) with "Welcome" queued after it.
            try await app.activate("queue-last", "[<int64 1>]")
            try #require(await app.waitForLine("queue: 1 episodes"))
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 2>]")
            #expect(await app.waitForLine("speed: 1.50", after: mark), "\(app.standardOutput[mark...])")
            try #require(await app.waitFor(timeout: .seconds(20)) {
                !RunningApp.loggedValues("position: ", in: String($0.standardOutput[mark...])).isEmpty
            })
            let first = try #require(RunningApp.loggedValues("position: ", in: String(app.standardOutput[mark...])).first)
            #expect(first >= 3 && first < 5, "started at \(first) s")
            #expect(await app.waitForLine("skipping the outro", after: mark, timeout: .seconds(30)))
            #expect(await app.waitForLine("next in the queue: episode 1", after: mark), "\(app.standardOutput[mark...])")

            // A speed chosen in the player bar while the show plays is there when the settings open again.
            try await app.activate("playback-speed", "[<2.0>]")
            try #require(await app.waitForLine("show 1 settings: speed 2.0", after: mark), "\(app.standardOutput[mark...])")
            let reopened = app.standardOutput.endIndex
            try await typeKeys("Return")
            #expect(await app.waitForLine("show settings shown: own speed true 2.0, intro 3.0 s, outro 4.0 s, auto-download on",
                                      after: reopened),
                    "\(app.standardOutput[reopened...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("MPRIS: CanGoNext follows the queue, and Next plays the first queued episode")
    func mprisNext() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library)
        func canGoNext() async throws -> String { try await app.mprisPlayerProperty("CanGoNext") }
        let result = try await app.quitting { app in
            try await app.openSampleShow()
            let mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            try #require(await app.waitForLine("playing file://", after: mark))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await canGoNext().contains("false"))
            try await app.activate("queue-last", "[<int64 2>]")
            try #require(await app.waitForLine("queue: 1 episodes", after: mark))
            let deadline = ContinuousClock.now + .seconds(10)
            while try await !canGoNext().contains("true"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await canGoNext().contains("true"))
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.Next")
            #expect(await app.waitForLine("next in the queue: episode 2", after: mark), "\(app.standardOutput[mark...])")
            #expect(await app.waitForLine("sample/tips.opus", after: mark))
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}

extension RunningAppTests {
    @Test("Skip silence switched on from the speed menu's action while a file plays shortens its pauses; the time saved is counted")
    func skipsSilenceLive() async throws {
        let library = RunningApp.temporaryLibrary()
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-talk-\(UUID()).wav")
        try TalkLikeAudio(parts: [
            .talk(seconds: 2), .pause(seconds: 3), .talk(seconds: 1), .pause(seconds: 3), .talk(seconds: 1),
        ]).writeWAV(to: media)
        defer {
            try? FileManager.default.removeItem(at: library)
            try? FileManager.default.removeItem(at: media)
        }
        let length = 10.0 // 2 + 3 + 1 + 3 + 1 s
        // The app's own stamps time the play from start to end, not the test's polling.
        let app = try await RunningApp.launch(library: library, arguments: [media.path],
                                              environment: ["TRACKCAST_LOG_MICROSECONDS": "1"])
        #expect(await app.waitForLine(": playing"))
        try await app.activate("skip-silence")
        #expect(await app.waitForLine("listening effects: skip silence on, voice boost off"))
        // The two pauses hold 5.4 s beyond the 0.3 s each keeps; most of the
        // first may have passed before the switch, all of the second is cut.
        let skipped = await app.waitFor(timeout: .seconds(20)) {
            RunningApp.loggedValues("silence skipped: ", in: $0.standardOutput).contains { $0 >= 2.5 }
        }
        #expect(await app.waitForLine("playback: ended", timeout: .seconds(30)))
        _ = try await app.quit()
        #expect(skipped, "no skipped silence logged: \(app.standardOutput.suffix(2000))")
        // Played in real time, the file takes its whole length; only cut
        // pauses bring the end sooner. 1.5 s of the 5.4 s that can go must go,
        // the rest is slack for a busy machine (which only makes a play longer).
        let started = try #require(app.loggedTime(ofFirst: "playback: playing"))
        let ended = try #require(app.loggedTime(ofFirst: "playback: ended"))
        #expect(ended - started < length - 1.5, "the \(length) s file played in \(ended - started) s")
    }
}
