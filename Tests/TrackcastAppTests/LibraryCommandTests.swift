import Foundation
import Testing
import TestSupport

/// The library commands of the real binary against feeds on loopback.
@Suite("Library commands", .needs("sqlite3"))
struct LibraryCommandTests {
    static func feedServer(_ feeds: [String: PodcastFeedWriter], address: String = "127.0.0.1") throws -> TestHTTPServer {
        let server = try TestHTTPServer(address: address)
        for (path, feed) in feeds {
            server.route(path, .document(feed.data(), contentType: "application/rss+xml; charset=utf-8", etag: "\"\(feed.episodes)\""))
        }
        return server
    }

    @Test("subscribe, list shows and episodes (plain and JSON)")
    func subscribeAndList() async throws {
        let server = try Self.feedServer(["/tech.xml": PodcastFeedWriter(title: "Tech Weekly", episodes: 5)])
        let cli = try LibraryCLI()

        let subscribed = try await cli.run(["subscribe", server.url("/tech.xml")])
        #expect(subscribed.status == 0)
        #expect(subscribed.standardOutput == "Subscribed to “Tech Weekly” (show 1, 5 episodes).\n")

        #expect(try await cli.shows() == [["1", "5", "0", "Tech Weekly", server.url("/tech.xml")]])
        let plain = try await cli.run(["episodes", "Tech"])
        let lines = plain.standardOutput.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first == "5\t2024-02-05\t-\tTech Weekly\tEpisode 5: Topic 5")
        let json = try await cli.episodes("1")
        #expect(json.count == 5)
        #expect(json.first?["title"] as? String == "Episode 5: Topic 5")
        #expect(json.first?["media_url"] as? String == "https://media.example.org/tech-weekly/5.mp3")

