import Foundation
import TestSupport
import Testing

/// The library's search in the running window: typed after Ctrl+F, asked by
/// `search(s)`, results read from the widgets (the log prints what the
/// result rows' labels hold), a transcript result opening its episode there
/// with Play from. Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("Ctrl+F and typing search the library; results by show and episode say where; a transcript result opens the episode with Play from")
    func librarySearch() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/kitchen.xml", .document(SearchCLITests.feed(), contentType: "application/rss+xml"))
        server.route("/sample.vtt", .serve(try Data(contentsOf: SearchCLITests.transcript), contentType: "text/vtt"))
        let cli = try LibraryCLI()
        try #require(try await cli.run(["subscribe", server.url("/kitchen.xml")]).status == 0)

        let app = try await RunningApp.launch(library: cli.library, environment: ["LANGUAGE": "en"])
        let result = try await app.quitting { app in
            let typing = app.standardOutput.endIndex
            try await app.type("ctrl+f")
            #expect(await app.waitForLine("showing library search", after: typing))
            try await app.type("c", "a", "f", "e")
            let typed = await app.waitFor(timeout: .seconds(20)) {
                $0.standardOutput[typing...].contains("library search: 2 episodes in 1 shows for “cafe”")
            }
            try #require(typed, "\(app.standardOutput[typing...])")
            let rows = app.standardOutput[typing...].split(separator: "\n").filter { $0.contains("library search result: ") }
                .suffix(2).map { String($0.split(separator: "library search result: ").last ?? "") }
            #expect(rows == [
                "Kitchen Radio | Cafés of the world | Title: Cafés of the world",
                "Kitchen Radio | Tea and biscuits | Transcript 1:10 Alice: Let us talk about cafés & tea. And about sleep timers.",
            ])

            let asked = app.standardOutput.endIndex
            try await app.activate("search", "[<'mail'>]")
            #expect(await app.waitForLine("library search result: Kitchen Radio | Zürich by tram | Chapter 12:03 Listener mail",
                                          after: asked), "\(app.standardOutput[asked...])")
            let shot = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-library-search.png")
            try await RunningApp.saveScreenshot(to: shot)
            print("library search screenshot: \(shot.path)")

            let opened = app.standardOutput.endIndex
            try await app.activate("open-search-result", "[<(int64 2, 'transcript', 70.25)>]")
            #expect(await app.waitForLine("episode page: offers play from 1:10 in transcript", after: opened),
                    "\(app.standardOutput[opened...])")
            #expect(await app.waitForLine("episode page: episode 2 Tea and biscuits", after: opened))
            #expect(await app.waitForLine("transcript: revealed cue 2", after: opened), "the cue found, in view")
            let page = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-search-play-from.png")
            try await RunningApp.saveScreenshot(to: page)
            print("play from screenshot: \(page.path)")

            let nothing = app.standardOutput.endIndex
            try await app.activate("search", "[<'submarine'>]")
            #expect(await app.waitForLine("library search: 0 episodes for “submarine”", after: nothing))
        }
        #expect(result.status == 0)
    }

    @Test("a library from before the index is indexed in the background after opening, cached transcripts too")
    func olderLibraryIndexed() async throws {
        let server = try TestHTTPServer()
        server.route("/kitchen.xml", .document(SearchCLITests.feed(), contentType: "application/rss+xml"))
        server.route("/sample.vtt", .serve(try Data(contentsOf: SearchCLITests.transcript), contentType: "text/vtt"))
        let cli = try LibraryCLI()
        try #require(try await cli.run(["subscribe", server.url("/kitchen.xml")]).status == 0)
        server.stop()
        // As the migration leaves a library that had episodes: nothing indexed, all of them to do.
        let reset = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [cli.database.path, """
            DELETE FROM search_heads; DELETE FROM search_notes; DELETE FROM search_cues; DELETE FROM search_places;
            INSERT INTO settings (key, value) VALUES ('search.unindexed-through', '3');
            """])
        try #require(reset.status == 0, "\(reset.standardError)")
        #expect(try await cli.run(["search", "sleep"]).standardError.contains("indexing 3 episodes for search"),
                "the CLI indexes what is left first: the check that the reset took")

        // Again, for the app this time.
        let again = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [cli.database.path, """
            DELETE FROM search_heads; DELETE FROM search_notes; DELETE FROM search_cues; DELETE FROM search_places;
            INSERT INTO settings (key, value) VALUES ('search.unindexed-through', '3');
            """])
        try #require(again.status == 0)
        let app = try await RunningApp.launch(library: cli.library, environment: ["LANGUAGE": "en"])
        let result = try await app.quitting { app in
            #expect(await app.waitForLine("search index: 0 of 3 episodes left"), "\(app.standardOutput)")
            let asked = app.standardOutput.endIndex
            try await app.activate("search", "[<'sleep timers'>]")
            #expect(await app.waitForLine("library search result: Kitchen Radio | Tea and biscuits | Transcript 1:10", after: asked),
                    "the transcript came from the cache: \(app.standardOutput[asked...])")
        }
        #expect(result.status == 0)
    }
}

