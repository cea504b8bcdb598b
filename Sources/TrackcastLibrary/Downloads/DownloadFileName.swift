import Foundation

/// Names downloaded files after what they are: the episode's title, in a
/// folder named after the show, with the extension of the type the server
/// actually sent (feeds often declare the wrong one).
enum DownloadFileName {
    /// Longest name in UTF-8 bytes, extension excluded: ext4 allows 255 per
    /// name, and a suffix such as " (12)" must still fit.
    static let maxBytes = 180

    /// A name safe on any file system the file may be copied to: no path
    /// separators, no characters FAT and NTFS refuse, no control characters,
    /// no leading dot (which would hide it) or trailing dot and space.
    static func sanitised(_ title: String?, fallback: String) -> String {
        var name = ""
        var lastWasSpace = false
        for scalar in (title ?? "").unicodeScalars {
            let replacement: String
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|": replacement = "-"
            case _ where scalar.properties.generalCategory == .control || scalar.properties.isWhitespace: replacement = " "
            case _ where scalar.properties.generalCategory == .format: replacement = ""
            default: replacement = String(scalar)
            }
            if replacement == " " {
                if !lastWasSpace, !name.isEmpty { name += " " }
                lastWasSpace = true
            } else {
                name += replacement
                lastWasSpace = false
            }
        }
        name = String(name.drop { $0 == "." || $0 == " " || $0 == "-" })
        // Windows refuses these device names, with any extension, on any drive it can write.
        let stem = name.split(separator: ".", maxSplits: 1).first.map { $0.uppercased() } ?? ""
        if reservedNames.contains(stem.trimmingCharacters(in: .whitespaces)) { name = "_" + name }
        while name.utf8.count > maxBytes { name.removeLast() }
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        return name.isEmpty ? fallback : name
    }

    private static let reservedNames: Set<String> = Set(["CON", "PRN", "AUX", "NUL"]
        + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// The extension for a media type; `nil` for a type that says nothing
    /// (octet-stream) or one not known.
    static func fileExtension(forType type: String?) -> String? {
        // The essence is what comes before any parameters; "" or ";" has none.
        guard let essence = type?.prefix(while: { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
        else { return nil }
        return extensions[essence]
    }

    /// From the response's type, else the feed's declared type, else the
    /// URL's own extension if it is a media file's, else "bin".
    ///
    /// A URL's extension is the server's to choose: taken as it is, a
    /// download could land as `.sh`, `.desktop`, `.html` or `.svg`, which a
    /// file manager runs or a browser opens as a page.
    static func fileExtension(responseType: String?, declaredType: String?, url: URL) -> String {
        if let known = fileExtension(forType: responseType) ?? fileExtension(forType: declaredType) { return known }
        let fromURL = url.pathExtension.lowercased()
        return mediaExtensions.contains(fromURL) ? fromURL : "bin"
    }

    /// The extensions of audio and video files a podcast carries.
    static let mediaExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "ogg", "oga", "opus", "flac", "wav", "weba", "mka",
        "mp4", "m4v", "mov", "webm", "mkv", "ogv", "mpg", "mpeg", "3gp",
    ]

    private static let extensions: [String: String] = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/x-mpeg": "mp3", "audio/mpeg3": "mp3", "audio/x-mp3": "mp3",
        "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/m4a": "m4a", "audio/aac": "aac", "audio/x-aac": "aac",
        "audio/aacp": "aac", "audio/ogg": "ogg", "application/ogg": "ogg", "audio/vorbis": "ogg", "audio/opus": "opus",
        "audio/flac": "flac", "audio/x-flac": "flac", "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "weba",
        "video/mp4": "mp4", "video/x-m4v": "m4v", "video/quicktime": "mov", "video/webm": "webm",
        "video/x-matroska": "mkv", "video/ogg": "ogv", "video/mpeg": "mpg", "application/pdf": "pdf",
    ]
}
