import Foundation

/// Reads a subtitle file (SubRip or WebVTT) before the player is given
/// it, so that a damaged one is refused with a reason the user can act on.
/// GStreamer alone would only warn, on its own thread, that it cannot tell
/// what the file is, and show nothing.
public enum SubtitleFileCheck {
    public enum Failure: Error, Equatable, LocalizedError {
        /// Not readable at all (missing, a folder, no permission).
        case unreadable(String)
        /// Over `maxBytes`: no subtitle file is that large.
        case tooLarge
        /// Text, but not one timed cue in it; or not text.
        case noCues

        public var errorDescription: String? {
            switch self {
            case .unreadable(let reason): reason
            case .tooLarge: "The file is too large to be subtitles."
            case .noCues: "The file holds no subtitles that could be read."
            }
        }
    }

    /// A film's subtitles are well under a megabyte; ten is generous.
    public static let maxBytes = 10_000_000

    /// The number of timed cues in the file. It reads the file: call it off
    /// the main thread. Text that is not UTF-8 is read as Latin-1, as
    /// GStreamer's subtitle parser falls back to as well.
    public static func cueCount(of url: URL) throws(Failure) -> Int {
        let data: Data
        do {
            let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            guard size <= maxBytes else { throw Failure.tooLarge }
            data = try Data(contentsOf: url)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable(error.localizedDescription)
        }
        return try cueCount(in: data, format: url.pathExtension.lowercased() == "vtt" ? .webVTT : .subRip)
    }

    /// The number of timed cues in a subtitle file's bytes.
    static func cueCount(in data: Data, format: TranscriptParser.Format) throws(Failure) -> Int {
        // A NUL never appears in subtitle text: a binary file read as Latin-1
        // would otherwise pass as text.
        guard !data.contains(0) else { throw .noCues }
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        guard let transcript = try? TranscriptParser.parse(Data(text.utf8), format: format) else { throw .noCues }
        return transcript.cues.count
    }
}
