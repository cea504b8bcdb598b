import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes RSS feeds shaped like real podcasts' (issue 22), the same bytes for
/// the same seed: HTML show notes (paragraphs, links, lists, `&nbsp;` and
/// `&rsquo;`, mostly in CDATA) repeated in `description`, `content:encoded`
/// and `itunes:summary`; titles and notes in Greek, Cyrillic, Arabic, CJK and
/// emoji; long `itunes:keywords`; `podcast:person`, `podcast:transcript`,
/// `podcast:chapters` and Podlove chapters. A feed in a legacy charset is
/// written in that charset, with what it cannot encode as character references,
/// as such feeds do.
public struct RealisticFeedWriter: Sendable {
    public enum Charset: String, Sendable, CaseIterable {
        case utf8 = "UTF-8"
        /// Declared ISO-8859-1 but with Windows-1252's curly quotes and euro
        /// sign in 0x80–0x9F, as most "Latin-1" feeds are.
        case windows1252 = "ISO-8859-1"
        case greek = "ISO-8859-7"
        case cyrillic = "windows-1251"

        var iconvName: String {
            switch self {
            case .utf8: "UTF-8"
            case .windows1252: "WINDOWS-1252"
            case .greek: "ISO-8859-7"
            case .cyrillic: "WINDOWS-1251"
            }
        }
    }

    public var seed: UInt64
    public var episodes: Int
    public var charset: Charset
    /// Bytes of HTML show notes per episode, before they are repeated three times.
    public var notesBytes: ClosedRange<Int>
    /// Show notes in CDATA (most feeds) or escaped as `&lt;p&gt;`.
    public var notesInCDATA: Bool
    /// `podcast:person` elements per episode.
    public var persons: ClosedRange<Int>
    /// Words in each episode's `itunes:keywords`.
    public var keywords: ClosedRange<Int>
    /// Each item drawn from a seed of its own, so that the feed with one
    /// episode more keeps every older item byte for byte, as a real feed
    /// grows at its top (the refresh bench), and a `lastBuildDate` of its
    /// newest. Otherwise one stream draws the whole feed, as the parsing
    /// corpus was made.
    public var itemsKeptAsItGrows = false
    /// Episodes older than this number have left the feed, as a feed that
    /// keeps only its newest episodes drops its oldest as it gains one: the
    /// feed holds `episodes` down to `oldestKept`.
    public var oldestKept = 1

    public init(seed: UInt64, episodes: Int, charset: Charset = .utf8, notesBytes: ClosedRange<Int> = 600...3_000,
                notesInCDATA: Bool = true, persons: ClosedRange<Int> = 2...11, keywords: ClosedRange<Int> = 20...59) {
        self.seed = seed
        self.episodes = episodes
        self.charset = charset
        self.notesBytes = notesBytes
        self.notesInCDATA = notesInCDATA
        self.persons = persons
        self.keywords = keywords
    }

    /// The feed in its charset.
    public func data() -> Data {
        let text = xml()
        guard charset != .utf8 else { return Data(text.utf8) }
        return Self.encoded(text, as: charset.iconvName)
    }

