import Foundation
import TrackcastCore

/// The body of an episode-actions upload, written by hand: JSONSerialization
/// takes about 0.2 s for 5,000 actions (each a dictionary of boxed values),
/// four times what sending them costs; this writes the same JSON directly,
/// byte by byte (keys, numbers and timestamps too: formatting them as
/// strings first cost 25 ms a batch).
enum EpisodeActionsJSON {
    static func encode(_ actions: [EpisodeAction], device: String) -> Data {
        var out = [UInt8]()
        out.reserveCapacity(actions.count * 256)
        out.append(UInt8(ascii: "["))
        for (index, action) in actions.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"podcast":"#.utf8)
            string(action.podcast, into: &out)
            out.append(contentsOf: #","episode":"#.utf8)
            string(action.episode, into: &out)
            if let guid = action.guid {
                out.append(contentsOf: #","guid":"#.utf8)
                string(guid, into: &out)
            }
            out.append(contentsOf: #","action":"#.utf8)
            string(action.kind.rawValue, into: &out)
            out.append(contentsOf: #","timestamp":""#.utf8)
            SyncTimestamp.write(action.timestamp, into: &out)
            out.append(contentsOf: #"","device":"#.utf8)
            string(device, into: &out)
            if action.kind == .play {
                number(#","started":"#, action.started ?? 0, into: &out)
                number(#","position":"#, action.position ?? 0, into: &out)
                if let total = action.total, total > 0 { number(#","total":"#, total, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return Data(out)
    }

    /// Whole seconds, as the API asks; the values were range-checked when recorded.
    private static func number(_ key: StaticString, _ seconds: Double, into out: inout [UInt8]) {
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        var whole = seconds.isFinite ? Int(min(max(seconds, 0), MediaTime.maximumSeconds)) : 0
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(whole % 10))
            whole /= 10
        } while whole > 0
        out[start...].reverse()
    }

    private static func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex: StaticString = "0123456789abcdef"
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                hex.withUTF8Buffer { out.append(contentsOf: [$0[Int(byte >> 4)], $0[Int(byte & 15)]]) }
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
