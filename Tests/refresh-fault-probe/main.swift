import Foundation
import TrackcastLibrary

// A process of its own for one network fault: it refreshes every show of the
// library in LIBRARY-DIR with the fault table's short timeouts (seconds to
// connect, seconds in all), then reports its own peak resident memory. In the
// test runner's process an earlier peak, another fault's or another test's,
// would hide this one's.
//
//   refresh-fault-probe LIBRARY-DIR CONNECT-SECONDS TOTAL-SECONDS
//
// Prints one JSON object: the peak (VmHWM) in bytes, and how each show's
// refresh ended, by feed URL.

struct Report: Codable {
    var peakResidentBytes: Int
    /// "updated", "notModified", "failed", "cancelled" or "unsubscribed".
    var outcomes: [String: String]
}

func peakResidentBytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let connect = Int(arguments[1]), let total = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: refresh-fault-probe LIBRARY-DIR CONNECT-SECONDS TOTAL-SECONDS\n".utf8))
    exit(2)
}
do {
    let store = try await LibraryStore(directory: URL(fileURLWithPath: arguments[0]))
    let options = RefreshOptions(timeouts: HTTPTimeouts(connect: .seconds(connect), total: .seconds(total)))
    let refresher = FeedRefresher(store: store, client: HTTPClient(userAgent: "Trackcast-tests"), options: options)
    var outcomes: [String: String] = [:]
    for report in try await refresher.refreshAll() {
        outcomes[report.feedURL.absoluteString] = switch report.outcome {
        case .updated: "updated"
        case .notModified: "notModified"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .unsubscribed: "unsubscribed"
        }
    }
    let report = Report(peakResidentBytes: peakResidentBytes(), outcomes: outcomes)
    FileHandle.standardOutput.write(try JSONEncoder().encode(report))
} catch {
    FileHandle.standardError.write(Data("refresh-fault-probe: \(error)\n".utf8))
    exit(1)
}
