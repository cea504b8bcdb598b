import Foundation
import Synchronization

/// A sync server for the tests, on loopback: gpodder.net's API v2 or
/// Nextcloud's GPodder Sync, as their documentation describes them, strictly:
/// Basic auth and the session cookie, 401 without them, 400 for a body that
/// is not the JSON asked for, 404 for the other kind's paths, 405 for the
/// wrong method. Timestamps are a counter that moves with every change, so
/// `since` is exact. The test drives another device directly (`subscribe`,
/// `play`, …) and breaks the server on purpose (`failNext`, `holdActionsAnswer`).
public final class GPodderTestServer: Sendable {
    public enum Kind: Sendable { case gpodder, nextcloud }

    /// One stored episode action, as sent.
    public struct StoredAction: Sendable {
        public let timestamp: Int64
        public let object: [String: String]
        public let numbers: [String: Double]
        public var device: String? { object["device"] }
        public var episode: String? { object["episode"] }
        public var position: Double? { numbers["position"] }
    }

    /// A request as it came, for replaying it with another client.
    public struct Exchange: Sendable {
        public let method: String
        /// The path and query as sent.
        public let target: String
        public let body: Data
    }

    private struct SubscriptionEvent {
        let timestamp: Int64
        let url: String
        let added: Bool
    }

    private struct State {
        var password: String
        var sessions: Set<String> = []
        var devices: [String: String] = [:]
        var clock: Int64 = 1_700_000_000
        var subscriptionEvents: [SubscriptionEvent] = []
        var actions: [StoredAction] = []
        var rewrites: [String: String] = [:]
        var failures: [Int] = []
        var actionPostFailures: [Int] = []
        var holdActionsAnswer = false
        var requests = 0
        var exchanges: [Exchange] = []
    }

    public let kind: Kind
    public let user: String
    public let http: TestHTTPServer
    private let state: Mutex<State>

    public init(kind: Kind, user: String = "alice", password: String = "secret") throws {
        self.kind = kind
        self.user = user
        http = try TestHTTPServer()
        state = Mutex(State(password: password))
        http.routeEverythingElse(.handler { [weak self] request in
            self?.answer(request) ?? TestHTTPServer.HandledResponse(status: 503)
        })
    }

    public func stop() {
        state.withLock { $0.holdActionsAnswer = false }
        http.stop()
    }

    /// The address a client logs in to.
    public var url: String { http.url("") }

    // MARK: What the test does as the other device, and reads back

    public func subscribe(_ urls: [String]) { change(urls, added: true) }
    public func unsubscribe(_ urls: [String]) { change(urls, added: false) }

    /// Another device's play action; `timestamp` in UTC ISO 8601.
    public func play(podcast: String, episode: String, guid: String? = nil, position: Int, total: Int,
                     timestamp: String, device: String = "phone") {
        var object = ["podcast": podcast, "episode": episode, "action": "play", "timestamp": timestamp, "device": device]
        object["guid"] = guid
        store([(object, ["started": 0, "position": Double(position), "total": Double(total)])])
    }

    /// The subscriptions as they stand.
    public var subscriptions: Set<String> {
        state.withLock { state in
            var current = Set<String>()
            for event in state.subscriptionEvents {
                if event.added { current.insert(event.url) } else { current.remove(event.url) }
            }
            return current
        }
    }

    public var actions: [StoredAction] { state.withLock { $0.actions } }
    public var devices: [String: String] { state.withLock { $0.devices } }
    public var requestCount: Int { state.withLock { $0.requests } }
    /// Every request so far, in order.
    public var exchanges: [Exchange] { state.withLock { $0.exchanges } }

    /// The next requests answer these statuses, in order, whatever they ask.
    public func failNext(_ statuses: [Int]) { state.withLock { $0.failures = statuses } }
    /// The next episode-action POSTs answer these statuses, storing nothing.
    public func failNextActionPosts(_ statuses: [Int]) { state.withLock { $0.actionPostFailures = statuses } }
    public func setPassword(_ password: String) { state.withLock { $0.password = password; $0.sessions = [] } }
    public func forgetSessions() { state.withLock { $0.sessions = [] } }
    /// The server rewrites `old` to `new` when it is sent (`update_urls`).
    public func rewrite(_ old: String, to new: String) { state.withLock { $0.rewrites[old] = new } }
    /// An episode-actions POST stores its actions, then holds its answer
    /// until this is set false again (a client killed in between).
    public func holdActionsAnswer(_ hold: Bool) { state.withLock { $0.holdActionsAnswer = hold } }

