import Foundation
@testable import TrackcastLibrary

/// A fresh directory under the system's temporary directory, removed when the
/// value goes away: keep it in a variable for as long as a database in it is open.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackcast-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databaseURL: URL { url.appendingPathComponent(LibraryStore.databaseFileName) }

    /// A second connection to the library file, as another process would have.
    func openConnection() throws -> SQLiteConnection {
        try SQLiteConnection(path: databaseURL.path)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Small feeds for the store tests.
enum SampleFeed {
    static let url = URL(string: "https://feeds.example.org/show.xml")!
    static let otherURL = URL(string: "https://feeds.example.org/other.xml")!

    /// Day `day` after 2024-01-01.
    static func date(day: Int) -> Date {
        Date(timeIntervalSince1970: 1_704_067_200 + TimeInterval(day) * 86_400)
    }

    static func episode(_ number: Int, guid: String? = nil, title: String? = nil,
                        enclosure: String? = nil) -> FeedEpisode {
        FeedEpisode(guid: guid ?? "guid-\(number)",
                    title: title ?? "Episode \(number)",
                    published: date(day: number),
                    duration: 1800,
                    description: "About episode \(number).",
                    enclosures: [FeedEnclosure(url: URL(string: enclosure ?? "https://media.example.org/\(number).mp3")!,
                                               mimeType: "audio/mpeg", length: 1_000_000)])
    }

    /// A feed listing `numbers` newest first, as feeds usually do.
    static func feed(_ numbers: ClosedRange<Int>, title: String = "A Show") -> Feed {
        Feed(title: title, episodes: numbers.reversed().map { episode($0) })
    }
}

extension SQLiteConnection {
    func count(_ table: String) throws -> Int {
        try queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1
    }
}
