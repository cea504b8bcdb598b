import Foundation
import Synchronization
import Testing
import TestSupport
@testable import TrackcastLibrary

@Suite("Downloads")
struct DownloadTests {
    @Test("a download lands in the show's folder under the episode's title, recorded complete")
    func download() async throws {
        let harness = try await DownloadHarness(showTitle: "Tech/Talk: Weekly", episodes: [
            (title: "Episode 1: Hello/World? <Live>", path: "/1.mp3", type: "audio/mpeg"),
        ])
        let media = DownloadHarness.media(300_000)
        harness.server.route("/1.mp3", .serve(media, contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        let reports = Mutex<[DownloadProgress]>([])

        let file = try await harness.downloader.download(episode) { progress in reports.withLock { $0.append(progress) } }

        #expect(file.lastPathComponent == "Episode 1- Hello-World- -Live-.mp3")
        #expect(file.deletingLastPathComponent().lastPathComponent == "Tech-Talk- Weekly")
        #expect(try Data(contentsOf: file) == media)
        let record = try #require(try await harness.store.download(for: episode))
        #expect(record.state == .complete && record.file == file && record.bytes == 300_000)
        #expect(await harness.store.localFile(for: episode) == file)
        #expect(reports.withLock { $0.last } == DownloadProgress(episode: episode, bytes: 300_000, total: 300_000))
        #expect(!FileManager.default.fileExists(atPath: harness.partialFile(episode).path))
        #expect(try await harness.store.downloadedEpisodes(limit: 10).map(\.id) == [episode])
        // Media is never asked for compressed: ranges and lengths would count other bytes.
        #expect(harness.server.log(for: "/1.mp3").first?.headers["accept-encoding"] == "identity")
    }

    @Test("the extension follows the type the server sent, not the one the feed declared")
    func realContentType() async throws {
        let harness = try await DownloadHarness(episodes: [
            (title: "Video", path: "/media?id=7", type: "audio/mpeg"),
            (title: "Unknown", path: "/files/show.opus", type: nil),
        ])
        harness.server.route("/media", .serve(DownloadHarness.media(1000), contentType: "video/mp4"))
        harness.server.route("/files/show.opus", .serve(DownloadHarness.media(1000), contentType: "application/octet-stream"))
        let ids = try await harness.episodeIDs()

        #expect(try await harness.downloader.download(ids[0]).pathExtension == "mp4")
        #expect(try await harness.downloader.download(ids[1]).pathExtension == "opus")
    }

    @Test("an extension the URL names is kept only if it is a media file's; else the type decides, else .bin", arguments: [
        ("/e.sh", nil, "bin"), ("/e.desktop", nil, "bin"), ("/e.html", nil, "bin"), ("/e.svg", nil, "bin"),
        ("/e.exe", nil, "bin"), ("/e.m4b", nil, "m4b"), ("/e.OGA", nil, "oga"), ("/e.mkv", nil, "mkv"),
        ("/e.sh", "audio/mpeg", "mp3"), ("/e.desktop", "video/webm", "webm"),
    ] as [(String, String?, String)])
    func urlExtension(path: String, declared: String?, expected: String) async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Named", path: path, type: declared)])
        harness.server.route(path, .serve(DownloadHarness.media(100), contentType: "application/octet-stream"))
        let file = try await harness.downloader.download(try await harness.episodeIDs()[0])
        #expect(file.lastPathComponent == "Named.\(expected)")
    }

    @Test("a type that is empty or only parameters names nothing, from the server or the feed; the URL's extension then does",
          arguments: ["", ";", " ; charset=binary"])
    func emptyType(_ type: String) async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Untyped", path: "/u.opus", type: type)])
        harness.server.route("/u.opus", .serve(DownloadHarness.media(100), contentType: type))
        let file = try await harness.downloader.download(try await harness.episodeIDs()[0])
        #expect(file.lastPathComponent == "Untyped.opus")
    }

    @Test("a download cut short is not complete, keeps its bytes, and resumes with a Range request")
    func resume() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Long one", path: "/long.mp3", type: "audio/mpeg")])
        let media = DownloadHarness.media(400_000)
        harness.server.route("/long.mp3", .truncated(media, contentType: "audio/mpeg", fraction: 0.4))
        let episode = try await harness.episodeIDs()[0]

        await #expect(throws: DownloadError.self) { try await harness.downloader.download(episode) }
        let failed = try #require(try await harness.store.download(for: episode))
        #expect(failed.state == .failed)
        #expect(await harness.store.localFile(for: episode) == nil)
        let kept = DownloadHarness.media(400_000).prefix(Int(Downloader.size(of: harness.partialFile(episode))))
        #expect(kept.count >= 100_000)
        #expect(try Data(contentsOf: harness.partialFile(episode)) == kept)