    // MARK: The API

    private typealias Response = TestHTTPServer.HandledResponse

    private func answer(_ request: TestHTTPServer.HandledRequest) -> Response {
        let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let failure = state.withLock { state -> Int? in
            state.requests += 1
            state.exchanges.append(Exchange(method: request.method, target: request.path + (query.isEmpty ? "" : "?" + query),
                                            body: request.body))
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if let failure { return Response(status: failure) }
        switch kind {
        case .gpodder: return gpodder(request)
        case .nextcloud: return nextcloud(request)
        }
    }

    private func gpodder(_ request: TestHTTPServer.HandledRequest) -> Response {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0] == "api", parts[1] == "2" else { return Response(status: 404) }
        let resource = parts[2]
        if resource == "auth", parts.count == 5, parts[3] == user, parts[4] == "login.json" {
            guard request.method == "POST" else { return Response(status: 405) }
            guard basicAuthorized(request) else { return Response(status: 401) }
            let session = UUID().uuidString.replacingOccurrences(of: "-", with: "")
            state.withLock { _ = $0.sessions.insert(session) }
            return Response(status: 200, headers: ["Set-Cookie": "sessionid=\(session); Path=/; HttpOnly"])
        }
        guard authorized(request) else { return Response(status: 401) }
        switch (resource, parts.count) {
        case ("devices", 5) where parts[3] == user && parts[4].hasSuffix(".json"):
            guard request.method == "POST" else { return Response(status: 405) }
            let device = String(parts[4].dropLast(5))
            guard Self.validDevice(device), let object = Self.object(request.body) else { return Response(status: 400) }
            state.withLock { $0.devices[device] = object["caption"] as? String ?? "" }
            return Response(status: 200)
        case ("subscriptions", 5) where parts[3] == user && parts[4].hasSuffix(".json"):
            guard Self.validDevice(String(parts[4].dropLast(5))) else { return Response(status: 400) }
            return subscriptions(request)
        case ("episodes", 4) where parts[3] == "\(user).json":
            return episodes(request)
        default:
            return Response(status: parts.count >= 4 && !parts[3].hasPrefix(user) ? 401 : 404)
        }
    }

    private func nextcloud(_ request: TestHTTPServer.HandledRequest) -> Response {
        let prefix = "/index.php/apps/gpoddersync/"
        guard request.path.hasPrefix(prefix) else { return Response(status: 404) }
        guard basicAuthorized(request) else { return Response(status: 401) }
        switch (String(request.path.dropFirst(prefix.count)), request.method) {
        case ("subscriptions", "GET"), ("subscription_change/create", "POST"): return subscriptions(request)
        case ("episode_action", "GET"), ("episode_action/create", "POST"): return episodes(request)
        case ("subscriptions", _), ("subscription_change/create", _), ("episode_action", _), ("episode_action/create", _):
            return Response(status: 405)
        default: return Response(status: 404)
        }
    }

