import Foundation

/// libFuzzer entry for MP4 chapters (the QuickTime chapter track and Nero's
/// chpl): any bytes as a whole file; whatever comes out has finite,
/// non-negative starts and at most the parser's limit of chapters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Chapters(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let chapters = MP4Chapters.read(Data(bytes: bytes, count: count))
    if chapters.count > MP4Chapters.sampleLimit { fatalError("\(chapters.count) chapters") }
    for chapter in chapters where !chapter.start.isFinite || chapter.start < 0 { fatalError("chapter at \(chapter.start)") }
    return 0
}
