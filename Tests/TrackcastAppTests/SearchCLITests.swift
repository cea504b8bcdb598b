import Foundation
import Testing
import TestSupport

/// `trackcast search` run as a process against a library subscribed through
/// the CLI to a feed on loopback, with show notes, chapters and a transcript
/// (the WebVTT fixture the transcript parser is tested with).
@Suite("trackcast search")
struct SearchCLITests {
    static let transcript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TrackcastLibraryTests/Fixtures/transcripts/sample.vtt")

    /// Three episodes, newest first: ids 3, 2, 1 once subscribed.
    static func feed(tramNotes: String = "Timetables and &lt;b&gt;trams&lt;/b&gt;.") -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
                 xmlns:psc="http://podlove.org/simple-chapters" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel>
              <title>Kitchen Radio</title>
              <itunes:author>Ann Author</itunes:author>
              <item><title>Cafés of the world</title><guid>ep-3</guid>
                <description>Where to sit.</description>
                <enclosure url="https://media.example.org/3.mp3" type="audio/mpeg" length="1"/>
              </item>
              <item><title>Tea and biscuits</title><guid>ep-2</guid>
                <description>We argue about biscuits.</description>
                <enclosure url="https://media.example.org/2.mp3" type="audio/mpeg" length="1"/>
                <podcast:transcript url="/sample.vtt" type="text/vtt" language="en"/>
              </item>
              <item><title>Zürich by tram</title><guid>ep-1</guid>
                <description>\(tramNotes)</description>
                <enclosure url="https://media.example.org/1.mp3" type="audio/mpeg" length="1"/>
                <psc:chapters version="1.2">
                  <psc:chapter start="00:00:00" title="Intro"/>
                  <psc:chapter start="00:12:03" title="Listener mail"/>
                </psc:chapters>
              </item>
            </channel></rss>
            """.utf8)
    }

    let server: TestHTTPServer
    let cli: LibraryCLI

    init() async throws {
        server = try TestHTTPServer()
        server.route("/kitchen.xml", .document(Self.feed(), contentType: "application/rss+xml"))
        server.route("/sample.vtt", .serve(try Data(contentsOf: Self.transcript), contentType: "text/vtt"))
        cli = try LibraryCLI()
        let subscribed = try await cli.run(["subscribe", server.url("/kitchen.xml")])
        try #require(subscribed.status == 0, "\(subscribed.standardError)")
    }

    func search(_ text: String...) async throws -> ChildProcess.Result {
        try await cli.run(["search"] + text)
    }

    func json(_ text: String) async throws -> [[String: Any]] {
        let result = try await search(text, "--json")
        guard result.status == 0, result.standardError.isEmpty,
              let list = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        else { throw CLIError("search --json failed: \(result.standardOutput) \(result.standardError)") }
        return list
    }

    @Test("one tab-separated line per match: episode, show, title, where, time, snippet")
    func plainLines() async throws {
        let title = try await search("zurich")
        #expect(title.status == 0 && title.standardError.isEmpty)
        #expect(title.standardOutput == "1\tKitchen Radio\tZürich by tram\ttitle\t-\t[Zürich] by tram\n")
        let chapter = try await search("mail")
        #expect(chapter.standardOutput == "1\tKitchen Radio\tZürich by tram\tchapter\t723\tListener [mail]\n")
        let notes = try await search("TRAMS")
        #expect(notes.standardOutput == "1\tKitchen Radio\tZürich by tram\tnotes\t-\tTimetables and [trams].\n")
    }

    @Test("a word only in the transcript gives its cue's time; a title that holds it ranks first")
    func transcriptAndRanking() async throws {
        #expect(server.log(for: "/sample.vtt").count == 1, "the subscribe fetched the transcript")
        let sleep = try await json("sleep timers")
        #expect(sleep.count == 1)
        #expect(sleep.first?["episode"] as? Int == 2)
        #expect(sleep.first?["show"] as? String == "Kitchen Radio")
        #expect(sleep.first?["title"] as? String == "Tea and biscuits")
        #expect(sleep.first?["where"] as? String == "transcript")
        #expect(sleep.first?["time"] as? Double == 70.25)
        #expect(sleep.first?["snippet"] as? String == "Alice: Let us talk about cafés & tea. And about [sleep] [timers].")

        let cafes = try await json("cafes")
        #expect(cafes.map { $0["title"] as? String } == ["Cafés of the world", "Tea and biscuits"])
        #expect(cafes.map { $0["where"] as? String } == ["title", "transcript"])
        #expect(cafes.first?["time"] is NSNull)
    }

    @Test("nothing found: no output, exit 0")
    func nothingFound() async throws {
        for arguments in [["submarine"], ["submarine", "--json"]] {
            let result = try await cli.run(["search"] + arguments)
            #expect(result.status == 0 && result.standardOutput.isEmpty && result.standardError.isEmpty)
        }
    }

    @Test("FTS5 syntax is searched as text: no SQL error", arguments: ["\"", "NEAR(", "*", "-", ":", "tea\"", "(tea", "-tea", "tea:", "tea*", "biscuits AND", "tea -- biscuits"])
    func hostileQueries(_ text: String) async throws {
        let result = try await search(text)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        if text.contains("tea") || text.contains("biscuits") {
            #expect(!result.standardOutput.isEmpty, "the words in it are still searched")
        }
    }

    @Test("a refresh that changes an episode's notes changes its results; unsubscribing removes them")
    func refreshAndUnsubscribe() async throws {
        server.route("/kitchen.xml", .document(Self.feed(tramNotes: "Timetables and buses."), contentType: "application/rss+xml"))
        let refreshed = try await cli.run(["refresh"])
        #expect(refreshed.status == 0, "\(refreshed.standardError)")
        #expect(try await search("trams").standardOutput.isEmpty)
        #expect(try await search("buses").standardOutput.hasPrefix("1\tKitchen Radio\tZürich by tram\tnotes\t"))

        #expect(try await cli.run(["unsubscribe", "1"]).status == 0)
        for word in ["buses", "zurich", "sleep", "kitchen"] {
            #expect(try await search(word).standardOutput.isEmpty, "\(word)")
        }
        #expect(try await cli.integrityCheck() == "ok")
    }

    @Test("TEXT is required", arguments: [[], ["--json"]])
    func usage(_ arguments: [String]) async throws {
        let result = try await cli.run(["search"] + arguments)
        #expect(result.status == 2 && result.standardError.contains("usage: trackcast search TEXT [--json]"))
    }
}
