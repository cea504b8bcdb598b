import Foundation

/// Slowness is a finding: an input that takes longer than
/// `TRACKCAST_FUZZ_SECONDS_PER_MB` seconds per megabyte of its size (plus a
/// second for the fixed costs) traps, so a parser whose time grows with the
/// square of its input fails the run even where libFuzzer's flat `-timeout`
/// would let it through. Unset, nothing is timed: the short runs of the
/// test suite share a loaded machine, and a timing trap there would be noise.
enum SizeScaledTimeLimit {
    private static let secondsPerMB: Double? = ProcessInfo.processInfo.environment["TRACKCAST_FUZZ_SECONDS_PER_MB"]
        .flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }

    /// Runs `body` on an input of `count` bytes and traps if it overran.
    static func check(bytes count: Int, _ body: () -> Void) {
        guard let secondsPerMB else { return body() }
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        let limit = Duration.seconds(1 + secondsPerMB * Double(count) / 1_048_576)
        if elapsed > limit { fatalError("slow: \(elapsed) for \(count) bytes, limit \(limit)") }
    }
}
