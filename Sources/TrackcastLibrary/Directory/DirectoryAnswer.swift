import Foundation

/// What a directory service answers, read: untrusted JSON, of which only
/// titles (for showing literally), web addresses and counts come through.
enum DirectoryAnswer {
    /// The answer's top-level JSON object.
    static func object(_ data: Data) throws(DirectorySearchError) -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .badResponse("The answer is not JSON.")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .badResponse("The answer is not a JSON object.")
        }
        return dictionary
    }

    /// The iTunes Search API's `results[]`.
    static func iTunesResults(_ answer: [String: Any]) throws(DirectorySearchError) -> [DirectoryResult] {
        guard let results = answer["results"] as? [Any] else {
            throw .badResponse("The answer has no results list.")
        }
        return unique(results.compactMap { ($0 as? [String: Any]).flatMap(iTunesResult) })
    }

    static func iTunesResult(_ entry: [String: Any]) -> DirectoryResult? {
        guard let title = text(entry["collectionName"]) ?? text(entry["trackName"]),
              let feed = webURL(entry["feedUrl"]) else { return nil }
        return DirectoryResult(
            title: title, author: text(entry["artistName"]), feedURL: feed,
            artworkURL: webURL(entry["artworkUrl600"]) ?? webURL(entry["artworkUrl100"]),
            episodeCount: count(entry["trackCount"]), genre: text(entry["primaryGenreName"]))
    }

    /// Podcast Index's `feeds[]`, or the refusal its `status` says.
    static func podcastIndexResults(_ answer: [String: Any]) throws(DirectorySearchError) -> [DirectoryResult] {
        // The service says "true" or "false" as text (and true as JSON now and then).
        if (answer["status"] as? String)?.lowercased() == "false" || (answer["status"] as? Bool) == false {
            throw .badResponse(text(answer["description"]) ?? "The service refused the search.")
        }
        guard let feeds = answer["feeds"] as? [Any] else {
            throw .badResponse("The answer has no feeds list.")
        }
        return unique(feeds.compactMap { ($0 as? [String: Any]).flatMap(podcastIndexResult) })
    }

    static func podcastIndexResult(_ entry: [String: Any]) -> DirectoryResult? {
        guard let title = text(entry["title"]), let feed = webURL(entry["url"]) else { return nil }
        // Categories come as {"104": "Tech", "105": "News"}: the lowest id first.
        let categories = (entry["categories"] as? [String: Any]) ?? [:]
        let genre = categories.sorted { (Int($0.key) ?? .max, $0.key) < (Int($1.key) ?? .max, $1.key) }
            .lazy.compactMap { text($0.value) }.first
        return DirectoryResult(
            title: title, author: text(entry["author"]) ?? text(entry["ownerName"]), feedURL: feed,
            artworkURL: webURL(entry["artwork"]) ?? webURL(entry["image"]),
            episodeCount: count(entry["episodeCount"]), genre: genre)
    }

    /// A feed or artwork address from the answer, if it is a web address.
    static func webURL(_ value: Any?) -> URL? {
        guard let text = value as? String else { return nil }
        return FeedURLResolver.resolve(text, against: nil)
    }

    /// Text from the answer, trimmed; nil when missing or empty.
    static func text(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let trimmed = FeedText.trimmed(text)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A count the service may send as a number or, now and then, as text.
    static func count(_ value: Any?) -> Int? {
        switch value {
        case let number as NSNumber: number.intValue >= 0 ? number.intValue : nil
        case let text as String: Int(text).flatMap { $0 >= 0 ? $0 : nil }
        default: nil
        }
    }

    /// The first result for each feed: a directory may list a show twice.
    static func unique(_ results: [DirectoryResult]) -> [DirectoryResult] {
        var seen = Set<URL>()
        return results.filter { seen.insert($0.feedURL).inserted }
    }
}
