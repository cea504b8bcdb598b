import Foundation

/// A fingerprint of everything a feed says about one episode, stored with the
/// episode so a refresh can tell changed episodes from unchanged ones without
/// reading them back.
///
/// `DigestEncoder`'s hash of everything the episode encodes. Collisions only
/// cost a missed update of a changed episode, with odds of about 2⁻⁶⁴ per
/// change. (Until this version it hashed the episode's JSON, 90 % of the time
/// applying a feed took, so every episode of a library compares changed once
/// after upgrading, and is written again.)
enum EpisodeContentHash {
    static func of(_ episode: FeedEpisode) -> Int64 {
        DigestEncoder.digest(of: episode)
    }
}
