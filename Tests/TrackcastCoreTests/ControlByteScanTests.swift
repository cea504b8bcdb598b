import Testing
@testable import TrackcastCLI
import TrackcastCore

/// The scan skips eight bytes at a time, so each candidate is put at every
/// offset of a word and across word boundaries: one it stepped over would be
/// a control character passed to the terminal.
@Suite("Control byte scan")
struct ControlByteScanTests {
    private static let candidates: [UInt8] = Array(0x00..<0x20) + [0x7F, 0xC2]

    @Test("every candidate is found at every offset, and nothing else is")
    func everyOffset() {
        for candidate in Self.candidates {
            for offset in 0..<24 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
                bytes[offset] = candidate
                let found = bytes.withUnsafeBufferPointer { ControlByteScan.firstCandidate(in: $0, from: 0) }
                #expect(found == offset, "byte \(candidate) at \(offset)")
                let after = bytes.withUnsafeBufferPointer { ControlByteScan.firstCandidate(in: $0, from: offset + 1) }
                #expect(after == 24, "byte \(candidate) at \(offset), searched past it")
            }
        }
        for byte in UInt8.min...UInt8.max where !Self.candidates.contains(byte) {
            let bytes = [UInt8](repeating: byte, count: 19)
            #expect(bytes.withUnsafeBufferPointer { ControlByteScan.firstCandidate(in: $0, from: 0) } == 19, "byte \(byte)")
        }
    }

    @Test("the CLI escapes a control at every offset of its output, and only controls")
    func terminalEscapes() {
        let controls: [[UInt8]] = [[0x1B], [0x07], [0x0D], [0x7F], [0xC2, 0x9B], [0xC2, 0x85]]
        for control in controls {
            for offset in 0..<20 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
                bytes.replaceSubrange(offset..<(offset + 1), with: control)
                let text = String(decoding: bytes, as: UTF8.self)
                let escaped = Array(TerminalText.escaped(text).utf8)
                #expect(escaped != bytes, "\(control) at \(offset)")
                #expect(!escaped.contains(0x1B) && !escaped.contains(0x7F), "\(control) at \(offset)")
            }
        }
        let kept = "a\tb\nc é ü \u{A0} 東京 😀"
        #expect(TerminalText.escaped(kept) == kept)
    }
}
