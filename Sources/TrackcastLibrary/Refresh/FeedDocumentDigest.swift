import Foundation
import TrackcastCore

/// Fingerprints of runs of a fetched feed's bytes, together with everything
/// else parsing depends on (`FeedDocumentLayout` keeps them).
///
/// The bytes alone are not enough: relative links resolve against the
/// address the document came from, the HTTP content type can name its
/// encoding, and a newer Trackcast may read more of the same feed, so the
/// address, the content type and the app's version seed every digest (each
/// release parses every feed once more).
///
/// The bytes are read eight at a time in two lanes, each step a bijection of
/// the lane's state, so a document differing from the last in one word
/// always differs in digest; otherwise a collision's odds are about 2⁻⁶⁴, and
/// it would only delay noticing a changed feed until it changes again. Not
/// cryptographic: a server could make two feeds that collide, but it can
/// send either feed anyway. FNV-1a, used before, takes a multiplication per
/// byte: a quarter of refreshing 500 unchanged realistic feeds.
struct FeedDocumentDigest: Sendable {
    private let seed: UInt64

    init(url: URL, contentType: String?, appVersion: String = AppIdentity.version) {
        var hash = FNV1a()
        for part in [appVersion, url.absoluteString, contentType ?? ""] {
            hash.add(part.utf8)
            hash.add([0])
        }
        seed = hash.value
    }

    /// The digest of `data[range]`.
    func of(_ data: Data, _ range: Range<Int>) -> Int64 {
        data.withUnsafeBytes { of(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var a = seed
        var b = seed ^ UInt64(bytes.count)
        var i = 0
        while i + 16 <= bytes.count {
            a = Self.step(a, Self.word(bytes, at: i))
            b = Self.step(b, Self.word(bytes, at: i + 8))
            i += 16
        }
        if i + 8 <= bytes.count {
            a = Self.step(a, Self.word(bytes, at: i))
            i += 8
        }
        var last: UInt64 = 0
        for (shift, byte) in bytes[i...].enumerated() { last |= UInt64(byte) << (8 * shift) }
        b = Self.step(b, last)
        return Int64(bitPattern: Self.finished(a) ^ Self.finished(b).rotated(by: 32))
    }

    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func step(_ state: UInt64, _ word: UInt64) -> UInt64 {
        (state.rotated(by: 23) ^ word) &* multiplier
    }

    /// Spreads every bit of the lane over the digest (each step a bijection).
    private static func finished(_ state: UInt64) -> UInt64 {
        var x = state
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        return x
    }
}

private extension UInt64 {
    func rotated(by bits: UInt64) -> UInt64 { (self << bits) | (self >> (64 - bits)) }
}
