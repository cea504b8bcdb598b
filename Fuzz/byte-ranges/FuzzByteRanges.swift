import Foundation

/// libFuzzer entry for Content-Length and Content-Range: any text. A length
/// is never negative and writes back as the digits it was read from; a range
/// has 0 ≤ start ≤ end, end < total when a total is given, and reads back the
/// same once written out again. Anything else traps, and so does an input
/// read slower than its size allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzByteRanges(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    SizeScaledTimeLimit.check(bytes: count) {
        if let length = ByteCountHeaders.length(text) {
            guard length >= 0 else { fatalError("length \(length) from \(text.debugDescription)") }
            let digits = text.trimmingCharacters(in: [" ", "\t"]).drop { $0 == "0" }
            guard String(length) == (digits.isEmpty ? "0" : String(digits)) else {
                fatalError("length \(length) from \(text.debugDescription)")
            }
        }
        if let range = ByteCountHeaders.contentRange(text) {
            guard range.start >= 0, range.start <= range.end, range.total.map({ range.end < $0 }) ?? true else {
                fatalError("range \(range) from \(text.debugDescription)")
            }
            let written = "bytes \(range.start)-\(range.end)/" + (range.total.map(String.init) ?? "*")
            guard let again = ByteCountHeaders.contentRange(written),
                  again.start == range.start, again.end == range.end, again.total == range.total else {
                fatalError("range \(range) from \(text.debugDescription) reads back differently")
            }
        }
    }
    return 0
}
