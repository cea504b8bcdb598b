import TrackcastCore

/// What the CLI prints, made safe for a terminal: a control character that
/// reached it (from a library an older Trackcast filled, a server's error
/// message) is written as `\u001B`, as JSON writes it (so `--json` output
/// stays JSON), instead of moving the cursor, retitling the window or
/// writing the clipboard. Line breaks and tabs, the output's own layout, stay.
/// A feed's JSON is not looked at again: `JSONWriter` escapes the same
/// characters as it writes them (`TerminalSafeJSON`).
enum TerminalText {
    static func escaped(_ text: String) -> String {
        var copy = text
        guard copy.withUTF8(hasEscaped) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Checked on the UTF-8 (a C1 control is 0xC2 and then 0x80–0x9F), eight
    /// bytes a step between candidates: a byte at a time, this check was a
    /// twentieth of `feed parse --json` on a large feed.
    private static func hasEscaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = ControlByteScan.firstCandidate(in: bytes, from: 0)
        while i < bytes.count {
            let byte = bytes[i]
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F
                || (byte == 0xC2 && i + 1 < bytes.count && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F) {
                return true
            }
            i = ControlByteScan.firstCandidate(in: bytes, from: i + 1)
        }
        return false
    }

    /// C0 controls but line feed and tab, DEL, and C1 controls.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
