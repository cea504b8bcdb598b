import Foundation

/// One request as the client sends it, and as it becomes when a redirect is
/// followed: where it goes, with which method, headers and body.
struct HTTPRequest: Sendable {
    var method: String
    var url: URL
    /// In the order given; names as the caller spelled them.
    var headers: [(name: String, value: String)]
    var body: Data?

    /// The request that follows a redirect to `target`, the way browsers and
    /// curl do it: 303 turns anything but HEAD into a GET, and 301 and 302
    /// turn a POST into one (so a sync upload is not sent twice to a place
    /// that did not ask for it); 307 and 308 keep method and body. Credentials
    /// stay with the origin they were given for.
    func redirected(to target: URL, status: Int) -> HTTPRequest {
        var next = self
        next.url = target
        let becomesGET = (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST")
        if becomesGET {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        if !Self.isSameOrigin(url, target) {
            next.headers.removeAll { ["authorization", "cookie"].contains($0.name.lowercased()) }
        }
        return next
    }

    private static func isSameOrigin(_ one: URL, _ other: URL) -> Bool {
        one.scheme?.lowercased() == other.scheme?.lowercased() && one.host?.lowercased() == other.host?.lowercased()
            && one.port == other.port
    }
}
