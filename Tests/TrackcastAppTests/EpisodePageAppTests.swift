import Foundation
import TestSupport
import Testing

/// The episode page in the running app: its transcript and chapters follow
/// playback, a cue chosen plays from there, search finds words, and the
/// transcript comes from the cache once the server is gone. Part of "The
/// running app", which runs one app at a time.
extension RunningAppTests {
    /// Ten cues of three seconds; cue 6 names Zürich.
    static let talkTranscript = "WEBVTT\n\n" + (0..<10).map { index in
        let words = index == 6 ? "We recorded this one in Zürich." : "Sentence number \(index) of the talk."
        return String(format: "00:00:%02d.000 --> 00:00:%02d.000\n<v Alice>%@\n", index * 3, index * 3 + 3, words)
    }.joined(separator: "\n")

    static let talkChapters = Data("""
        {"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Opening"}, {"startTime": 15, "title": "Middle & end", "url": "https://example.org/end"}]}
        """.utf8)

    /// A minute of Opus to play in real time.
    static func minuteOfTalk() async throws -> Data {
        let file = try await minuteOfAudio()
        defer { try? FileManager.default.removeItem(at: file) }
        return try Data(contentsOf: file)
    }

    static func talkFeed(mediaLength: Int) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
              <title>Talks &amp; transcripts</title>
              <item><title>A talk &lt;3 &amp; cues</title><guid>talk-1</guid>
                <description>Notes with &lt;b&gt;bold&lt;/b&gt; and a &lt;a href="javascript:alert(1)"&gt;bad link&lt;/a&gt;.</description>
                <enclosure url="/talk.opus" type="audio/ogg" length="\(mediaLength)"/>
                <podcast:transcript url="/talk.html" type="text/html" language="en"/>
                <podcast:transcript url="/talk.vtt" type="text/vtt" language="en"/>
                <podcast:chapters url="/chapters.json" type="application/json+chapters"/>
                <podcast:funding url="https://example.org/support">Support us</podcast:funding>
                <podcast:person role="guest" href="https://example.org/alice">Alice</podcast:person>
              </item>
            </channel></rss>
            """.utf8)
    }

    private func printed(_ app: RunningApp, _ texts: String..., after mark: String.Index,
                         timeout: Duration = .seconds(20)) async -> Bool {
        await app.waitFor(timeout: timeout) { app in texts.allSatisfy { app.standardOutput[mark...].contains($0) } }
    }

    /// The last "transcript cue: N" line after `mark` says `index`.
    private func cueShown(_ app: RunningApp, _ index: Int, after mark: String.Index) async -> Bool {
        await app.waitFor(timeout: .seconds(30)) {
            $0.standardOutput[mark...].split(separator: "\n").last { $0.contains("transcript cue: ") }?
                .hasSuffix("transcript cue: \(index)") == true
        }
    }

    @Test("the episode page: the transcript cue and chapter under the play head follow playback, a chosen cue plays from there, search finds a word, and a second open reads the cache")
    func episodePageFollowsPlayback() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let media = try await Self.minuteOfTalk()
        server.route("/talk.opus", .serve(media, contentType: "audio/ogg"))
        server.route("/talk.vtt", .serve(Data(Self.talkTranscript.utf8), contentType: "text/vtt"))
        server.route("/talk.html", .serve(Data("<p>Untimed</p>".utf8), contentType: "text/html"))
        server.route("/chapters.json", .serve(Self.talkChapters, contentType: "application/json+chapters"))
        server.route("/feed", .serve(Self.talkFeed(mediaLength: media.count), contentType: "application/rss+xml"))
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }

        let app = try await RunningApp.launch(library: library, environment: ["LANGUAGE": "en"])
        let result = try await app.quitting { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput.contains("show page: 1 episodes") && $0.standardOutput.contains("subscribed show 1: transcripts indexed")
            }, "\(app.standardOutput)")
            var mark = app.standardOutput.endIndex
            try await app.activate("open-episode", "[<int64 1>]")
            // The subscribe fetched the transcript for the search index, into the cache the page reads.
            let opened = await printed(app, "transcript: 10 cues from the cache", "episode page: 2 chapters, 1 linked",
                                       after: mark)
            try #require(opened, "the page did not load the VTT transcript and the chapters: \(app.standardOutput[mark...])")
            #expect(server.log(for: "/talk.vtt").count == 1, "fetched once, by the subscribe")
            let output = app.standardOutput[mark...]
            #expect(output.contains("episode page: episode 1 A talk <3 & cues"), "the title, literally")
            #expect(output.contains("episode page notes: Notes with bold and a bad link."), "the description, sanitised")
            #expect(server.log(for: "/talk.html").isEmpty, "the timed transcript is chosen over the HTML one")

            // Playing: the highlighted cue moves on with the play head.
            mark = app.standardOutput.endIndex
            try await app.activate("play-episode", "[<int64 1>]")
            #expect(await cueShown(app, 0, after: mark), "\(app.standardOutput[mark...])")
            #expect(await cueShown(app, 1, after: mark), "the cue did not follow playback past 3 s: \(app.standardOutput[mark...])")
            #expect(app.standardOutput[mark...].contains("episode page: current chapter 0"))

            // Choosing cue 7 (21–24 s) plays from there, in the second chapter.
            mark = app.standardOutput.endIndex
            try await app.activate("transcript-cue", "[<int32 7>]")
            #expect(await cueShown(app, 7, after: mark), "\(app.standardOutput[mark...])")
            #expect(await printed(app, "episode page: current chapter 1", after: mark), "\(app.standardOutput[mark...])")
            let positions: @Sendable (String) -> [Double] = { [mark] output in
                output[mark...].split(separator: "\n").compactMap { line -> Double? in
                    guard let range = line.range(of: "position: ") else { return nil }
                    return Double(line[range.upperBound...].prefix { $0 != " " })
                }
            }
            // Ticks are logged twice a second; a loaded machine may not have logged one yet.
            #expect(await app.waitFor(timeout: .seconds(10)) { positions($0.standardOutput).contains { (21..<24).contains($0) } },
                    "the play head jumped into the cue: \(positions(app.standardOutput))")

            mark = app.standardOutput.endIndex
            try await app.activate("search-transcript", "[<'ZURICH'>]")
            #expect(await printed(app, "transcript search: 1 matches, first cue 6", after: mark),
                    "\(app.standardOutput[mark...])")
            #expect(app.standardOutput[mark...].contains("transcript follow: off (searching)"))
            try await app.activate("search-transcript", "[<'podcasting'>]")
            #expect(await printed(app, "transcript search: 0 matches", after: mark))

            // Offline: the transcript comes from the library's cache.
            server.stop()
            mark = app.standardOutput.endIndex
            try await app.activate("open-episode", "[<int64 1>]")
            #expect(await printed(app, "transcript: 10 cues from the cache", after: mark), "\(app.standardOutput[mark...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
