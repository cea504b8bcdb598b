import Foundation

/// Writes a subscription list as OPML 2.0, the form every podcast app imports:
/// one `outline type="rss"` per show, title in both `text` and `title`.
public struct OPMLWriter: Sendable {
    public var title: String

    public init(title: String = "Trackcast subscriptions") {
        self.title = title
    }

    public func write(_ subscriptions: [FeedSubscription], created: Date = Date()) -> Data {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>\(Self.escaped(title))</title>
                <dateCreated>\(Self.rfc822.string(from: created))</dateCreated>
              </head>
              <body>

            """
        for subscription in subscriptions {
            var attributes: [(String, String)] = []
            let title = subscription.title ?? subscription.feedURL.absoluteString
            attributes.append(("type", "rss"))
            attributes.append(("text", title))
            if subscription.title != nil { attributes.append(("title", title)) }
            attributes.append(("xmlUrl", subscription.feedURL.absoluteString))
            if let link = subscription.link { attributes.append(("htmlUrl", link.absoluteString)) }
            xml += "    <outline " + attributes.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: " ") + "/>\n"
        }
        xml += "  </body>\n</opml>\n"
        return Data(xml.utf8)
    }

    /// Escapes for an attribute value or text; line breaks become character
    /// references so that attribute normalisation does not turn them into spaces.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            // Other control characters are not allowed in XML 1.0 at all.
            case _ where scalar.value < 0x20: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let rfc822: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()
}