        harness.server.route("/long.mp3", .serve(media, contentType: "audio/mpeg"))
        let file = try await harness.downloader.download(episode)

        #expect(harness.server.log(for: "/long.mp3").last?.headers["range"] == "bytes=\(kept.count)-")
        #expect(harness.server.log(for: "/long.mp3").last?.status == 206)
        #expect(try Data(contentsOf: file) == media)
        #expect(try await harness.store.download(for: episode)?.state == .complete)
    }

    @Test("a resume of a file that changed on the server starts over (If-Range)")
    func changedFile() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Replaced", path: "/r.mp3", type: "audio/mpeg")])
        let old = DownloadHarness.media(200_000, seed: 1), new = DownloadHarness.media(250_000, seed: 2)
        let episode = try await harness.episodeIDs()[0]
        try await Self.partialDownload(harness, episode, of: old, etag: "\"old\"")

        harness.server.route("/r.mp3", .document(new, contentType: "audio/mpeg", etag: "\"new\""))
        let file = try await harness.downloader.download(episode)

        let last = try #require(harness.server.log(for: "/r.mp3").last)
        #expect(last.headers["if-range"] == "\"old\"" && last.headers["range"] != nil)
        #expect(last.status == 200)
        #expect(try Data(contentsOf: file) == new)
    }

    /// Leaves a partial file of the first half of `data` and its validator, as an interrupted download would.
    static func partialDownload(_ harness: DownloadHarness, _ episode: EpisodeID, of data: Data, etag: String) async throws {
        try FileManager.default.createDirectory(at: harness.downloader.directory, withIntermediateDirectories: true)
        try data.prefix(data.count / 2).write(to: harness.partialFile(episode))
        try etag.write(to: Downloader.validatorFile(of: harness.partialFile(episode)), atomically: true, encoding: .utf8)
    }

    @Test("a partial file that is already the whole file completes on the server's 416")
    func alreadyComplete() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Done", path: "/d.mp3", type: "audio/mpeg")])
        let media = DownloadHarness.media(50_000)
        harness.server.route("/d.mp3", .serve(media, contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        try FileManager.default.createDirectory(at: harness.downloader.directory, withIntermediateDirectories: true)
        try media.write(to: harness.partialFile(episode))

        let file = try await harness.downloader.download(episode)

        #expect(harness.server.log(for: "/d.mp3").map(\.status) == [416])
        #expect(try Data(contentsOf: file) == media)
    }

    @Test("an HTTP error is reported and recorded; nothing is marked complete")
    func httpError() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Gone", path: "/gone.mp3", type: "audio/mpeg")])
        harness.server.route("/gone.mp3", .status(404))
        let episode = try await harness.episodeIDs()[0]

        await #expect(throws: DownloadError.httpStatus(404)) { try await harness.downloader.download(episode) }

        let record = try #require(try await harness.store.download(for: episode))
        #expect(record.state == .failed)
        #expect(record.error?.contains("404") == true)
    }

    @Test("a full disk is reported as such")
    func diskFull() throws {
        // Writes to /dev/full fail with ENOSPC, as on a full disk. (The writer is given it
        // directly: a symbolic link to it where the partial file goes is refused, as any is.)
        let scratch = try TemporaryDirectory()
        let writer = try MediaFileWriter(file: URL(fileURLWithPath: "/dev/full"), resumeFrom: 0,
                                         validatorFile: scratch.url.appendingPathComponent("validator")) { _, _ in }
        try writer.begin(HTTPResponseHead(status: 200, url: URL(string: "https://example.org/a.mp3")!, headers: [:], redirects: []))
        #expect(throws: DownloadError.diskFull) { try DownloadHarness.media(100_000).withUnsafeBytes { try writer.receive($0) } }
    }

    @Test("cancelling stops the transfer and keeps the partial file; the next download resumes")
    func cancel() async throws {
        // Only the cancel may end the stalled transfer: with the harness's 2 s
        // idle limit, a test task kept waiting that long on a loaded machine
        // (the whole suite in parallel) saw a timeout instead, once in CI.
        let harness = try await DownloadHarness(episodes: [(title: "Slow", path: "/slow.mp3", type: "audio/mpeg")],
                                                timeouts: HTTPTimeouts(connect: .seconds(10), total: .seconds(120),
                                                                       idle: .seconds(60)))
        let media = DownloadHarness.media(200_000)
        // Stalls part-way rather than merely slow, so a busy machine cannot let it finish before the cancel.
        harness.server.route("/slow.mp3", .stallAfter(bytes: 50_000, media, contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        let downloader = harness.downloader
        let partial = harness.partialFile(episode)

        let download = Task { try await downloader.download(episode) }
        while Downloader.size(of: partial) < 20_000 { try await Task.sleep(for: .milliseconds(20)) }
        await downloader.cancel(episode)
        await #expect(throws: DownloadError.cancelled) { try await download.value }
        let kept = Downloader.size(of: partial)
        #expect(kept >= 20_000 && kept <= 50_000)
        #expect(try await harness.store.download(for: episode)?.state == .failed)

        harness.server.route("/slow.mp3", .serve(media, contentType: "audio/mpeg"))
        let file = try await downloader.download(episode)
        #expect(harness.server.log(for: "/slow.mp3").last?.headers["range"] == "bytes=\(kept)-")
        #expect(try Data(contentsOf: file) == media)
    }

    @Test("two episodes with the same title get distinct files")
    func sameTitle() async throws {
        let harness = try await DownloadHarness(episodes: [
            (title: "Bonus", path: "/a.mp3", type: "audio/mpeg"), (title: "Bonus", path: "/b.mp3", type: "audio/mpeg"),
        ])
        harness.server.route("/a.mp3", .serve(DownloadHarness.media(10, seed: 1), contentType: "audio/mpeg"))
        harness.server.route("/b.mp3", .serve(DownloadHarness.media(10, seed: 2), contentType: "audio/mpeg"))
        let ids = try await harness.episodeIDs()

        let first = try await harness.downloader.download(ids[0])
        let second = try await harness.downloader.download(ids[1])

        #expect([first.lastPathComponent, second.lastPathComponent] == ["Bonus.mp3", "Bonus (2).mp3"])
        #expect(try Data(contentsOf: first) == DownloadHarness.media(10, seed: 1))
    }

    @Test("deleting a download removes the file and the record")
    func delete() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Keep?", path: "/k.mp3", type: "audio/mpeg")])
        harness.server.route("/k.mp3", .serve(DownloadHarness.media(1000), contentType: "audio/mpeg"))
        let episode = try await harness.episodeIDs()[0]
        let file = try await harness.downloader.download(episode)

        try await harness.downloader.delete(episode)

        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try await harness.store.download(for: episode) == nil)
        #expect(await harness.store.localFile(for: episode) == nil)
    }

    @Test("deleting a download whose recorded file lies outside the downloads folder (as written, through .., or through a linked folder) removes the record and leaves the file")
    func deleteOutside() async throws {
        let harness = try await DownloadHarness(episodes: [(title: "Keep?", path: "/k.mp3", type: "audio/mpeg")])
        let episode = try await harness.episodeIDs()[0]
        let outside = harness.directory.url.appendingPathComponent("mine", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: harness.downloader.directory, withIntermediateDirectories: true)
        let victim = outside.appendingPathComponent("letter.txt")
        try Data("mine".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: harness.downloader.directory.appendingPathComponent("linked"),
                                                   withDestinationURL: outside)
        for recorded in [victim.path, harness.downloader.directory.path + "/../mine/letter.txt",
                         harness.downloader.directory.path + "/linked/letter.txt"] {
            try await harness.store.setDownload(DownloadRecord(state: .complete, file: URL(fileURLWithPath: recorded)),
                                                for: episode)
            try await harness.downloader.delete(episode)
            #expect(FileManager.default.fileExists(atPath: victim.path), "deleted through \(recorded)")
            #expect(try await harness.store.download(for: episode) == nil)
        }
    }

    @Test("file names are sanitised for any file system", arguments: [
        ("Plain title", "Plain title"),
        ("a/b\\c:d*e?f\"g<h>i|j", "a-b-c-d-e-f-g-h-i-j"),
        ("  ...hidden  ", "hidden"),
        ("tabs\tand\nnew  lines", "tabs and new lines"),
        ("ends with dots...", "ends with dots"),
        ("", "Episode 9"),
        ("///", "Episode 9"),
        ("Ünïcödé 🎧 stays", "Ünïcödé 🎧 stays"),
    ])
    func sanitising(_ title: String, _ expected: String) {
        #expect(DownloadFileName.sanitised(title, fallback: "Episode 9") == expected)
    }

    @Test("a very long title is cut to fit a file name, at a character boundary")
    func longTitle() {
        let name = DownloadFileName.sanitised(String(repeating: "é", count: 300), fallback: "x")
        #expect(name.utf8.count <= DownloadFileName.maxBytes)
        #expect(name.allSatisfy { $0 == "é" })
    }
}
