import Foundation

/// libFuzzer entry for MP4 chapters (the QuickTime chapter track and Nero's
/// chpl): any bytes as a whole file; whatever comes out has finite,
/// non-negative starts, at most the parser's limit of chapters, web links
/// only and pictures within the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Chapters(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let chapters = MP4Chapters.read(Data(bytes: bytes, count: count))
    if chapters.count > MP4Chapters.sampleLimit { fatalError("\(chapters.count) chapters") }
    for chapter in chapters where !chapter.start.isFinite || chapter.start < 0 { fatalError("chapter at \(chapter.start)") }
    for chapter in chapters where chapter.url.map({ !["http", "https"].contains($0.scheme ?? "") }) ?? false {
        fatalError("chapter link \(chapter.url?.absoluteString ?? "")")
    }
    for case .embedded(let picture, _)? in chapters.map(\.image) where picture.count > MP4Chapters.pictureLimit {
        fatalError("a picture of \(picture.count) bytes")
    }
    return 0
}