        let again = try await cli.run(["subscribe", server.url("/tech.xml")])
        #expect(again.status == 0 && again.standardOutput.hasPrefix("Already subscribed to “Tech Weekly”"))
    }

    @Test("bad input fails with one line and exit 1, leaving the library as it was", arguments: [
        "/page.html", "/notes.txt", "/missing.xml", "UNREACHABLE", "/nowhere/feed.xml",
    ])
    func badInput(_ source: String) async throws {
        let server = try TestHTTPServer()
        server.route("/page.html", .serve(Data("<!DOCTYPE html><html><body>Podcast!</body></html>".utf8), contentType: "text/html"))
        server.route("/notes.txt", .serve(Data("just some notes".utf8), contentType: "text/plain"))
        let gone = try RefusingPort(address: "127.0.0.3")
        // Held, not just read from: the port refuses only while this lives.
        defer { withExtendedLifetime(gone) {} }
        let address = switch source {
        case "UNREACHABLE": gone.url("/feed.xml")
        case "/nowhere/feed.xml": source
        default: server.url(source)
        }
        let cli = try LibraryCLI()
        let good = try Self.feedServer(["/good.xml": PodcastFeedWriter(title: "Good", episodes: 2)], address: "127.0.0.2")
        _ = try await cli.run(["subscribe", good.url("/good.xml")])

        let result = try await cli.run(["subscribe", address])

        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let errorLines = result.standardError.split(separator: "\n")
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.hasPrefix("trackcast: \(address): ") == true, "\(result.standardError)")
        #expect(try await cli.shows().map { $0[3] } == ["Good"])
        #expect(try await cli.integrityCheck() == "ok")
    }

    @Test("commands given the wrong arguments exit 2 without touching the library", arguments: [
        ["subscribe"], ["subscribe", "a", "b"], ["unsubscribe"], ["refresh", "a", "b"], ["shows", "x"],
        ["download", "first"], ["import-opml"], ["export-opml", "a", "b"],
    ])
    func usage(_ arguments: [String]) async throws {
        let cli = try LibraryCLI()
        let result = try await cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains("usage: trackcast"))
        #expect(!FileManager.default.fileExists(atPath: cli.library.path))
    }

    @Test("refresh prints a line per show, records a failing one and exits 1, and the others update")
    func refresh() async throws {
        let server = try Self.feedServer(["/a.xml": PodcastFeedWriter(title: "Alpha", episodes: 3),
                                          "/b.xml": PodcastFeedWriter(title: "Beta", episodes: 3)])
        let cli = try LibraryCLI()
        _ = try await cli.run(["subscribe", server.url("/a.xml")])
        _ = try await cli.run(["subscribe", server.url("/b.xml")])

        let unchanged = try await cli.run(["refresh"])
        #expect(unchanged.status == 0)
        #expect(Set(unchanged.standardOutput.split(separator: "\n")) == ["unchanged  Alpha", "unchanged  Beta"])

        server.route("/a.xml", .document(PodcastFeedWriter(title: "Alpha", episodes: 5).data(), contentType: "text/xml"))
        server.route("/b.xml", .status(500))
        let mixed = try await cli.run(["refresh"])

        #expect(mixed.status == 1)
        #expect(Set(mixed.standardOutput.split(separator: "\n")) == [
            "updated    Alpha: 2 new, 0 changed",
            "failed     Beta: The server answered 500 (Internal Server Error).",
        ])
        #expect(mixed.standardError == "trackcast: 1 of 2 shows could not be refreshed\n")
        let shows = try await cli.shows()
        #expect(shows.map { $0.prefix(4) } == [["1", "5", "2", "Alpha"], ["2", "3", "0", "Beta"]])
        #expect(shows[1].last == "The server answered 500 (Internal Server Error).")
    }

    @Test("SHOW may be a number, a feed URL or a unique start of a title")
    func showReferences() async throws {
        let server = try Self.feedServer(["/1.xml": PodcastFeedWriter(title: "Daily News", episodes: 1),
                                          "/2.xml": PodcastFeedWriter(title: "Daily Tech", episodes: 1),
                                          "/3.xml": PodcastFeedWriter(title: "Cooking", episodes: 1)])
        let cli = try LibraryCLI()
        for path in ["/1.xml", "/2.xml", "/3.xml"] { _ = try await cli.run(["subscribe", server.url(path)]) }

        for reference in ["3", server.url("/3.xml"), "cook", "COOKING"] {
            let result = try await cli.run(["refresh", reference])
            #expect(result.standardOutput == "unchanged  Cooking\n", "\(reference)")
        }
        let ambiguous = try await cli.run(["refresh", "daily"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.contains("'daily' matches 2 shows"))
        let unknown = try await cli.run(["episodes", "42"])
        #expect(unknown.status == 1 && unknown.standardError == "trackcast: there is no show 42 in the library\n")
    }

    @Test("unsubscribe removes the show, its episodes and its downloaded files")
    func unsubscribe() async throws {
        let media = try TestHTTPServer(address: "127.0.0.2")
        let feed = PodcastFeedWriter(title: "Keeper", episodes: 2, mediaBase: media.url(""))
        media.route("/keeper/2.mp3", .serve(Data(repeating: 7, count: 5000), contentType: "audio/mpeg"))
        let server = try Self.feedServer(["/k.xml": feed])
        let cli = try LibraryCLI()
        _ = try await cli.run(["subscribe", server.url("/k.xml")])
        let downloaded = try await cli.run(["download", "2"])
        let file = downloaded.standardOutput.trimmingCharacters(in: .newlines)
        #expect(FileManager.default.fileExists(atPath: file))

        let result = try await cli.run(["unsubscribe", "Keeper"])

        #expect(result.standardOutput == "Unsubscribed from “Keeper” (1 download deleted).\n")
        #expect(try await cli.shows().isEmpty)
        #expect(try await cli.episodes().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("unsubscribe deletes no file the library names outside its downloads folder: another path, a path through .., a folder linked elsewhere")
    func unsubscribeLeavesOutsideFiles() async throws {
        let media = try TestHTTPServer(address: "127.0.0.2")
        let feed = PodcastFeedWriter(title: "Keeper", episodes: 3, mediaBase: media.url(""))
        for episode in 1...3 {
            media.route("/keeper/\(episode).mp3", .serve(Data(repeating: 7, count: 500), contentType: "audio/mpeg"))
        }
        let server = try Self.feedServer(["/k.xml": feed])
        let cli = try LibraryCLI()
        _ = try await cli.run(["subscribe", server.url("/k.xml")])
        for episode in 1...3 { _ = try await cli.run(["download", "\(episode)"]) }
        // What a damaged or hand-edited library could name: files of the user's, outside the downloads folder.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-outside-\(UUID())")
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let victims = (1...3).map { outside.appendingPathComponent("precious-\($0).txt") }
        for victim in victims { try Data("mine".utf8).write(to: victim) }
        try FileManager.default.createSymbolicLink(at: cli.downloads.appendingPathComponent("elsewhere"), withDestinationURL: outside)
        let paths = [victims[0].path,
                     cli.downloads.path + "/Keeper/../../../" + outside.lastPathComponent + "/precious-2.txt",
                     cli.downloads.path + "/elsewhere/precious-3.txt"]
        for (episode, path) in paths.enumerated() {
            let edited = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [
                cli.database.path, "UPDATE downloads SET path = '\(path)' WHERE episode_id = \(episode + 1)",
            ])
            try #require(edited.status == 0, "\(edited.standardError)")
        }

        let result = try await cli.run(["unsubscribe", "Keeper"])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "Unsubscribed from “Keeper” (0 downloads deleted).\n")
        for victim in victims {
            #expect(FileManager.default.fileExists(atPath: victim.path), "\(victim.lastPathComponent) was deleted")
        }
    }

    @Test("download prints the file's path; the file has the served bytes and the served type's extension")
    func download() async throws {
        let media = try TestHTTPServer(address: "127.0.0.2")
        let feed = PodcastFeedWriter(title: "Listen", episodes: 1, mediaBase: media.url(""))
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        media.route("/listen/1.mp3", .serve(bytes, contentType: "audio/mp4"))
        let server = try Self.feedServer(["/l.xml": feed])
        let cli = try LibraryCLI()
        _ = try await cli.run(["subscribe", server.url("/l.xml")])

        let result = try await cli.run(["download", "1"])

        #expect(result.status == 0)
        let path = result.standardOutput.trimmingCharacters(in: .newlines)
        #expect(path == cli.downloads.appendingPathComponent("Listen/Episode 1- Topic 1.m4a").path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try await cli.episodes().first?["download"] as? String == "complete")

        let missing = try await cli.run(["download", "99"])
        #expect(missing.status == 1 && missing.standardError == "trackcast: episode 99: There is no episode 99 in the library.\n")
    }

    @Test("refresh deletes downloads of episodes played longer ago than the library's setting says")
    func refreshDeletesOldPlayedDownloads() async throws {
        let media = try TestHTTPServer(address: "127.0.0.2")
        let feed = PodcastFeedWriter(title: "Tidy", episodes: 2, mediaBase: media.url(""))
        for number in 1...2 { media.route("/tidy/\(number).mp3", .serve(Data(repeating: 1, count: 900), contentType: "audio/mpeg")) }
        let server = try Self.feedServer(["/t.xml": feed])
        let cli = try LibraryCLI()
        _ = try await cli.run(["subscribe", server.url("/t.xml")])
        let old = try await cli.run(["download", "1"]).standardOutput.trimmingCharacters(in: .newlines)
        let recent = try await cli.run(["download", "2"]).standardOutput.trimmingCharacters(in: .newlines)
        // Both played, one of them ten days ago; keep played downloads for a week.
        let edit = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [cli.database.path, """
            UPDATE episodes SET played = 1;
            UPDATE episodes SET played_at = unixepoch() - 10 * 86400 WHERE id = 1;
            INSERT INTO settings (key, value) VALUES ('downloads.delete-played-after-days', '7');
            """])
        try #require(edit.status == 0, "\(edit.standardError)")

        let result = try await cli.run(["refresh"])

        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: recent))
        #expect(try await cli.episodes().map { $0["download"] as? String } == ["complete", nil])
    }

    @Test("import-opml subscribes and refreshes; export-opml writes a list another library imports whole")
    func opml() async throws {
        let hosts = try [Self.feedServer(["/one.xml": PodcastFeedWriter(title: "One & Only", episodes: 2)]),
                         Self.feedServer(["/two.xml": PodcastFeedWriter(title: "Two", episodes: 3)], address: "127.0.0.2")]
        let list = """
            <?xml version="1.0" encoding="utf-8"?>
            <opml version="2.0"><head><title>Mine</title></head><body>
              <outline text="Folder">
                <outline text="One" type="rss" xmlUrl="\(hosts[0].url("/one.xml"))"/>
              </outline>
              <outline text="Two" type="rss" xmlUrl="\(hosts[1].url("/two.xml"))"/>
              <outline text="Two again" type="rss" xmlUrl="\(hosts[1].url("/two.xml"))"/>
            </body></opml>
            """
        let cli = try LibraryCLI()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-\(UUID()).opml")
        defer { try? FileManager.default.removeItem(at: file) }
        try list.write(to: file, atomically: true, encoding: .utf8)

        let imported = try await cli.run(["import-opml", file.path])

        #expect(imported.status == 0)
        #expect(imported.standardOutput.hasPrefix("Imported 2 shows (0 already subscribed).\n"))
        #expect(try await cli.shows().map { $0[3] } == ["One & Only", "Two"])
        #expect(try await cli.episodes().count == 5)

        let exported = file.deletingPathExtension().appendingPathExtension("export.opml")
        defer { try? FileManager.default.removeItem(at: exported) }
        let export = try await cli.run(["export-opml", exported.path])
        #expect(export.standardOutput == "Exported 2 shows to \(exported.path).\n")
        let toStandardOutput = try await cli.run(["export-opml"])
        #expect(toStandardOutput.standardOutput.contains("xmlUrl=\"\(hosts[0].url("/one.xml"))\""))

        let other = try LibraryCLI()
        let reimported = try await other.run(["import-opml", exported.path, "--no-refresh"])
        #expect(reimported.standardOutput == "Imported 2 shows (0 already subscribed).\n")
        #expect(try await other.shows().map { Array($0[3...4]) } == (try await cli.shows()).map { Array($0[3...4]) })
    }

    @Test("import-opml of something that is not OPML fails and subscribes nothing")
    func badOPML() async throws {
        let cli = try LibraryCLI()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-\(UUID()).opml")
        defer { try? FileManager.default.removeItem(at: file) }
        try PodcastFeedWriter(title: "A feed", episodes: 1).data().write(to: file)

        let result = try await cli.run(["import-opml", file.path])

        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("trackcast: \(file.path): This is not a subscription list (OPML)"))
        #expect(try await cli.shows().isEmpty)
        let missing = try await cli.run(["import-opml", "/no/such/file.opml"])
        #expect(missing.status == 1 && missing.standardError == "trackcast: /no/such/file.opml: the file cannot be read\n")
    }
}
