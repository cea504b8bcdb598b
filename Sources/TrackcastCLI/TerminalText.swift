/// What the CLI prints, made safe for a terminal: a control character that
/// reached it (from a library an older Trackcast filled, a server's error
/// message) is written as `\u001B`, as JSON writes it (so `--json` output
/// stays JSON), instead of moving the cursor, retitling the window or
/// writing the clipboard. Line breaks and tabs, the output's own layout, stay.
enum TerminalText {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
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

    /// C0 controls but line feed and tab, DEL, and C1 controls.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
