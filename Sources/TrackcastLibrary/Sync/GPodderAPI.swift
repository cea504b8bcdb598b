import Foundation
import Synchronization

/// The requests of the gpodder.net API v2 and of Nextcloud's GPodder Sync,
/// over `HTTPClient`. Answers are untrusted: each is read for exactly the
/// fields the API documents, and anything else is `SyncError.malformedAnswer`.
///
/// gpodder.net logs in once with Basic auth and then sends the session
/// cookie it set; a 401 on the cookie logs in again, once. Nextcloud takes
/// Basic auth (an app password) on every request.
public final class GPodderAPI: Sendable {
    public let account: SyncAccount
    private let password: String
    private let client: HTTPClient
    private let session = Mutex<String?>(nil)
    private let requestCount = Mutex(0)
    static let timeouts = HTTPTimeouts(connect: .seconds(20), total: .seconds(120), idle: .seconds(30))
    /// 20,000 actions are about 5 MB of JSON; a server that sends more than this is not answering the API.
    static let answerLimit: Int64 = 64 << 20

    public init(account: SyncAccount, password: String, client: HTTPClient) {
        self.account = account
        self.password = password
        self.client = client
    }

    /// Whether this API object logs in with `password` (a changed password needs a new one).
    func matches(password: String) -> Bool { self.password == password }

    /// How many HTTP requests this API object made (for the benchmark).
    public var requests: Int { requestCount.withLock { $0 } }

    /// Which kind of server `server` is, by what it answers: gpodder.net's
    /// login, else GPodder Sync's subscriptions.
    public static func detectKind(server: URL, user: String, password: String,
                                  client: HTTPClient) async throws(SyncError) -> SyncServerKind {
        let probe = GPodderAPI(account: SyncAccount(server: server, user: user, device: "probe", kind: .gpodder),
                               password: password, client: client)
        switch try await probe.raw("POST", probe.gpodderPath("auth", "login.json"), body: nil, authorization: .basic) {
        case (200..<300, _, _): return .gpodder
        case (401, _, _): throw .unauthorized
        default: break
        }
        let nextcloud = GPodderAPI(account: SyncAccount(server: server, user: user, device: "probe", kind: .nextcloud),
                                   password: password, client: client)
        switch try await nextcloud.raw("GET", nextcloud.nextcloudPath("subscriptions", query: "since=0"), body: nil,
                                       authorization: .basic) {
        case (200..<300, _, _): return .nextcloud
        case (401, _, _): throw .unauthorized
        default: throw .notASyncServer
        }
    }

    /// gpodder.net: registers (or updates) this device. Nextcloud has no devices.
    public func registerDevice(caption: String) async throws(SyncError) {
        guard account.kind == .gpodder else { return }
        _ = try await requestObjectOrEmpty("POST", gpodderPath("devices", "\(account.device).json"),
                                           json: ["caption": caption, "type": "desktop"])
    }

    /// Subscription changes since `since`, and the timestamp to ask from next time.
    public func subscriptions(since: Int64) async throws(SyncError) -> SubscriptionChanges {
        let url = switch account.kind {
        case .gpodder: gpodderPath("subscriptions", "\(account.device).json", query: "since=\(since)")
        case .nextcloud: nextcloudPath("subscriptions", query: "since=\(since)")
        }
        let object = try await requestObject("GET", url, json: nil)
        guard let timestamp = SyncTimestamp.since(object["timestamp"]) else { throw .malformedAnswer("timestamp") }
        return SubscriptionChanges(add: try Self.urls(object["add"], "add"), remove: try Self.urls(object["remove"], "remove"),
                                   timestamp: timestamp)
    }

    /// Sends subscription changes; returns the URL rewrites the server made (gpodder.net's `update_urls`).
    public func sendSubscriptions(add: [String], remove: [String]) async throws(SyncError) -> [(old: String, new: String)] {
        let url = switch account.kind {
        case .gpodder: gpodderPath("subscriptions", "\(account.device).json")
        case .nextcloud: nextcloudPath("subscription_change/create")
        }
        let object = try await requestObject("POST", url, json: ["add": add, "remove": remove])
        return try Self.rewrites(object["update_urls"])
    }

    /// Episode actions since `since` (aggregated: the newest per episode), the
    /// ones that read as actions, how many did not, and the next timestamp.
    /// Those `skippingDevice` sent are dropped unread: after a big upload
    /// they are most of the answer, and only a crashed upload needs them.
    public func actions(since: Int64, skippingDevice: String? = nil)
        async throws(SyncError) -> (actions: [EpisodeAction], unreadable: Int, timestamp: Int64) {
        let url = switch account.kind {
        case .gpodder: gpodderPath("episodes", query: "since=\(since)&aggregated=true")
        case .nextcloud: nextcloudPath("episode_action", query: "since=\(since)")
        }
        let object = try await requestObject("GET", url, json: nil)
        guard let timestamp = SyncTimestamp.since(object["timestamp"]) else { throw .malformedAnswer("timestamp") }
        guard var list = object["actions"] as? [Any] else { throw .malformedAnswer("actions") }
        if let skippingDevice {
            list.removeAll { (($0 as? [String: Any])?["device"] as? String) == skippingDevice }
        }
        let actions = list.compactMap(EpisodeAction.init(json:))
        return (actions, list.count - actions.count, timestamp)
    }