    /// The feed's text before it is encoded; everything in it is encodable in `charset`.
    public func xml() -> String {
        var random = SplitMix64(seed: seed)
        let language = Language.for(charset)
        let slug = "show-\(seed)"
        var out = """
            <?xml version="1.0" encoding="\(charset.rawValue)"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom" \
            xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:psc="http://podlove.org/simple-chapters" \
            xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel>
                <title>\(escaped(language.title(&random)))</title>
                <link>https://example.org/\(slug)</link>
                <atom:link href="https://feeds.example.org/\(slug).xml" rel="self" type="application/rss+xml"/>
                <description>\(escaped(language.sentence(&random)))</description>
                <language>\(language.code)</language>
                <itunes:author>\(escaped(language.name(&random)))</itunes:author>
                <itunes:image href="https://example.org/\(slug)/cover.jpg"/>
                <itunes:explicit>no</itunes:explicit>
                <podcast:guid>\(seed)-guid</podcast:guid>
                <podcast:funding url="https://example.org/\(slug)/support">Support the show</podcast:funding>

            """
        if itemsKeptAsItGrows {
            out += "    <lastBuildDate>\(Self.rfc822(Self.lastBuildDate(newest: episodes)))</lastBuildDate>\n"
        }
        out.reserveCapacity(episodes * (notesBytes.upperBound * 3 + 3_000))
        for number in stride(from: episodes, through: max(1, oldestKept), by: -1) {
            if itemsKeptAsItGrows {
                var itemRandom = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(number))
                writeItem(number: number, slug: slug, language: language, to: &out, &itemRandom)
            } else {
                writeItem(number: number, slug: slug, language: language, to: &out, &random)
            }
        }
        return out + "  </channel>\n</rss>\n"
    }

    /// A growing feed says when it last changed, as most do: its channel's
    /// head differs each time it gains an episode.
    private static func lastBuildDate(newest: Int) -> Date {
        Date(timeIntervalSince1970: 1_262_304_000 + Double(newest) * 86_400 * 3 + 86_399)
    }

    private func writeItem(number: Int, slug: String, language: Language, to out: inout String,
                           _ random: inout SplitMix64) {
        let date = Date(timeIntervalSince1970: 1_262_304_000 + Double(number) * 86_400 * 3 + Double(random.next() % 86_400))
        let notes = showNotes(language: language, number: number, &random)
        let wrapped = notesInCDATA ? "<![CDATA[\(notes)]]>" : escaped(notes)
        let keywords = (0..<Self.pick(keywords, &random)).map { _ in language.word(&random) }.joined(separator: ", ")
        out += """
                <item>
                  <title>\(escaped(language.title(&random))) – #\(number)</title>
                  <link>https://example.org/\(slug)/episodes/\(number)</link>
                  <guid isPermaLink="false">\(slug)-\(number)-\(random.next() % 1_000_000)</guid>
                  <pubDate>\(Self.rfc822(date))</pubDate>
                  <dc:creator>\(escaped(language.name(&random)))</dc:creator>
                  <description>\(wrapped)</description>
                  <content:encoded>\(wrapped)</content:encoded>
                  <itunes:summary>\(wrapped)</itunes:summary>
                  <itunes:subtitle>\(escaped(language.sentence(&random)))</itunes:subtitle>
                  <itunes:keywords>\(escaped(keywords))</itunes:keywords>
                  <enclosure url="https://media.example.org/\(slug)/\(number).mp3" length="\(20_000_000 + random.next() % 80_000_000)" type="audio/mpeg"/>
                  <itunes:duration>\(1 + random.next() % 2):\(String(format: "%02d:%02d", random.next() % 60, random.next() % 60))</itunes:duration>
                  <itunes:episode>\(number)</itunes:episode>
                  <itunes:season>\(1 + number / 100)</itunes:season>
                  <itunes:episodeType>full</itunes:episodeType>
                  <itunes:explicit>\(random.next() % 5 == 0 ? "yes" : "no")</itunes:explicit>
                  <itunes:image href="https://example.org/\(slug)/art/\(number).jpg"/>
                  <podcast:chapters url="https://example.org/\(slug)/\(number)/chapters.json" type="application/json+chapters"/>

            """
        for (format, type) in [("vtt", "text/vtt"), ("srt", "application/srt"), ("json", "application/json")].prefix(Int(1 + random.next() % 3)) {
            out += "      <podcast:transcript url=\"https://example.org/\(slug)/\(number)/transcript.\(format)\" type=\"\(type)\" language=\"\(language.code)\"/>\n"
        }
        for index in 0..<Self.pick(persons, &random) {
            let role = ["host", "guest", "producer", "editor", "cover art designer"][index % 5]
            out += "      <podcast:person role=\"\(role)\" href=\"https://example.org/people/\(random.next() % 500)\" img=\"https://example.org/people/\(index).jpg\">\(escaped(language.name(&random)))</podcast:person>\n"
        }
        if random.next() % 3 == 0 {
            out += "      <psc:chapters version=\"1.2\">\n"
            for minute in stride(from: 0, to: 50, by: 10) {
                out += "        <psc:chapter start=\"00:\(String(format: "%02d", minute)):00.000\" title=\"\(escaped(language.title(&random)))\"/>\n"
            }
            out += "      </psc:chapters>\n"
        }
        out += "    </item>\n"
    }

    /// HTML of at least `notesBytes.lowerBound` UTF-8 bytes, indented and wrapped as CMSs write it.
    private func showNotes(language: Language, number: Int, _ random: inout SplitMix64) -> String {
        let target = notesBytes.lowerBound + Int(random.next() % UInt64(notesBytes.count))
        var html = ""
        while html.utf8.count < target {
            switch random.next() % 5 {
            case 0:
                html += "<ul>\n"
                for minute in 0..<Int(3 + random.next() % 6) {
                    html += "  <li>\(String(format: "%02d", minute * 7)):00 \(language.sentence(&random))</li>\n"
                }
                html += "</ul>\n"
            case 1:
                html += "<p><strong>Links:</strong><br>\n"
                for _ in 0..<Int(2 + random.next() % 4) {
                    let word = language.word(&random)
                    html += "<a href=\"https://example.org/\(random.next() % 10_000)?ref=show&amp;ep=\(number)\">\(word)</a><br>\n"
                }
                html += "</p>\n"
            default:
                html += "<p>"
                for sentence in 0..<Int(2 + random.next() % 5) {
                    if sentence > 0 { html += random.next() % 4 == 0 ? "&nbsp; " : " " }
                    html += language.sentence(&random)
                    if random.next() % 3 == 0 {
                        html += " <a href=\"https://example.org/\(random.next() % 10_000)\">\(language.word(&random))</a>"
                    }
                    if random.next() % 4 == 0 { html += " We&rsquo;re \(language.emoji(&random))" }
                }
                html += "</p>\n"
            }
        }
        return html
    }

    private static func pick(_ range: ClosedRange<Int>, _ random: inout SplitMix64) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    private func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func rfc822(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d +0000", days[Int(parts.tm_wday)], parts.tm_mday,
                      months[Int(parts.tm_mon)], parts.tm_year + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// `text` in `charset`; what it cannot encode becomes a numeric character
    /// reference, as feed generators write it (in CDATA show notes the HTML reads it).
    private static func encoded(_ text: String, as charset: String) -> Data {
        let descriptor = iconv_open(charset, "UTF-8")
        precondition(descriptor != iconv_t(bitPattern: -1), "iconv cannot write \(charset)")
        defer { iconv_close(descriptor) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count + 64)
        var written = 0
        input.withUnsafeMutableBytes { inputBytes in
            var inPointer = inputBytes.baseAddress!.assumingMemoryBound(to: CChar.self)
            var inLeft = inputBytes.count
            while inLeft > 0 {
                let outLeftBefore = output.count - written
                var outLeft = outLeftBefore
                var cursor: UnsafeMutablePointer<CChar>? = inPointer
                let result = output.withUnsafeMutableBytes { outputBytes -> Int in
                    var outPointer: UnsafeMutablePointer<CChar>? = outputBytes.baseAddress!.assumingMemoryBound(to: CChar.self) + written
                    return iconv(descriptor, &cursor, &inLeft, &outPointer, &outLeft)
                }
                inPointer = cursor!
                written += outLeftBefore - outLeft
                guard result == -1 else { break }
                if errno == E2BIG {
                    output += [UInt8](repeating: 0, count: output.count)
                    continue
                }
                precondition(errno == EILSEQ, "iconv failed writing \(charset)")
                // One scalar the charset lacks: its UTF-8 length from the lead byte.
                let lead = UInt8(bitPattern: inPointer.pointee)
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                let scalar = String(decoding: UnsafeRawBufferPointer(start: inPointer, count: length), as: UTF8.self)
                let reference = Array("&#\(scalar.unicodeScalars.first!.value);".utf8)
                if written + reference.count > output.count { output += [UInt8](repeating: 0, count: output.count) }
                output.replaceSubrange(written..<(written + reference.count), with: reference)
                written += reference.count
                inPointer += length
                inLeft -= length
            }
        }
        return Data(output[..<written])
    }

    /// Words, names and emoji for one feed's text; a UTF-8 feed mixes every script.
    private struct Language {
        var code: String
        var words: [String]
        var names: [String]
        /// Emoji, or their character references in a charset that has none.
        var emoji: [String]

        static func `for`(_ charset: Charset) -> Language {
            let references = ["&#127911;", "&#128293;", "&#128077;"]
            switch charset {
            case .utf8:
                return Language(code: "en", words: english + greek + cyrillic + arabic + cjk + western,
                                names: englishNames + ["Γιώργος Παπαδόπουλος", "Анна Смирнова", "محمد العلي", "山田太郎", "Zoë Müller"],
                                emoji: ["🎧", "🎙️", "🔥", "👍🏽", "👩‍💻", "🇬🇷", "😂", "🚀"])
            case .windows1252:
                return Language(code: "fr", words: english + western, names: englishNames + ["François Dupré", "Zoë Müller"],
                                emoji: references + ["“quoted”", "€5", "—"])
            case .greek:
                return Language(code: "el", words: english + greek, names: ["Γιώργος Παπαδόπουλος", "Μαρία Κωνσταντίνου"] + englishNames,
                                emoji: references)
            case .cyrillic:
                return Language(code: "ru", words: english + cyrillic, names: ["Анна Смирнова", "Иван Петров"] + englishNames,
                                emoji: references + ["«цитата»", "—"])
            }
        }

        func word(_ random: inout SplitMix64) -> String { words[Int(random.next() % UInt64(words.count))] }
        func name(_ random: inout SplitMix64) -> String { names[Int(random.next() % UInt64(names.count))] }
        func emoji(_ random: inout SplitMix64) -> String { emoji[Int(random.next() % UInt64(emoji.count))] }

        func sentence(_ random: inout SplitMix64) -> String {
            var text = (0..<Int(6 + random.next() % 14)).map { _ in word(&random) }.joined(separator: " ")
            if let first = text.first { text = first.uppercased() + text.dropFirst() }
            return text + [".", ".", "!", "?", "…"][Int(random.next() % 5)]
        }

        func title(_ random: inout SplitMix64) -> String {
            let text = (0..<Int(3 + random.next() % 6)).map { _ in word(&random) }.joined(separator: " ")
            return random.next() % 4 == 0 ? text + " & " + word(&random) : text
        }

        static let english = [
            "the", "podcast", "episode", "we", "talk", "about", "news", "interview", "with", "and", "our", "guest",
            "history", "science", "music", "story", "week", "today", "listener", "questions", "answers", "live",
            "recorded", "special", "season", "finale", "behind", "scenes", "culture", "technology", "future", "of",
            "in", "a", "on", "how", "why", "what", "it's", "don't", "world", "people", "book", "film", "review",
        ]
        static let western = ["café", "naïve", "Zürich", "crème", "brûlée", "façade", "déjà", "vu", "señor", "Ångström", "Øresund", "æther"]
        static let greek = ["καλημέρα", "ιστορία", "επεισόδιο", "συζήτηση", "μουσική", "Αθήνα", "φιλοσοφία", "ελληνικά", "και", "για", "ψυχή", "ώρα"]
        static let cyrillic = ["привет", "история", "выпуск", "беседа", "музыка", "Москва", "наука", "книга", "и", "про", "жизнь", "Ёлка"]
        static let arabic = ["مرحبا", "تاريخ", "حلقة", "حوار", "موسيقى", "القاهرة", "علم", "كتاب"]
        static let cjk = ["こんにちは", "歴史", "番組", "音楽", "東京", "播客", "节目", "讨论", "한국어", "이야기"]
        static let englishNames = ["Alex Johnson", "Sam O'Neil", "Priya Patel", "Jamie Lee", "Chris Evans", "Dana Scully"]
    }
}
