import Foundation
import Testing
import TestSupport
import TrackcastLibrary

@Suite("Artwork downloads")
struct ArtworkFetcherTests {
    private static let image = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    @Test("artwork is downloaded once and then read from the cache; a refusal, a dead address or a huge body leaves no file")
    func cachesWholeFilesOnly() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/cover.jpg", .serve(Self.image, contentType: "image/jpeg"))
        server.route("/gone.jpg", .status(404))
        server.route("/huge.jpg", .generated(prefix: Data(), pattern: Data(repeating: 0xFF, count: 4096),
                                             totalBytes: ArtworkFetcher.maxBytes + 1, contentType: "image/jpeg",
                                             announced: false))
        let directory = try TemporaryDirectory()
        let cache = directory.url.appendingPathComponent("artwork")
        let fetcher = ArtworkFetcher(client: HTTPClient(userAgent: "test"), cacheDirectory: cache)

        let url = try #require(URL(string: server.url("/cover.jpg")))
        let file = try await fetcher.file(for: url)
        #expect(try Data(contentsOf: file) == Self.image)
        #expect(try await fetcher.file(for: url) == file)
        #expect(server.log(for: "/cover.jpg").count == 1, "the second time came from the cache")

        await #expect(throws: ArtworkFetcher.FetchError.status(404)) {
            try await fetcher.file(for: URL(string: server.url("/gone.jpg"))!)
        }
        await #expect(throws: HTTPError.tooLarge(limit: ArtworkFetcher.maxBytes)) {
            try await fetcher.file(for: URL(string: server.url("/huge.jpg"))!)
        }
        let dead = try RefusingPort()
        // Held, not just read from: the port refuses only while this lives.
        defer { withExtendedLifetime(dead) {} }
        let deadURL = try #require(URL(string: dead.url("/cover.jpg")))
        await #expect(throws: HTTPError.self) { try await fetcher.file(for: deadURL) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path) == [file.lastPathComponent])
    }

    @Test("a local file is its own artwork")
    func localFile() async throws {
        let fetcher = ArtworkFetcher(client: HTTPClient(userAgent: "test"), cacheDirectory: URL(fileURLWithPath: "/nonexistent"))
        let local = URL(fileURLWithPath: "/usr/share/trackcast/sample/cover.png")
        #expect(try await fetcher.file(for: local) == local)
    }
}