    /// Sends episode actions; returns the URL rewrites the server made.
    public func sendActions(_ actions: [EpisodeAction]) async throws(SyncError) -> [(old: String, new: String)] {
        let url = switch account.kind {
        case .gpodder: gpodderPath("episodes")
        case .nextcloud: nextcloudPath("episode_action/create")
        }
        let object = try await requestObject("POST", url, body: EpisodeActionsJSON.encode(actions, device: account.device))
        return try Self.rewrites(object["update_urls"])
    }

    // MARK: Requests

    /// A request whose answer's body is not read (gpodder.net answers a device update with an empty 200).
    private func requestObjectOrEmpty(_ method: String, _ url: URL, json: Any) async throws(SyncError) {
        let body: Data
        do { body = try JSONSerialization.data(withJSONObject: json) } catch { throw .malformedAnswer("request") }
        _ = try await request(method, url, body: body)
    }

    private enum Authorization { case basic, session }

    private func requestObject(_ method: String, _ url: URL, json: Any?) async throws(SyncError) -> [String: Any] {
        let body: Data?
        do { body = try json.map { try JSONSerialization.data(withJSONObject: $0) } } catch {
            throw .malformedAnswer("request")
        }
        return try await requestObject(method, url, body: body)
    }

    private func requestObject(_ method: String, _ url: URL, body: Data?) async throws(SyncError) -> [String: Any] {
        let data = try await request(method, url, body: body)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .malformedAnswer("not a JSON object")
        }
        return object
    }

    /// One API request: gpodder.net logs in first if it has no session, and
    /// again once if the session was refused.
    private func request(_ method: String, _ url: URL, body: Data?) async throws(SyncError) -> Data {
        if account.kind == .nextcloud {
            return try Self.checked(try await raw(method, url, body: body, authorization: .basic))
        }
        if session.withLock({ $0 }) == nil { try await logIn() }
        let answer = try await raw(method, url, body: body, authorization: .session)
        guard answer.status == 401 else { return try Self.checked(answer) }
        try await logIn()
        return try Self.checked(try await raw(method, url, body: body, authorization: .session))
    }

    private func logIn() async throws(SyncError) {
        let answer = try await raw("POST", gpodderPath("auth", "login.json"), body: nil, authorization: .basic)
        _ = try Self.checked(answer)
        // The cookie is the session; without one, Basic auth goes on every request.
        session.withLock { $0 = answer.cookie ?? "" }
    }

    private static func checked(_ answer: (status: Int, body: Data, cookie: String?)) throws(SyncError) -> Data {
        switch answer.status {
        case 200..<300: return answer.body
        case 401: throw .unauthorized
        default: throw .status(answer.status)
        }
    }

    private func raw(_ method: String, _ url: URL, body: Data?,
                     authorization: Authorization) async throws(SyncError) -> (status: Int, body: Data, cookie: String?) {
        var headers = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let cookie = authorization == .session ? session.withLock { $0 } : nil
        if let cookie, !cookie.isEmpty {
            headers["Cookie"] = cookie
        } else {
            headers["Authorization"] = "Basic " + Data("\(account.user):\(password)".utf8).base64EncodedString()
        }
        requestCount.withLock { $0 += 1 }
        let buffer = ResponseBodyBuffer(limit: Self.answerLimit)
        do {
            let head = try await client.send(method, url, headers: headers, body: body, timeouts: Self.timeouts,
                                             receiver: buffer)
            return (head.status, buffer.data, Self.sessionCookie(head[header: "set-cookie"]))
        } catch let error as HTTPError {
            throw .network(error)
        } catch {
            throw .network(.network(String(describing: error)))
        }
    }

    /// "sessionid=abc; Path=/; HttpOnly" → "sessionid=abc".
    private static func sessionCookie(_ header: String?) -> String? {
        guard let header else { return nil }
        for cookie in header.split(separator: ",") {
            let pair = cookie.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix("sessionid="), pair.count <= 4096 { return pair }
        }
        return nil
    }

    private func gpodderPath(_ resource: String, _ last: String? = nil, query: String? = nil) -> URL {
        let user = Self.escaped(account.user)
        let path = "api/2/\(resource)/\(user)" + (last.map { "/" + Self.escaped($0) } ?? ".json")
        return url(path, query: query)
    }

    private func nextcloudPath(_ path: String, query: String? = nil) -> URL {
        url("index.php/apps/gpoddersync/" + path, query: query)
    }

    private func url(_ path: String, query: String?) -> URL {
        var base = account.server.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + path + (query.map { "?" + $0 } ?? "")) ?? account.server
    }

    private static func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }

    private static func urls(_ value: Any?, _ field: String) throws(SyncError) -> [String] {
        guard let list = value as? [Any] else { throw .malformedAnswer(field) }
        return list.compactMap { ($0 as? String).flatMap { $0.isEmpty || $0.utf8.count > 4096 ? nil : $0 } }
    }

    private static func rewrites(_ value: Any?) throws(SyncError) -> [(old: String, new: String)] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw .malformedAnswer("update_urls") }
        return list.compactMap { pair in
            guard let pair = pair as? [Any], pair.count == 2, let old = pair[0] as? String, let new = pair[1] as? String,
                  !old.isEmpty, !new.isEmpty, old != new else { return nil }
            return (old, new)
        }
    }
}
