import Foundation
import Testing
import TestSupport
@testable import TrackcastLibrary

/// One table of what a misbehaving server can do to a download. Each fault
/// must end classified, with the library saying "failed" (never "complete"),
/// no file under a visible name, and nothing lost: once the server behaves,
/// downloading again gives the whole file, resumed with a Range request from
/// what the failed attempt kept.
@Suite("Download faults, one table")
struct DownloadFaultTests {
    static let media = DownloadHarness.media(300_000)
    static let type = "audio/mpeg"

    enum Expected: Sendable {
        case failed(DownloadError.Kind)
        /// The server announced fewer bytes than it sent: those are all a
        /// client can know of, so the download completes with them.
        case completeWith(bytes: Int)
    }

    static let cases: [(String, TestHTTPServer.Behaviour?, Expected)] = [
        ("connection refused", nil, .failed(.network)),
        ("stall before headers", .stall, .failed(.timeout)),
        ("stall mid-body", .stallAfter(bytes: 120_000, media, contentType: type), .failed(.timeout)),
        ("connection closed mid-body", .truncated(media, contentType: type, fraction: 0.4), .failed(.incomplete)),
        ("Content-Length larger than the body", .lyingLength(media, contentType: type, announcedLength: media.count * 2),
         .failed(.incomplete)),
        ("Content-Length smaller than the body", .lyingLength(media, contentType: type, announcedLength: media.count / 2),
         .completeWith(bytes: media.count / 2)),
        ("a petabyte announced", .generated(prefix: Data(), pattern: media.prefix(4096), totalBytes: 1 << 50,
                                            contentType: type, announced: true), .failed(.diskFull)),
        ("404", .status(404), .failed(.httpStatus)),
        ("410", .status(410), .failed(.httpStatus)),
        ("500", .status(500), .failed(.httpStatus)),
        ("redirect loop", .redirect(302, to: "/episode.mp3"), .failed(.tooManyRedirects)),
    ]

    @Test("each fault is classified, recorded failed, leaves no visible file and loses nothing",
          arguments: cases.indices)
    func fault(_ index: Int) async throws {
        let (name, behaviour, expected) = Self.cases[index]
        let harness = try await DownloadHarness(episodes: [(title: "Faulty", path: "/episode.mp3", type: Self.type)])
        let episode = try await harness.episodeIDs()[0]
        // A port nothing listens on, held, not just read from: it refuses only while this lives.
        let refused = try RefusingPort(address: "127.0.0.4")
        defer { withExtendedLifetime(refused) {} }
        if let behaviour {
            harness.server.route("/episode.mp3", behaviour)
        } else {
            try await Self.moveEnclosure(of: episode, in: harness, to: refused.url("/episode.mp3"))
        }

        let outcome: Result<URL, DownloadError>
        do {
            outcome = .success(try await harness.downloader.download(episode))
        } catch let error as DownloadError {
            outcome = .failure(error)
        }

        let record = try #require(try await harness.store.download(for: episode), "\(name)")
        switch (expected, outcome) {
        case (.failed(let kind), .failure(let error)):
            #expect(error.kind == kind, "\(name): \(error)")
            #expect(record.state == .failed, "\(name): \(record)")
            #expect(record.error == error.errorDescription && record.error?.isEmpty == false, "\(name): \(record)")
            #expect(await harness.store.localFile(for: episode) == nil, "\(name)")
            #expect(Self.visibleFiles(in: harness).isEmpty, "\(name): \(Self.visibleFiles(in: harness))")
        case (.completeWith(let bytes), .success(let file)):
            #expect(record.state == .complete && Downloader.size(of: file) == Int64(bytes), "\(name): \(record)")
            return
        default:
            Issue.record("\(name): expected \(expected), got \(outcome)")
            return
        }
        // What the failed attempt kept is a prefix of the file, never more.
        let kept = Int(Downloader.size(of: harness.partialFile(episode)))
        #expect(kept <= Self.media.count && (try? Data(contentsOf: harness.partialFile(episode))) ?? Data() == Self.media.prefix(kept),
                "\(name): the partial file is not a prefix of the media")

        // Nothing lost: once the server behaves, the download completes, resuming what was kept.
        harness.server.route("/episode.mp3", .document(Self.media, contentType: Self.type, etag: "\"v1\""))
        if behaviour == nil { try await Self.moveEnclosure(of: episode, in: harness, to: harness.server.url("/episode.mp3")) }
        let file = try await harness.downloader.download(episode)
        #expect(try Data(contentsOf: file) == Self.media, "\(name)")
        #expect(try await harness.store.download(for: episode)?.state == .complete, "\(name)")
        if kept > 0 {
            #expect(harness.server.log(for: "/episode.mp3").last?.headers["range"] == "bytes=\(kept)-", "\(name)")
        }
    }

    /// Files a person would see in the downloads folder (the partial files are hidden).
    static func visibleFiles(in harness: DownloadHarness) -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: harness.downloader.directory.path)) ?? []
        return all.filter { path in
            !path.split(separator: "/").contains { $0.hasPrefix(".") }
                && !((try? FileManager.default.attributesOfItem(atPath: harness.downloader.directory.appendingPathComponent(path).path)[.type]
                    as? FileAttributeType) == .typeDirectory)
        }
    }

    /// Points the episode's enclosure at `url`, as a feed update would.
    static func moveEnclosure(of episode: EpisodeID, in harness: DownloadHarness, to url: String) async throws {
        let feed = Feed(title: "Download Show", episodes: [
            FeedEpisode(guid: "e0", title: "Faulty", published: SampleFeed.date(day: 100),
                        enclosures: [FeedEnclosure(url: URL(string: url)!, mimeType: type)]),
        ])
        try await harness.store.apply(feed: feed, fetchedFrom: URL(string: "https://feeds.example.org/downloads.xml")!,
                                      etag: nil, lastModified: nil)
        #expect(try await harness.store.episode(episode)?.enclosures.first?.url.absoluteString == url)
    }
}
