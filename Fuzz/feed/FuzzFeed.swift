import CTrackcastText
import Foundation

/// libFuzzer entry for the feed parser: any bytes, parsed as a feed from an
/// HTTP URL with and without a charset header, and every feed that parses
/// written out as the CLI's JSON, and its episodes' links made into URLs:
/// a link kept as text (`FeedLink`) must make the URL the JSON printed. A
/// crash, a sanitizer report, a hang or a runaway allocation is a finding; a
/// thrown `FeedParseError` is not. The decoder's UTF-8 check, by AVX2 and
/// without it, must answer as the standard library's validation does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let valid = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) != nil
    if tc_utf8_is_valid(bytes, count) != valid || tc_utf8_is_valid_portable(bytes, count) != valid {
        fatalError("UTF-8 check: \(tc_utf8_is_valid(bytes, count)), \(tc_utf8_is_valid_portable(bytes, count)), Swift \(valid)")
    }
    let data = Data(bytes: bytes, count: count)
    let url = URL(string: "https://example.org/podcast/feed.xml")!
    let parser = FeedParser(options: FeedParser.Options(maxEpisodes: count % 7 == 0 ? 3 : nil))
    for contentType in [nil, "application/rss+xml; charset=iso-8859-1"] {
        if let feed = try? parser.parse(data, url: url, httpContentType: contentType) {
            _ = FeedJSON(feed).data()
            for episode in feed.episodes {
                let links = [episode.storedLink, episode.storedImageURL, episode.storedChaptersURL]
                    + episode.enclosures.map(\.storedURL) + episode.transcripts.map(\.storedURL)
                for case let link? in links where link.url.absoluteString != link.absoluteString {
                    fatalError("\(link.absoluteString) made \(link.url.absoluteString)")
                }
            }
        }
    }
    return 0
}
