import Foundation

/// libFuzzer entry for ID3v2 CHAP frames: any bytes as the start of a media
/// file; chapters that come out have only web links.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzID3Chapters(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = ID3Chapters.tagLength(header: data.prefix(10))
    for chapter in ID3Chapters.read(data) {
        for link in [chapter.url, chapter.image?.url].compactMap({ $0 }) where !["http", "https"].contains(link.scheme?.lowercased() ?? "") {
            fatalError("chapter links to \(link)")
        }
    }
    return 0
}