    private func subscriptions(_ request: TestHTTPServer.HandledRequest) -> Response {
        switch request.method {
        case "GET":
            guard let since = request.query["since"].map({ Int64($0) }) ?? 0 else { return Response(status: 400) }
            return state.withLock { state in
                var final: [String: Bool] = [:]
                for event in state.subscriptionEvents where event.timestamp > since { final[event.url] = event.added }
                return Self.json(["add": final.filter(\.value).keys.sorted(), "remove": final.filter { !$0.value }.keys.sorted(),
                                  "timestamp": state.clock])
            }
        case "POST":
            guard let object = Self.object(request.body), let add = object["add"] as? [String],
                  let remove = object["remove"] as? [String], Set(add).isDisjoint(with: remove) else {
                return Response(status: 400)
            }
            let rewritten = state.withLock { state in
                add.compactMap { url in state.rewrites[url].map { [url, $0] } }
                    + remove.compactMap { url in state.rewrites[url].map { [url, $0] } }
            }
            let rewrite = Dictionary(rewritten.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
            change(add.map { rewrite[$0] ?? $0 }, added: true)
            change(remove.map { rewrite[$0] ?? $0 }, added: false)
            return state.withLock { Self.json(["timestamp": $0.clock, "update_urls": rewritten]) }
        default:
            return Response(status: 405)
        }
    }

    private func episodes(_ request: TestHTTPServer.HandledRequest) -> Response {
        switch request.method {
        case "GET":
            guard let since = request.query["since"].map({ Int64($0) }) ?? 0 else { return Response(status: 400) }
            let aggregated = request.query["aggregated"] == "true" || kind == .nextcloud
            return state.withLock { state in
                var chosen = state.actions.filter { $0.timestamp > since }
                if aggregated {
                    var newest: [String: StoredAction] = [:]
                    for action in chosen {
                        let key = (action.object["podcast"] ?? "") + " " + (action.episode ?? "")
                        if let held = newest[key], (held.object["timestamp"] ?? "") > (action.object["timestamp"] ?? "") { continue }
                        newest[key] = action
                    }
                    chosen = newest.values.sorted { $0.timestamp < $1.timestamp }
                }
                let list: [[String: Any]] = chosen.map { action in
                    var object: [String: Any] = action.object
                    for (key, value) in action.numbers { object[key] = Int(value) }
                    return object
                }
                return Self.json(["actions": list, "timestamp": state.clock])
            }
        case "POST":
            if let failure = state.withLock({ $0.actionPostFailures.isEmpty ? nil : $0.actionPostFailures.removeFirst() }) {
                return Response(status: failure)
            }
            guard let list = (try? JSONSerialization.jsonObject(with: request.body)) as? [[String: Any]] else {
                return Response(status: 400)
            }
            var parsed: [([String: String], [String: Double])] = []
            for item in list {
                guard let podcast = item["podcast"] as? String, let episode = item["episode"] as? String,
                      let action = item["action"] as? String, ["play", "download", "delete", "new"].contains(action.lowercased())
                else { return Response(status: 400) }
                var object = ["podcast": podcast, "episode": episode, "action": action.lowercased()]
                for key in ["guid", "device", "timestamp"] { object[key] = item[key] as? String }
                if let timestamp = object["timestamp"], !Self.isTimestamp(timestamp) { return Response(status: 400) }
                var numbers: [String: Double] = [:]
                for key in ["started", "position", "total"] {
                    guard let value = item[key] else { continue }
                    guard let number = value as? Int else { return Response(status: 400) }
                    numbers[key] = Double(number)
                }
                if action == "play", numbers["position"] == nil { return Response(status: 400) }
                parsed.append((object, numbers))
            }
            store(parsed)
            while state.withLock({ $0.holdActionsAnswer }) { Thread.sleep(forTimeInterval: 0.02) }
            return state.withLock { Self.json(["timestamp": $0.clock, "update_urls": [[String]]()]) }
        default:
            return Response(status: 405)
        }
    }

    // MARK: State

    private func change(_ urls: [String], added: Bool) {
        state.withLock { state in
            guard !urls.isEmpty else { return }
            state.clock += 1
            for url in urls { state.subscriptionEvents.append(SubscriptionEvent(timestamp: state.clock, url: url, added: added)) }
        }
    }

    private func store(_ actions: [([String: String], [String: Double])]) {
        state.withLock { state in
            state.clock += 1
            for (object, numbers) in actions {
                state.actions.append(StoredAction(timestamp: state.clock, object: object, numbers: numbers))
            }
        }
    }

    private func basicAuthorized(_ request: TestHTTPServer.HandledRequest) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))) else { return false }
        let password = state.withLock { $0.password }
        return String(decoding: decoded, as: UTF8.self) == "\(user):\(password)"
    }

    private func authorized(_ request: TestHTTPServer.HandledRequest) -> Bool {
        if basicAuthorized(request) { return true }
        guard let cookies = request.headers["cookie"] else { return false }
        let sessions = state.withLock { $0.sessions }
        return cookies.split(separator: ";").contains { cookie in
            let pair = cookie.trimmingCharacters(in: .whitespaces)
            return pair.hasPrefix("sessionid=") && sessions.contains(String(pair.dropFirst("sessionid=".count)))
        }
    }

    private static func validDevice(_ device: String) -> Bool {
        !device.isEmpty && device.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    /// "2009-12-12T09:00:00", the API's form (seconds, UTC, no zone).
    private static func isTimestamp(_ text: String) -> Bool {
        text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil
    }

    private static func object(_ body: Data) -> [String: Any]? {
        body.isEmpty ? [:] : (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    private static func json(_ value: Any) -> Response {
        Response(status: 200, headers: ["Content-Type": "application/json"],
                 body: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
    }
}
