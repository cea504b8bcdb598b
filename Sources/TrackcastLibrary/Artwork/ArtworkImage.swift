import Foundation

/// What an artwork file is, read from its first bytes before anything
/// decodes it: PNG, JPEG or WebP, and the size its header declares.
///
/// Artwork comes from strangers' servers. Handed to gdk-pixbuf as it is, it
/// would reach every loader installed (TIFF, XPM, ANI, ICO, SVG…), and a
/// few hundred bytes of PNG can declare 50,000 × 50,000 pixels, 10 GB once
/// decoded. So the type is decided by magic bytes alone, only these three
/// are accepted, and the declared size must be within `maxPixels`; the
/// decoder is then given this type's loader only (`loaderName`) and checks
/// the size it finds against the same limit.
public struct ArtworkImage: Equatable, Sendable {
    public enum Format: String, Sendable {
        case png, jpeg, webp

        /// gdk-pixbuf's name for this format's loader.
        public var loaderName: String { rawValue }
    }

    public enum Refusal: Error, Equatable, Sendable {
        /// Not PNG, JPEG or WebP, or a header too damaged to read its size.
        case unsupportedFormat
        /// The header declares more pixels than `maxPixels` (or none).
        case tooManyPixels(width: Int, height: Int)
    }

    /// 5000 × 5000: podcast artwork is at most 3000 × 3000 by Apple's rules,
    /// and this many pixels decode to 100 MB at four bytes each.
    public static let maxPixels = 25_000_000

    public let format: Format
    public let width: Int
    public let height: Int

    /// Reads the format and declared size from `bytes` (the whole file, or
    /// at least its beginning up to the size field).
    public init(inspecting bytes: Data) throws(Refusal) {
        let header = [UInt8](bytes.prefix(Self.headerLimit))
        guard let (format, width, height) = Self.png(header) ?? Self.jpeg(header) ?? Self.webp(header) else {
            throw .unsupportedFormat
        }
        // PNG sizes are 32 bits each: their product can overflow an Int.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= Self.maxPixels else {
            throw .tooManyPixels(width: width, height: height)
        }
        self.format = format
        self.width = width
        self.height = height
    }

    /// How far into a file the size is looked for: JPEG's size comes after
    /// its metadata segments (EXIF, ICC profiles), each at most 64 KB.
    static let headerLimit = 1 << 20

    private static func png(_ b: [UInt8]) -> (Format, Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // The first chunk must be IHDR: width and height, 4 bytes each, big-endian.
        guard b.count >= 24, Array(b[0..<8]) == signature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (.png, bigEndian(b, 16, 4), bigEndian(b, 20, 4))
    }

    private static func jpeg(_ b: [UInt8]) -> (Format, Int, Int)? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF else { return nil }
        var index = 2
        // Segment by segment to the first start-of-frame, which holds the size.
        while index + 4 <= b.count {
            guard b[index] == 0xFF else { return nil }
            let marker = b[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data, before any frame
            let length = bigEndian(b, index + 2, 2)
            guard length >= 2 else { return nil }
            // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= b.count else { return nil }
                return (.jpeg, bigEndian(b, index + 7, 2), bigEndian(b, index + 5, 2))
            }
            index += 2 + length
        }
        return nil
    }

    private static func webp(_ b: [UInt8]) -> (Format, Int, Int)? {
        guard b.count >= 30, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) else {
            return nil
        }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8 ":
            // A key frame: 3 bytes of frame tag, the start code, then 14-bit sizes.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (.webp, littleEndian(b, 26, 2) & 0x3FFF, littleEndian(b, 28, 2) & 0x3FFF)
        case "VP8L":
            // Lossless: a signature byte, then width − 1 and height − 1 in 14 bits each.
            guard b[20] == 0x2F else { return nil }
            let bits = littleEndian(b, 21, 4)
            return (.webp, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Extended: flags, then canvas width − 1 and height − 1 in 24 bits each.
            return (.webp, littleEndian(b, 24, 3) + 1, littleEndian(b, 27, 3) + 1)
        default:
            return nil
        }
    }

    private static func bigEndian(_ b: [UInt8], _ offset: Int, _ count: Int) -> Int {
        b[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ b: [UInt8], _ offset: Int, _ count: Int) -> Int {
        b[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
