import Foundation
import TrackcastLibrary

/// The hand-written feeds in Fixtures/feeds.
enum FeedFixture {
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: Bundle.module.resourceURL!.appendingPathComponent("Fixtures/feeds/" + name))
    }

    /// Parses a fixture as if downloaded from https://example.com/podcast/NAME.
    static func parse(_ name: String, contentType: String? = nil, options: FeedParser.Options = .init()) throws -> Feed {
        try FeedParser(options: options).parse(try data(name), url: url(name), httpContentType: contentType)
    }

    static func url(_ name: String) -> URL {
        URL(string: "https://example.com/podcast/" + name)!
    }
}

extension URL {
    /// Test shorthand: a URL literal the test knows is valid.
    init(_ string: StaticString) {
        self.init(string: "\(string)")!
    }
}
