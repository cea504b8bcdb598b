import Foundation

/// libFuzzer entry for transcripts: the first byte picks the format (WebVTT,
/// SubRip, JSON, HTML), the rest is the file. Every cue that comes out has
/// finite times within 0…1e7 s, its end not before its start, and some text;
/// an untimed (HTML) transcript's cues are all at 0. Anything else traps, and
/// so does an input parsed slower than its size allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTranscripts(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let formats: [TranscriptParser.Format] = [.webVTT, .subRip, .json, .html]
    let format = formats[Int(bytes[0]) % formats.count]
    let data = Data(bytes: bytes + 1, count: count - 1)
    SizeScaledTimeLimit.check(bytes: count) {
        guard let transcript = try? TranscriptParser.parse(data, format: format) else { return }
        for cue in transcript.cues {
            guard cue.start.isFinite, cue.end.isFinite, cue.start >= 0, cue.end >= cue.start, cue.end <= 10_000_000 else {
                fatalError("cue times \(cue.start)…\(cue.end) in \(format)")
            }
            guard !cue.text.isEmpty else { fatalError("empty cue in \(format)") }
            if !transcript.isTimed, cue.start != 0 { fatalError("untimed cue at \(cue.start)") }
        }
    }
    return 0
}
