import Foundation
import Testing
import TrackcastLibrary

/// Artwork's type and size read from its first bytes, before any decoder sees it.
@Suite("Artwork headers")
struct ArtworkImageTests {
    /// A PNG of 83 bytes whose header declares 50,000 × 50,000 pixels (10 GB decoded), CRCs correct.
    static let hugePNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAw1AAAMNQCAYAAABLrz3KAAAAGklEQVR4nO3BAQ0AAADCoPdPbQ8HFAAAAPBuEAAAAUueozwAAAAASUVORK5CYII=")!

    static let xpm = Data("/* XPM */\nstatic char * dot_xpm[] = {\n\"2 2 1 1\",\n\"a c #FF0000\",\n\"aa\",\n\"aa\"};\n".utf8)

    private static func bytes(_ parts: [UInt8]...) -> Data { Data(parts.joined()) }

    @Test("the sample show’s cover is a PNG")
    func samplePNG() throws {
        let cover = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../data/sample/cover.png").standardizedFileURL
        let image = try ArtworkImage(inspecting: try Data(contentsOf: cover))
        #expect(image.format == .png)
        #expect(image.width > 0 && image.height > 0)
    }

    @Test("a JPEG's size is read from its frame header, after the segments before it")
    func jpeg() throws {
        let image = try ArtworkImage(inspecting: Self.bytes(
            [0xFF, 0xD8],
            [0xFF, 0xE0, 0x00, 0x10], Array("JFIF\0".utf8), [1, 1, 0, 0, 1, 0, 1, 0, 0],
            [0xFF, 0xFF],  // a fill byte
            [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]))
        #expect(try image == ArtworkImage(inspecting: Self.bytes(
            [0xFF, 0xD8], [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])))
        #expect(image.format == .jpeg && image.width == 800 && image.height == 600)
    }

    @Test("WebP's three kinds of header are read: lossy, lossless and extended")
    func webp() throws {
        let riff = Array("RIFF".utf8) + [0x40, 0, 0, 0] + Array("WEBP".utf8)
        let lossy = try ArtworkImage(inspecting: Self.bytes(riff, Array("VP8 ".utf8), [0x30, 0, 0, 0],
                                                            [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x20, 0x03, 0x58, 0x02]))
        #expect(try lossy == ArtworkImage(inspecting: Self.bytes(riff, Array("VP8X".utf8), [10, 0, 0, 0], [0, 0, 0, 0],
                                                                  [0x1F, 0x03, 0x00, 0x57, 0x02, 0x00])))
        #expect(lossy.format == .webp && lossy.width == 800 && lossy.height == 600)
        // Lossless: 14 bits of width − 1 (799), then 14 of height − 1 (599).
        let bits = 799 | (599 << 14)
        let lossless = try ArtworkImage(inspecting: Self.bytes(riff, Array("VP8L".utf8), [0x20, 0, 0, 0], [0x2F],
                                                               (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) },
                                                               [0, 0, 0, 0, 0]))
        #expect(lossless == lossy)
    }

    @Test("a small PNG declaring 50,000 × 50,000 pixels is refused before decoding")
    func hugePNG() {
        #expect(throws: ArtworkImage.Refusal.tooManyPixels(width: 50_000, height: 50_000)) {
            try ArtworkImage(inspecting: Self.hugePNG)
        }
    }

    @Test("declared sizes that would overflow, or are zero, are refused")
    func extremeSizes() {
        var png = [UInt8](Self.hugePNG)
        png.replaceSubrange(16..<24, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ArtworkImage.Refusal.self) { try ArtworkImage(inspecting: Data(png)) }
        png.replaceSubrange(16..<24, with: [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(throws: ArtworkImage.Refusal.tooManyPixels(width: 0, height: 1)) { try ArtworkImage(inspecting: Data(png)) }
    }

    @Test("anything else gdk-pixbuf could decode is refused by its first bytes", arguments: [
        ArtworkImageTests.xpm,
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>".utf8),
        Data([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 40)),  // TIFF
        Data([0, 0, 1, 0, 1, 0, 16, 16] + [UInt8](repeating: 0, count: 40)),  // ICO
        Data("GIF89a".utf8 + [1, 0, 1, 0] + [UInt8](repeating: 0, count: 40)),
        Data("RIFF\u{40}\0\0\0ACONanih".utf8 + [UInt8](repeating: 0, count: 40)),  // ANI
        Data(), Data([0xFF, 0xD8, 0xFF]), Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]),
    ])
    func refused(bytes: Data) {
        #expect(throws: ArtworkImage.Refusal.unsupportedFormat) { try ArtworkImage(inspecting: bytes) }
    }
}
