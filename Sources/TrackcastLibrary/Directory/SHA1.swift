/// SHA-1 (FIPS 180-4), for the one place a web service asks for it: Podcast
/// Index signs each request with the SHA-1 of key, secret and time.
/// Foundation on Linux has no CryptoKit and no outside package can be
/// fetched here, so it is written out; it is not used to protect anything.
public enum SHA1 {
    /// The digest of `bytes` as 40 lowercase hexadecimal digits.
    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        digest(bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    public static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) * 8
        // Padding: a one bit, zeros to 56 bytes mod 64, the length big-endian.
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var words = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let offset = blockStart + index * 4
                words[index] = UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16
                    | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
            }
            for index in 16..<80 {
                words[index] = rotateLeft(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let (mixed, constant): (UInt32, UInt32) = switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = rotateLeft(a, 5) &+ mixed &+ e &+ constant &+ words[index]
                (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, next)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
        return [state.0, state.1, state.2, state.3, state.4].flatMap { word in
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
        }
    }

    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
