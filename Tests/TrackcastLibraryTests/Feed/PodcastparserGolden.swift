import Foundation
import Testing

/// One of podcastparser 0.6.11's golden pairs in Fixtures/podcastparser: the
/// feed, the output podcastparser produced for it, and its extra arguments.
struct PodcastparserGolden: CustomTestStringConvertible, Sendable {
    let name: String

    var testDescription: String { name }

    /// Every `X.rss` that has an `X.json`, found at run time so a new pair is a new test case.
    static let all: [PodcastparserGolden] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files
            .filter { $0.hasSuffix(".rss") && files.contains(String($0.dropLast(4)) + ".json") }
            .map { PodcastparserGolden(name: String($0.dropLast(4))) }
            .sorted { $0.name < $1.name }
    }()

    static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/podcastparser")
    }

    /// The URL podcastparser was given; relative links resolve against it.
    var feedURL: URL { URL(string: "file://tests/data/\(name).rss")! }

    func input() throws -> Data {
        try Data(contentsOf: Self.directory.appendingPathComponent(name + ".rss"))
    }

    /// podcastparser's output. Where a JSON file repeats a key, the last one
    /// counts, as it did for Python's `json` that wrote the expectations.
    func expected() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(name + ".json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// `max_episodes` from `X.param.json`, if there is one.
    func maxEpisodes() throws -> Int? {
        let url = Self.directory.appendingPathComponent(name + ".param.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let parameters = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        return parameters?["max_episodes"] as? Int
    }
}
