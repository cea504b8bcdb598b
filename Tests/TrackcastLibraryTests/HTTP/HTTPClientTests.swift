import Foundation
import TestSupport
import Testing
@testable import TrackcastLibrary

/// `HTTPClient` follows redirects itself, hop by hop (libcurl's following is
/// off so that each hop's status is seen): what each hop sends is checked
/// here against a real server on loopback.
@Suite("HTTP client: redirects and request headers")
struct HTTPClientTests {
    private let client = HTTPClient(userAgent: "Trackcast-test")
    private let timeouts = HTTPTimeouts(connect: .seconds(10), total: .seconds(20))

    /// Answers with the request's method and body, and logs them.
    private static func echo() -> TestHTTPServer.Behaviour {
        .handler { request in
            TestHTTPServer.HandledResponse(status: 200, body: Data("\(request.method) \(String(decoding: request.body, as: UTF8.self))".utf8))
        }
    }

    private func post(_ url: String, headers: [String: String] = [:]) async throws -> (HTTPResponseHead, String) {
        let body = ResponseBodyBuffer(limit: 1 << 20)
        let head = try await client.send("POST", URL(string: url)!, headers: headers.merging(["Content-Type": "text/plain"]) { old, _ in old },
                                         body: Data("payload".utf8), timeouts: timeouts, receiver: body)
        return (head, String(decoding: body.data, as: UTF8.self))
    }

    @Test("303, and 301 or 302 after a POST, continue as a GET without the body; 307 and 308 repeat the POST",
          arguments: [(301, "GET "), (302, "GET "), (303, "GET "), (307, "POST payload"), (308, "POST payload")])
    func methodAfterRedirect(status: Int, expected: String) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/upload", .redirect(status, to: "/answer"))
        server.route("/answer", Self.echo())
        let (head, answer) = try await post(server.url("/upload"))
        #expect(head.status == 200)
        #expect(answer == expected)
        #expect(head.url.absoluteString == server.url("/answer"))
        #expect(head.redirects.map(\.status) == [status])
        #expect(server.log(for: "/answer").first?.headers["content-type"] == (expected.hasPrefix("GET") ? nil : "text/plain"))
    }

    @Test("credentials follow a redirect on the same server, not one to another")
    func credentialsStayWithTheirOrigin() async throws {
        let first = try TestHTTPServer(address: "127.0.0.1")
        let second = try TestHTTPServer(address: "127.0.0.2")
        defer { first.stop(); second.stop() }
        first.route("/here", .redirect(307, to: "/there"))
        first.route("/there", Self.echo())
        first.route("/away", .redirect(307, to: second.url("/there")))
        second.route("/there", Self.echo())
        let authorization = ["Authorization": "Basic dXNlcjpwYXNz"]
        _ = try await post(first.url("/here"), headers: authorization)
        _ = try await post(first.url("/away"), headers: authorization)
        #expect(first.log(for: "/there").first?.headers["authorization"] == "Basic dXNlcjpwYXNz")
        let elsewhere = try #require(second.log(for: "/there").first)
        #expect(elsewhere.headers["authorization"] == nil)
        #expect(elsewhere.method == "POST")
    }

    @Test("a redirect off the web (file:, ftp:) fails as a network error, and nothing is fetched")
    func redirectOffTheWeb() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/file", .redirect(302, to: "file:///etc/passwd"))
        server.route("/ftp", .redirect(302, to: "ftp://127.0.0.1/feed.xml"))
        for path in ["/file", "/ftp"] {
            await #expect(throws: HTTPError.network("The server redirected to an address that is not on the web.")) {
                _ = try await client.get(URL(string: server.url(path))!, timeouts: timeouts, receiver: ResponseBodyBuffer(limit: 1024))
            }
        }
        #expect(server.log.count == 2)
    }

    @Test("a header value that would end its line is not sent; the others are")
    func lineBreaksInHeaders() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/feed.xml", Self.echo())
        let headers = ["If-None-Match": "\"v1\"\r\nX-Injected: yes", "X-Plain": "kept", "X-Empty": ""]
        _ = try await client.get(URL(string: server.url("/feed.xml"))!, headers: headers, timeouts: timeouts,
                                 receiver: ResponseBodyBuffer(limit: 1024))
        let sent = try #require(server.log.first).headers
        #expect(sent["x-injected"] == nil)
        #expect(sent["if-none-match"] == nil)
        #expect(sent["x-plain"] == "kept")
        #expect(sent["x-empty"] == "")
        #expect(sent["user-agent"] == "Trackcast-test")
    }

    @Test("response headers: any case, spaces around, repeated ones joined, folded lines continued")
    func responseHeaders() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        // Each value may carry raw lines of its own: the server writes "name: value" and a line end.
        server.route("/feed.xml", .handler { _ in
            TestHTTPServer.HandledResponse(status: 200, headers: [
                "ETAG": "  \"v1\" \t",
                "X-Twice": "first\r\nx-TWICE:second",
                "X-Folded": "one\r\n \ttwo ",
                "X-Odd": "caf\u{E9}",
            ], body: Data("ok".utf8))
        })
        let head = try await client.get(URL(string: server.url("/feed.xml"))!, timeouts: timeouts,
                                        receiver: ResponseBodyBuffer(limit: 1024))
        #expect(head.headers["etag"] == "\"v1\"")
        #expect(head[header: "ETag"] == "\"v1\"")
        #expect(head.headers["x-twice"] == "first, second")
        #expect(head.headers["x-folded"] == "one two")
        #expect(head.headers["x-odd"] == "caf\u{E9}")
    }

    @Test("a relative Location with a space resolves against the request's URL, the space escaped")
    func relativeLocation() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/shows/old.xml", .redirect(301, to: "new feed.xml"))
        server.route("/shows/new%20feed.xml", Self.echo())
        let head = try await client.get(URL(string: server.url("/shows/old.xml"))!, timeouts: timeouts,
                                        receiver: ResponseBodyBuffer(limit: 1024))
        #expect(head.status == 200)
        #expect(head.permanentURL?.absoluteString == server.url("/shows/new%20feed.xml"))
    }
}
