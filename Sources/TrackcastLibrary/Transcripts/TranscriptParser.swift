import Foundation
import TrackcastCore

/// Reads the transcript formats Podcasting 2.0 feeds link to: WebVTT
/// (`text/vtt`), SubRip (`application/x-subrip`, `application/srt`), the
/// JSON transcript format (`application/json`) and plain HTML (`text/html`).
public enum TranscriptParser {
    public enum Format: Sendable, Equatable {
        case webVTT, subRip, json, html

        /// The format a feed's `type` names, if it is one of these.
        public init?(mediaType: String) {
            switch mediaType.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces) {
            case "text/vtt": self = .webVTT
            case "application/x-subrip", "application/srt", "text/srt": self = .subRip
            case "application/json": self = .json
            case "text/html": self = .html
            default: return nil
            }
        }
    }

    public enum ParseError: Error, Equatable, LocalizedError {
        case notText
        case noCues(Format)

        public var errorDescription: String? {
            switch self {
            case .notText: "The transcript is not text."
            case .noCues: "The transcript has nothing in it that could be read."
            }
        }
    }

    public static func parse(_ data: Data, format: Format) throws -> Transcript {
        guard let text = String(data: data, encoding: .utf8) else { throw ParseError.notText }
        let transcript: Transcript = switch format {
        case .webVTT, .subRip: Transcript(cues: timedBlocks(text))
        case .json: Transcript(cues: try jsonCues(data))
        case .html: Transcript(cues: htmlParagraphs(text), isTimed: false)
        }
        guard !transcript.cues.isEmpty else { throw ParseError.noCues(format) }
        return transcript
    }

    // MARK: WebVTT and SubRip

    /// Both are blank-line-separated blocks with a `start --> end` line;
    /// SRT writes a comma before milliseconds, VTT a dot, and VTT may name
    /// the speaker as `<v Name>`.
    private static func timedBlocks(_ text: String) -> [TranscriptCue] {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var markup = TranscriptMarkup()
        return normalized.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            guard let timing = lines.firstIndex(where: { $0.contains("-->") }) else { return nil }
            let parts = lines[timing].components(separatedBy: "-->")
            guard parts.count == 2, let start = timestamp(parts[0]),
                  let end = timestamp(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? "")
            else { return nil }
            var speaker: String?
            let body = lines[(timing + 1)...].map { line -> String in
                var line = line
                if let voice = markup.voice(in: line) {
                    speaker = voice.speaker
                    line = voice.line
                }
                return stripTags(line, &markup)
            }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
            guard !body.isEmpty else { return nil }
            return TranscriptCue(start: start, end: max(end, start), text: body, speaker: speaker)
        }
    }

    /// `hh:mm:ss.mmm`, `mm:ss.mmm` or SRT's `hh:mm:ss,mmm`; at most `MediaTime.maximumSeconds`.
    static func timestamp(_ text: String) -> TimeInterval? {
        let fields = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard (2...3).contains(fields.count) else { return nil }
        var seconds: Double = 0
        for field in fields {
            guard let value = Double(field), value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        return MediaTime.seconds(seconds)
    }

    /// Tags removed, then every named and numeric reference decoded by the
    /// feed's own decoder (control characters dropped as there).
    private static func stripTags(_ line: String, _ markup: inout TranscriptMarkup) -> String {
        HTMLText.decodingEntities(markup.strippingTags(line))
    }

    // MARK: JSON

    /// `{"version": "1.0.0", "segments": [{"speaker", "startTime", "endTime", "body"}]}`
    private static func jsonCues(_ data: Data) throws -> [TranscriptCue] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let segments = object["segments"] as? [[String: Any]] else { throw ParseError.noCues(.json) }
        return segments.compactMap { segment in
            guard let start = (segment["startTime"] as? NSNumber).flatMap({ MediaTime.seconds($0.doubleValue) }),
                  let body = segment["body"] as? String, !body.isEmpty else { return nil }
            let end = (segment["endTime"] as? NSNumber).flatMap { MediaTime.seconds($0.doubleValue) } ?? start
            return TranscriptCue(start: start, end: max(start, end), text: body, speaker: segment["speaker"] as? String)
        }
    }

    // MARK: HTML

    /// Paragraphs of the page as untimed cues; a `<cite>` opening one names
    /// its speaker, as the Podcasting 2.0 HTML example does.
    private static func htmlParagraphs(_ text: String) -> [TranscriptCue] {
        var markup = TranscriptMarkup()
        let withoutScripts = markup.removingScriptsAndStyles(text)
        let blocks = withoutScripts.components(separatedBy: "<p").dropFirst()
        return blocks.compactMap { block in
            // "<p>" or "<p class=…>", not "<pre>" or "<param>".
            guard let next = block.first, next == ">" || next.isWhitespace else { return nil }
            let paragraph = String(block.drop { $0 != ">" }.dropFirst()).components(separatedBy: "</p>").first ?? ""
            let citations = markup.citations(in: paragraph)
            let speaker = citations.first.map {
                stripTags(String(paragraph[$0]), &markup)
                    .trimmingCharacters(in: CharacterSet(charactersIn: ": ").union(.whitespacesAndNewlines))
            }
            // The text between the citations, gathered in one pass.
            var uncited = ""
            var rest = paragraph.startIndex
            for citation in citations {
                uncited += paragraph[rest..<citation.lowerBound]
                rest = citation.upperBound
            }
            uncited += paragraph[rest...]
            let body = stripTags(uncited, &markup).unicodeScalars
                .split(whereSeparator: \.properties.isWhitespace).map(String.init).joined(separator: " ")
            guard !body.isEmpty else { return nil }
            return TranscriptCue(start: 0, end: 0, text: body, speaker: speaker)
        }
    }
}
