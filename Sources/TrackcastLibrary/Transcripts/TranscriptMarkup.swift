import Foundation

/// The markup transcripts carry, read by hand in one pass. The regular
/// expressions these replace (`<[^>]*>`, `<v(\.[^ >]*)? ([^>]+)>`,
/// `<(script|style)[^>]*>.*?</\1>`, `<cite>.*?</cite>`) were retried from
/// every `<` to the end of the text when nothing closed it: a transcript
/// line of 40 KB of `<b ` took seconds. Each reader here gives up on the
/// rest of the text once it knows nothing later can match, and otherwise
/// never reads a byte twice. The results are the expressions' own.
struct TranscriptMarkup {
    /// Bytes looked at: tests hold it linear in the input.
    private(set) var steps = 0

    /// `<…>` removed up to each next `>`; a `<` with no `>` after it stays, and so does the rest.
    mutating func strippingTags(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "<")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            steps += 1
            guard bytes[i] == UInt8(ascii: "<") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            guard let close = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: i + 1) else {
                out.append(contentsOf: bytes[i...])
                break
            }
            i = close + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first WebVTT voice tag, `<v Name>` or `<v.class Name>`: the
    /// speaker and the line without the tag.
    mutating func voice(in line: String) -> (speaker: String, line: String)? {
        let bytes = Array(line.utf8)
        var i = 0
        while i + 1 < bytes.count {
            steps += 1
            guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "v") else {
                i += 1
                continue
            }
            // The space before the name: after the classes, if any.
            var space = i + 2
            if space < bytes.count, bytes[space] == UInt8(ascii: ".") {
                space += 1
                while space < bytes.count, bytes[space] != UInt8(ascii: " "), bytes[space] != UInt8(ascii: ">") {
                    space += 1
                }
                steps += space - i
            }
            guard space < bytes.count, bytes[space] == UInt8(ascii: " ") else {
                // A `<v` starting inside those classes would end where this one did.
                i = max(i + 1, space)
                continue
            }
            guard let close = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: space + 1) else { return nil }
            guard close > space + 1 else {
                i = space
                continue
            }
            let speaker = String(decoding: bytes[(space + 1)..<close], as: UTF8.self)
            return (speaker, String(decoding: bytes[..<i] + bytes[(close + 1)...], as: UTF8.self))
        }
        return nil
    }

    /// `<script…>…</script>` and `<style…>…</style>` removed, names in any case.
    mutating func removingScriptsAndStyles(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        // Once no closer follows a name, none follows any later opener of it.
        var unclosed: Set<String> = []
        var i = 0
        while i < bytes.count {
            steps += 1
            if bytes[i] == UInt8(ascii: "<"),
               let name = ["script", "style"].first(where: { !unclosed.contains($0) && matches($0, in: bytes, at: i + 1) }) {
                if let open = firstIndex(of: UInt8(ascii: ">"), in: bytes, from: i + 1 + name.utf8.count) {
                    if let closer = firstIndex(of: "</" + name + ">", in: bytes, from: open + 1) {
                        i = closer + name.utf8.count + 3
                        continue
                    }
                }
                unclosed.insert(name)
            }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every `<cite>…</cite>` (in any case), in order, tags included.
    mutating func citations(in text: String) -> [Range<String.Index>] {
        let bytes = Array(text.utf8)
        var found: [Range<String.Index>] = []
        var i = 0
        while let open = firstIndex(of: "<cite>", in: bytes, from: i),
              let close = firstIndex(of: "</cite>", in: bytes, from: open + 6) {
            let utf8 = text.utf8
            found.append(utf8.index(utf8.startIndex, offsetBy: open)..<utf8.index(utf8.startIndex, offsetBy: close + 7))
            i = close + 7
        }
        return found
    }

    // MARK: Searching

    private mutating func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let found = bytes[start...].firstIndex(of: byte)
        steps += (found ?? bytes.count) - start
        return found
    }

    /// The first place `literal` (ASCII, lower case) is, in any case.
    private mutating func firstIndex(of literal: String, in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            steps += 1
            if matches(literal, in: bytes, at: i) { return i }
            i += 1
        }
        return nil
    }

    private func matches(_ literal: String, in bytes: [UInt8], at index: Int) -> Bool {
        let count = literal.utf8.count
        guard index + count <= bytes.count else { return false }
        return zip(bytes[index..<(index + count)], literal.utf8).allSatisfy { $0 | ($1 >= 0x61 ? 0x20 : 0) == $1 }
    }
}
