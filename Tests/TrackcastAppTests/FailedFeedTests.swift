import Foundation
import TestSupport
import Testing

/// A feed whose refresh fails is marked on its show with the reason, until
/// a refresh succeeds: the server on loopback answers 500, then recovers.
extension RunningAppTests {
    @Test("a failed refresh marks the show's tile with the reason; the next good refresh clears it")
    func failedFeedMarked() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let feed = TestHTTPServer.Behaviour.serve(PodcastFeedWriter(title: "Flaky", episodes: 1).data(),
                                                  contentType: "application/rss+xml")
        server.route("/feed", feed)
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let app = try await RunningApp.launch(library: library, environment: ["LANGUAGE": "en"])
        let result = try await app.quitting { app in
            try await app.activate("subscribe", "[<'\(server.url("/feed"))'>]")
            try #require(await app.waitForLine("show page: 1 episodes"), "\(app.standardOutput)")
            try await app.activate("show-library")
            #expect(!app.standardOutput.contains("Could not refresh"))

            server.route("/feed", .status(500))
            let beforeFailure = app.standardOutput.endIndex
            try await app.activate("refresh")
            let marked = await app.waitForLine("Could not refresh: The server answered with an error.", after: beforeFailure)
            #expect(marked, "the failed show was not marked: \(app.standardOutput[beforeFailure...])")

            server.route("/feed", feed)
            let beforeRecovery = app.standardOutput.endIndex
            try await app.activate("refresh")
            let refreshed = await app.waitForLine("refreshed 1 shows, 0 failed", after: beforeRecovery)
            try #require(refreshed, "\(app.standardOutput[beforeRecovery...])")
            try await Task.sleep(for: .seconds(1))
            #expect(!app.standardOutput[beforeRecovery...].contains("Could not refresh"),
                    "the mark stayed after a good refresh: \(app.standardOutput[beforeRecovery...])")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
