import Foundation
import TrackcastCore

/// One episode action of the gpodder.net API: a play with its position, a
/// download, a delete, a "new".
public struct EpisodeAction: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case play, download, delete, new
    }

    /// The feed URL.
    public var podcast: String
    /// The media URL.
    public var episode: String
    public var guid: String?
    public var kind: Kind
    public var timestamp: Date
    /// Seconds, for plays.
    public var started: Double?
    public var position: Double?
    public var total: Double?
    public var device: String?

    public init(podcast: String, episode: String, guid: String? = nil, kind: Kind, timestamp: Date,
                started: Double? = nil, position: Double? = nil, total: Double? = nil, device: String? = nil) {
        self.podcast = podcast
        self.episode = episode
        self.guid = guid
        self.kind = kind
        self.timestamp = timestamp
        self.started = started
        self.position = position
        self.total = total
        self.device = device
    }

    /// An action from a server's JSON, or nil when it is not one the API
    /// describes: missing URLs, an unknown action, a timestamp that does not
    /// read as one, a play without a position. Seconds are range-checked
    /// (`MediaTime`) before anything converts them.
    public init?(json: Any) {
        guard let object = json as? [String: Any],
              let podcast = object["podcast"] as? String, !podcast.isEmpty, podcast.utf8.count <= 4096,
              let episode = object["episode"] as? String, !episode.isEmpty, episode.utf8.count <= 4096,
              let kindText = object["action"] as? String, let kind = Kind(rawValue: kindText.lowercased()),
              let stamp = object["timestamp"] as? String, let timestamp = SyncTimestamp.parse(stamp)
        else { return nil }
        self.init(podcast: podcast, episode: episode, kind: kind, timestamp: timestamp)
        guid = (object["guid"] as? String).flatMap { $0.isEmpty || $0.utf8.count > 4096 ? nil : $0 }
        device = (object["device"] as? String).map { String($0.prefix(64)) }
        if kind == .play {
            guard let position = Self.seconds(object["position"]) else { return nil }
            self.position = position
            started = Self.seconds(object["started"])
            total = Self.seconds(object["total"]).flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// A number of seconds from the server, nil unless finite and within
    /// 0…`MediaTime.maximumSeconds` (an integer, or a number with a fraction).
    private static func seconds(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        let seconds = number.doubleValue
        guard seconds.isFinite, seconds >= 0, seconds <= MediaTime.maximumSeconds else { return nil }
        return seconds
    }
}
