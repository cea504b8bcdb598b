import Foundation

/// libFuzzer entry for the check a subtitle file passes before the player
/// gets it: the first byte picks SubRip or WebVTT, the rest is the file. It
/// counts the cues or refuses the file; a count is never negative and a file
/// with a NUL byte is always refused. Anything else traps, and so does a file
/// checked slower than its size allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let format: TranscriptParser.Format = bytes[0] % 2 == 0 ? .subRip : .webVTT
    let data = Data(bytes: bytes + 1, count: count - 1)
    SizeScaledTimeLimit.check(bytes: count) {
        guard let cues = try? SubtitleFileCheck.cueCount(in: data, format: format) else { return }
        guard cues >= 0 else { fatalError("\(cues) cues") }
        guard !data.contains(0) else { fatalError("a file with a NUL byte passed as \(format)") }
    }
    return 0
}
