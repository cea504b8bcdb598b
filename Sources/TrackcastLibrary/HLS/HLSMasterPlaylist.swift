import Foundation
import TrackcastCore

/// The variants an HLS master playlist lists (`EXT-X-STREAM-INF`), for the
/// data saver: GStreamer 1.22's hlsdemux chooses by bandwidth alone, so a
/// height cap reaches it as the bandwidth of the variants under it
/// (`StreamLimits.bitrateCap(among:)`).
///
/// Read in one pass from the network's text; a variant without a usable
/// `BANDWIDTH` is skipped, and every number is range-checked.
public enum HLSMasterPlaylist {
    /// Variants past this many are ignored.
    static let maximumVariants = 1_000
    /// The largest `BANDWIDTH` believed, in bit/s (1 Tbit/s).
    static let maximumBandwidth = 1e12

    public static func variants(in text: String) -> [StreamVariant] {
        var steps = 0
        return variants(in: text, steps: &steps)
    }

    /// `steps` counts the bytes looked at, for the tests that hold the reading linear.
    static func variants(in text: String, steps: inout Int) -> [StreamVariant] {
        let bytes = Array(text.utf8)
        var lines = LineReader(bytes: bytes)
        var variants: [StreamVariant] = []
        while variants.count < maximumVariants, let line = lines.next(steps: &steps) {
            guard HLSAttributes.hasPrefix(bytes, line, "#EXT-X-STREAM-INF:") else { continue }
            let attributes = HLSAttributes(bytes, line.lowerBound + 18..<line.upperBound, steps: &steps)
            guard let bandwidth = attributes.number("BANDWIDTH"), bandwidth >= 1, bandwidth <= maximumBandwidth else { continue }
            variants.append(StreamVariant(bandwidth: Int(bandwidth), height: height(of: attributes["RESOLUTION"])))
        }
        return variants
    }

    /// The height of a `RESOLUTION` ("1280x720"), when both of its numbers are 1–100,000.
    private static func height(of resolution: String?) -> Int? {
        guard let parts = resolution?.lowercased().split(separator: "x", omittingEmptySubsequences: false), parts.count == 2,
              let width = Int(parts[0]), let height = Int(parts[1]),
              (1...100_000).contains(width), (1...100_000).contains(height) else { return nil }
        return height
    }
}
