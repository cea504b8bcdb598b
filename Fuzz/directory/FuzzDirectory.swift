import Foundation

/// libFuzzer entry for directory answers: the first byte picks the service
/// (iTunes Search or Podcast Index), the rest is what it answered. Every
/// result has a title with no whitespace at its ends, feed and artwork
/// addresses that are http(s), a count that is not negative, and a feed of
/// its own. Anything else traps, and so does an answer read slower than its
/// size allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDirectory(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let data = Data(bytes: bytes + 1, count: count - 1)
    SizeScaledTimeLimit.check(bytes: count) {
        guard let answer = try? DirectoryAnswer.object(data) else { return }
        let results = bytes[0] % 2 == 0 ? try? DirectoryAnswer.iTunesResults(answer)
                                        : try? DirectoryAnswer.podcastIndexResults(answer)
        var feeds = Set<URL>()
        for result in results ?? [] {
            guard !result.title.isEmpty, result.title.first?.isWhitespace == false,
                  result.title.last?.isWhitespace == false else { fatalError("title \(result.title.debugDescription)") }
            for url in [result.feedURL, result.artworkURL].compactMap({ $0 }) {
                guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { fatalError("address \(url)") }
            }
            guard (result.episodeCount ?? 0) >= 0 else { fatalError("count \(result.episodeCount!)") }
            guard feeds.insert(result.feedURL).inserted else { fatalError("feed listed twice: \(result.feedURL)") }
        }
    }
    return 0
}
