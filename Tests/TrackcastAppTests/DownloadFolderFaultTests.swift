import Foundation
import Testing
import TestSupport

/// The downloads folder's own faults, on the real `trackcast download`: a
/// disk that fills up and a folder that cannot be written, each made for the
/// one process by a mount namespace (`unshare -rm`: a 64 KiB tmpfs, a
/// read-only bind mount) so that nothing outside it is touched and no root
/// is needed. Each must fail with a message that says what is wrong, leave
/// the episode "failed" (not "downloaded") with no file under a visible name,
/// and lose nothing: the next download, with room, completes.
@Suite("Download folder faults, one table", .needs("sqlite3"),
       .enabled(if: MachineCapabilities.userNamespaces,
                "needs unprivileged user namespaces (unshare -rm), which this machine does not allow"))
struct DownloadFolderFaultTests {
    static let media = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
    static let tinyDisk = #"mount -t tmpfs -o size=64k tmpfs "$DOWNLOADS""#
    static let readOnly = #"mount --bind "$DOWNLOADS" "$DOWNLOADS"; mount -o remount,bind,ro "$DOWNLOADS""#

    static let cases: [(String, mounts: String, TestHTTPServer.Behaviour, message: String)] = [
        ("disk too small for the announced length", tinyDisk, .serve(media, contentType: "audio/mpeg"),
         "but the disk has"),
        ("disk fills up (no length announced)", tinyDisk,
         .generated(prefix: Data(), pattern: media.prefix(1000), totalBytes: Int64(media.count), contentType: "audio/mpeg",
                    announced: false),
         "The disk is full."),
        ("read-only downloads folder", readOnly, .serve(media, contentType: "audio/mpeg"), "cannot be written"),
    ]

    @Test("each fault fails with its reason, records the download failed, and a later download completes",
          arguments: cases.indices)
    func fault(_ index: Int) async throws {
        let (name, mounts, behaviour, message) = Self.cases[index]
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml", .document(PodcastFeedWriter(title: "Full", episodes: 1, mediaBase: server.url("")).data(),
                                            contentType: "text/xml"))
        server.route("/full/1.mp3", behaviour)
        let cli = try LibraryCLI()
        #expect(try await cli.run(["subscribe", server.url("/feed.xml")]).status == 0)

        let result = try await cli.run(["download", "1"], withMounts: mounts)

        #expect(result.status == 1, "\(name): \(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.contains(message), "\(name): \(result.standardError)")
        let files = result.standardOutput.components(separatedBy: "::files::\n").last?
            .split(separator: "\n").map(String.init) ?? []
        #expect(!files.contains { !$0.split(separator: "/").contains { $0.hasPrefix(".") } },
                "\(name): visible files \(files)")
        let episode = try #require(try await cli.episodes().first)
        #expect(episode["download"] as? String == "failed", "\(name): \(episode)")

        server.route("/full/1.mp3", .serve(Self.media, contentType: "audio/mpeg"))
        let retry = try await cli.run(["download", "1"])
        #expect(retry.status == 0, "\(name): \(retry.standardError)")
        let path = retry.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.media, "\(name)")
        #expect(try await cli.episodes().first?["download"] as? String == "complete", "\(name)")
    }
}
