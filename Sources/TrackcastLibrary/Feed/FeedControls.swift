import CTrackcastText

/// Control characters a feed must not pass on: written to a terminal, ESC
/// (`&#27;`) and CSI (`&#x9b;`) start sequences that retitle the window,
/// write the clipboard or clear the screen. Dropped when feed text is read
/// and when entities are decoded.
enum FeedControls {
    /// C0 controls but tab, line feed and carriage return (whitespace that text
    /// keeps or squashes), DEL, and C1 controls but NEL (whitespace too).
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x85: false
        case 0..<0x20, 0x7F...0x9F: true
        default: false
        }
    }

    /// `text` without them: itself, unless its bytes show one.
    static func removing(from text: String) -> String {
        var text = text
        let hasControl = text.withUTF8 { bytes in
            // Candidates found in C, sixteen and 32 bytes a step, past the line breaks
            // and tabs text keeps: a C0 control but those, DEL, or 0xC2.
            var i = tc_control_candidate_index(bytes.baseAddress, bytes.count, 0)
            while i < bytes.count {
                // In UTF-8 a C1 control is 0xC2 and then 0x80–0x9F.
                if bytes[i] != 0xC2 || (i + 1 < bytes.count && (0x80...0x9F).contains(bytes[i + 1]) && bytes[i + 1] != 0x85) {
                    return true
                }
                i = tc_control_candidate_index(bytes.baseAddress, bytes.count, i + 1)
            }
            return false
        }
        guard hasControl else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !isDropped($0) })
        return String(kept)
    }
}
