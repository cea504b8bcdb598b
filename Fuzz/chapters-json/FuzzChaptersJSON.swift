import Foundation

/// libFuzzer entry for Podcasting 2.0 chapters files: any bytes; the chapters
/// that come out have finite, non-negative starts and only web links.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChaptersJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let base = URL(string: "https://example.org/episode/chapters.json")!
    guard let chapters = try? PodcastChaptersFile.parse(Data(bytes: bytes, count: count), relativeTo: base) else { return 0 }
    for chapter in chapters {
        guard chapter.start.isFinite, chapter.start >= 0 else { fatalError("chapter start \(chapter.start)") }
        for link in [chapter.url, chapter.image?.url].compactMap({ $0 }) where !["http", "https"].contains(link.scheme?.lowercased() ?? "") {
            fatalError("chapter links to \(link)")
        }
    }
    return 0
}
