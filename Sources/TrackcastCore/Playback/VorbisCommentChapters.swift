import Foundation

/// Chapters written as Vorbis comments, the convention of Ogg (Vorbis,
/// Opus, FLAC) files: `CHAPTER001=00:01:02.500` and `CHAPTER001NAME=Title`.
/// GStreamer passes these on as plain comments, not as a table of
/// contents, so the player reads them here.
public enum VorbisCommentChapters {
    /// The chapters among `comments` ("KEY=value", keys in any case), in
    /// time order, each ending where the next starts (the last at `duration`).
    /// Entries whose time does not read, or lies at or past `duration`, are left out.
    public static func chapters(from comments: [String], duration: Duration?) -> [LoadedAsset.Chapter] {
        var starts: [String: Duration] = [:]
        var names: [String: String] = [:]
        for comment in comments {
            guard let equals = comment.firstIndex(of: "=") else { continue }
            let key = comment[..<equals].uppercased()
            let value = String(comment[comment.index(after: equals)...])
            guard key.hasPrefix("CHAPTER") else { continue }
            let rest = key.dropFirst("CHAPTER".count)
            let number = String(rest.prefix { $0.isASCII && $0.isNumber })
            guard !number.isEmpty else { continue }
            switch rest.dropFirst(number.count) {
            case "": if let start = time(value) { starts[number] = start }
            case "NAME": names[number] = value.trimmingCharacters(in: .whitespaces)
            default: continue
            }
        }
        // One starting at or past the end is never reached, and would end before it starts.
        let ordered = starts.filter { start in duration.map { start.value < $0 } ?? true }.sorted { $0.value < $1.value }
        return ordered.enumerated().map { index, entry in
            let end = index + 1 < ordered.count ? ordered[index + 1].value : duration
            let name = names[entry.key].flatMap { $0.isEmpty ? nil : $0 }
            return LoadedAsset.Chapter(title: name, start: entry.value, end: end)
        }
    }

    /// `HH:MM:SS.mmm` (the convention), or `MM:SS` and `SS.s`, as writers vary.
    static func time(_ text: String) -> Duration? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds: Double = 0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  let value = Double(part), value.isFinite, value < 1e9 else { return nil }
            seconds = seconds * 60 + value
        }
        return Duration(clampingSeconds: (seconds * 1000).rounded() / 1000)
    }
}
