import Foundation
import TrackcastCore

/// Reads a Podcasting 2.0 chapters file (`application/json+chapters`):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": …, "img": …,
/// "url": …, "toc": false}]}`.
public enum PodcastChaptersFile {
    public enum ParseError: Error, Equatable, LocalizedError {
        case notJSON
        case noChapters

        public var errorDescription: String? {
            switch self {
            case .notJSON: "The chapters file is not JSON."
            case .noChapters: "The chapters file has no chapter list."
            }
        }
    }

    public static func parse(_ data: Data, relativeTo base: URL? = nil) throws -> [Chapter] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ParseError.notJSON
        }
        guard let entries = object["chapters"] as? [[String: Any]] else { throw ParseError.noChapters }
        return entries.compactMap { entry in
            // A chapter without a usable start cannot be placed; skip it, keep the rest.
            guard let given = number(entry["startTime"]), given >= 0, let start = MediaTime.seconds(given) else {
                return nil
            }
            return Chapter(start: start, title: (entry["title"] as? String).flatMap { $0.isEmpty ? nil : $0 },
                           url: link(entry["url"], base), image: link(entry["img"], base).map(ChapterImage.remote),
                           isListed: (entry["toc"] as? Bool) ?? true, source: .chaptersFile)
        }
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text)
        default: nil
        }
    }

    /// Web addresses only, as in feeds (`FeedURLResolver`): a chapters file
    /// cannot make a chapter link to `file:` or `javascript:`.
    private static func link(_ value: Any?, _ base: URL?) -> URL? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        return FeedURLResolver.resolve(text, against: base)
    }
}
