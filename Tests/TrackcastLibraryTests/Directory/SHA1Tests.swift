import Testing
import TrackcastLibrary

@Suite("SHA-1 gives the standard test vectors")
struct SHA1Tests {
    /// FIPS 180-2 appendix A and the NIST example vectors, with one that
    /// crosses a block boundary in its padding and one of exactly 64 bytes.
    static let vectors: [(String, String)] = [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
        (String(repeating: "a", count: 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
    ]

    @Test("short and block-length messages", arguments: vectors.indices)
    func vector(_ index: Int) {
        let (message, digest) = Self.vectors[index]
        #expect(SHA1.hexDigest(Array(message.utf8)) == digest)
    }

    @Test("a million times 'a'")
    func million() {
        #expect(SHA1.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }
}
