import Foundation
import Synchronization

/// A link of a parsed feed, as the `URL` its field shows: most of a feed's
/// links are absolute web addresses that `URL(string:)` takes just as they
/// are written (`FeedURLResolver.AbsoluteWebAddress.verbatim`), and those are
/// kept as their text, the `URL` made the first time it is asked for. Making
/// a `URL` costs some 4,000 instructions, most of a realistic episode's links
/// are never asked for by a parse whose feed is only printed or compared by
/// digest, and the address is its `absoluteString` as it stands.
///
/// Equal, encoded and decoded exactly as the `URL` it stands for.
struct FeedLink: Sendable, Equatable, Codable {
    private enum Form: Sendable {
        case made(URL)
        case deferred(DeferredURL)
    }

    private let form: Form

    init(_ url: URL) {
        form = .made(url)
    }

    /// `address` must be one `FeedURLResolver.absoluteWebAddress` calls `.verbatim`.
    init(verbatimWebAddress address: String) {
        form = .deferred(DeferredURL(address))
    }

    var url: URL {
        switch form {
        case .made(let url): url
        case .deferred(let deferred): deferred.url
        }
    }

    /// `url.absoluteString`, without making the URL of a verbatim address.
    var absoluteString: String {
        switch form {
        case .made(let url): url.absoluteString
        case .deferred(let deferred): deferred.address
        }
    }

    static func == (lhs: FeedLink, rhs: FeedLink) -> Bool {
        // Two verbatim addresses are their URLs' `relativeString`s, which URL compares.
        if case .deferred(let left) = lhs.form, case .deferred(let right) = rhs.form {
            return left.address == right.address
        }
        return lhs.url == rhs.url
    }

    init(from decoder: any Decoder) throws {
        form = .made(try decoder.singleValueContainer().decode(URL.self))
    }

    /// As the `URL` itself: a JSON encoder writes its string, `DigestEncoder` hashes what the URL encodes.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(url)
    }
}

/// A verbatim web address and, once asked for, its `URL`. Episodes are
/// `Sendable` and may be read on several threads: the URL is made under a lock.
private final class DeferredURL: Sendable {
    let address: String
    private let made = Mutex<URL?>(nil)
    private static let nowhere = URL(string: "about:blank")!

    init(_ address: String) {
        self.address = address
    }

    var url: URL {
        made.withLock { made in
            if let made { return made }
            // `FeedURLResolver` calls verbatim only addresses `URL(string:)` takes as they
            // stand (tested and fuzzed); should one slip through, the link leads nowhere
            // rather than ending the app, and debug builds (the tests, the fuzzer) stop.
            guard let url = URL(string: address) else {
                assertionFailure("not a verbatim web address: \(address)")
                return Self.nowhere
            }
            made = url
            return url
        }
    }
}
