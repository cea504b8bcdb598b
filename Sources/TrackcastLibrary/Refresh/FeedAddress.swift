import Foundation

/// Turns what a person pastes or a subscription list holds into the URL a
/// feed is fetched from.
public enum FeedAddress {
    /// Trims spaces; rewrites the podcast link schemes (`feed:`, `itpc:`,
    /// `pcast:`, `podcast:`, `itms-podcast:`, as web pages and other apps use
    /// them) to HTTP(S); takes an existing file's path (relative to
    /// `currentDirectory`) as a `file:` URL, as it does a `file:` URL with an
    /// absolute path, and a bare "host/path" as HTTPS.
    /// `nil` for anything else that is not an HTTP(S) or file URL.
    public static func url(from text: String,
                           currentDirectory: String = FileManager.default.currentDirectoryPath) -> URL? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        if let colon = text.firstIndex(of: ":"),
           ["feed", "itpc", "pcast", "podcast", "itms-podcast", "itmss"].contains(text[..<colon].lowercased()) {
            var rest = text[text.index(after: colon)...]
            // "feed:https://host/x" wraps a whole URL; "feed://host/x" stands for http.
            if rest.lowercased().hasPrefix("http://") || rest.lowercased().hasPrefix("https://") {
                return webURL(String(rest))
            }
            while rest.hasPrefix("/") { rest = rest.dropFirst() }
            return webURL("http://" + rest)
        }
        // Any other scheme ("mailto:", "ftp://") is not a feed; "host:8080/x" is a port, not a scheme.
        if let colon = text.firstIndex(of: ":"),
           text[..<colon].range(of: "^[A-Za-z][A-Za-z0-9+.-]*$", options: .regularExpression) != nil,
           !(text[text.index(after: colon)...].first?.isNumber ?? false) {
            switch text[..<colon].lowercased() {
            case "http", "https": return webURL(text)
            // Only an absolute one: "file:https://host/x" has a relative path, which
            // would be resolved against whatever directory the process runs in
            // (found by the opml fuzz target: it did not read back the same).
            case "file": return URL(string: text).flatMap { $0.isFileURL && $0.path.hasPrefix("/") ? $0.standardizedFileURL : nil }
            default: return nil
            }
        }
        let base = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        let file = URL(fileURLWithPath: text, relativeTo: base).standardizedFileURL
        let firstComponent = text.split(separator: "/", maxSplits: 1).first ?? ""
        if !FileManager.default.fileExists(atPath: file.path), !text.hasPrefix("."), !text.hasPrefix("/"),
           firstComponent.contains("."), let web = webURL("https://" + text) {
            return web
        }
        return file
    }

    private static func webURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.host?.isEmpty == false else { return nil }
        return url
    }
}
