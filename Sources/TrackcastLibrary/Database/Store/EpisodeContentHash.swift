import Foundation

/// A fingerprint of everything a feed says about one episode, stored with the
/// episode so a refresh can tell changed episodes from unchanged ones without
/// reading them back.
///
/// Swift's `Hasher` is seeded per process, so it cannot be stored; this is
/// 64-bit FNV-1a over the episode's JSON with sorted keys, which is the same
/// in every process. Collisions only cost a missed update of a changed
/// episode, with odds of about 2⁻⁶⁴ per change.
enum EpisodeContentHash {
    static func of(_ episode: FeedEpisode) -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // The only thing JSONEncoder throws for here is a non-finite number,
        // which this strategy encodes instead.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let bytes = (try? encoder.encode(episode)) ?? Data(String(reflecting: episode).utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
