import Foundation

/// libFuzzer entry for chapters in Vorbis comments: each line of the input
/// is one comment ("KEY=value"). The chapters come in time order, start at
/// or after zero, end where the next starts (the last at the duration), and
/// there are no more of them than comments. Anything else traps, and so do
/// comments read slower than their size allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVorbisChapters(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let comments = text.split(separator: "\n").map(String.init)
    let duration = Duration.seconds(3600)
    SizeScaledTimeLimit.check(bytes: count) {
        let chapters = VorbisCommentChapters.chapters(from: comments, duration: duration)
        guard chapters.count <= comments.count else { fatalError("\(chapters.count) chapters from \(comments.count) comments") }
        for (index, chapter) in chapters.enumerated() {
            guard chapter.start >= .zero else { fatalError("start \(chapter.start)") }
            let next = index + 1 < chapters.count ? chapters[index + 1].start : duration
            guard chapter.end == next, chapter.start <= next else { fatalError("chapter \(index): \(chapter)") }
        }
    }
    return 0
}
