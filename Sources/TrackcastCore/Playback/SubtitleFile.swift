import Foundation

/// A subtitle file shown over a video, outside the media itself: found
/// beside an opened file (`NAME.srt`, `NAME.LANG.vtt`) or loaded by hand.
public struct SubtitleFile: Sendable, Equatable {
    public var url: URL
    /// The language its name gives (`film.de.srt`: "de"), if any.
    public var languageCode: String?

    public init(url: URL, languageCode: String? = nil) {
        self.url = url
        self.languageCode = languageCode
    }

    /// The extensions of the formats GStreamer's subparse reads that are
    /// looked for beside a video.
    public static let extensions = ["srt", "vtt"]

    /// The language a file name gives between the media's base name and
    /// the extension: two or three letters, optionally a region
    /// ("film.pt-BR.srt"); nil for a plain "film.srt".
    public static func languageCode(ofFileNamed name: String, base: String) -> String? {
        let stem = (name as NSString).deletingPathExtension
        guard stem.count > base.count, stem.hasPrefix(base + ".") else { return nil }
        let code = String(stem.dropFirst(base.count + 1))
        let language = code.split(separator: "-", maxSplits: 1).first.map(String.init) ?? code
        guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return code
    }

    /// The subtitle file to show with the local video `media`, if one lies
    /// beside it: of `NAME.srt`, `NAME.vtt` and `NAME.LANG.srt`/`.vtt`, the
    /// one in the first of `preferredLanguages` that has one, else the one
    /// without a language, else the first by name. (playbin shows one
    /// external file at a time.) Reads the folder: call it off the main thread.
    public static func beside(_ media: URL, preferredLanguages: [String]) -> SubtitleFile? {
        guard media.isFileURL else { return nil }
        let folder = media.deletingLastPathComponent()
        let base = media.deletingPathExtension().lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        let candidates = names.sorted().compactMap { name -> SubtitleFile? in
            let ext = (name as NSString).pathExtension.lowercased()
            guard extensions.contains(ext), name.hasPrefix(base + ".") else { return nil }
            let stem = (name as NSString).deletingPathExtension
            let code = languageCode(ofFileNamed: name, base: base)
            guard stem == base || code != nil else { return nil }
            return SubtitleFile(url: folder.appendingPathComponent(name), languageCode: code)
        }
        for preferred in preferredLanguages {
            let wanted = preferred.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
            if let match = candidates.first(where: { candidate in
                candidate.languageCode?.lowercased().split(separator: "-").first.map(String.init) == wanted
            }) {
                return match
            }
        }
        return candidates.first { $0.languageCode == nil } ?? candidates.first
    }
}
