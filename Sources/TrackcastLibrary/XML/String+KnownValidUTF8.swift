extension String {
    /// A string of `bytes` known to be valid UTF-8 from where they came,
    /// copied without Swift checking them again: on a realistic feed that
    /// second check of every text was about 6 % of the parse. Only for bytes
    /// proven valid by construction (cut at ASCII bytes out of a document
    /// `FeedInputDecoder` checked, or out of a Swift string, and joined with
    /// whole characters); debug builds, which the tests run, check them all
    /// the same.
    init(knownValidUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        assert(String(validating: bytes, as: UTF8.self) != nil, "bytes taken as valid UTF-8 are not")
        // Told whether it is ASCII: a string not known to be takes Unicode's slow
        // paths in `lowercased()`, comparison and hashing (made so, attribute
        // values cost a tenth more parse than their check saved).
        self = unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: Self.isASCII(bytes)))
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= bytes.count {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & highs != 0 { return false }
            i += 8
        }
        while i < bytes.count {
            if bytes[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }
}
