import Foundation

/// Content-Length and Content-Range read as RFC 9110 writes them, and
/// nothing looser: a download seeks, truncates and sizes its file by them
/// and a body buffer reserves memory by the length, so "-5", "+5", a range
/// whose end comes before its start or past its total, or a number past
/// Int64, is no length and no range at all.
enum ByteCountHeaders {
    /// A Content-Length: ASCII digits (at most 18, so below 10^18 and never
    /// past Int64), with optional whitespace around them.
    static func length(_ value: String) -> Int64? {
        number(value.trimmingCharacters(in: [" ", "\t"]))
    }

    /// `bytes first-last/total` or `bytes first-last/*` (total unknown),
    /// with first ≤ last, and last < total when the total is given.
    static func contentRange(_ value: String) -> (start: Int64, end: Int64, total: Int64?)? {
        let parts = value.trimmingCharacters(in: [" ", "\t"]).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", omittingEmptySubsequences: false)
        guard rangeAndTotal.count == 2 else { return nil }
        let bounds = rangeAndTotal[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = number(bounds[0]), let end = number(bounds[1]), start <= end else {
            return nil
        }
        if rangeAndTotal[1] == "*" { return (start, end, nil) }
        guard let total = number(rangeAndTotal[1]), end < total else { return nil }
        return (start, end, total)
    }

    private static func number(_ text: some StringProtocol) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}
