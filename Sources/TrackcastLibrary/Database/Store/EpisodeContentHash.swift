import Foundation

/// A fingerprint of everything a feed says about one episode, stored with the
/// episode so a refresh can tell changed episodes from unchanged ones without
/// reading them back.
///
/// `FNV1a` over the episode's JSON with sorted keys. Collisions only cost a
/// missed update of a changed episode, with odds of about 2⁻⁶⁴ per change.
enum EpisodeContentHash {
    static func of(_ episode: FeedEpisode) -> Int64 {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // The only thing JSONEncoder throws for here is a non-finite number,
        // which this strategy encodes instead.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let bytes = (try? encoder.encode(episode)) ?? Data(String(reflecting: episode).utf8)
        var hash = FNV1a()
        hash.add(bytes)
        return hash.signed
    }
}
