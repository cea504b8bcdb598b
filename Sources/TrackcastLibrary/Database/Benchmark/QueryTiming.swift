/// How long one library query took over repeated runs.
public struct QueryTiming: Sendable, Equatable {
    public let name: String
    public let runs: Int
    public let p50: Duration
    public let p99: Duration

    /// Nearest-rank percentiles of `samples`, which must not be empty.
    init(name: String, samples: [Duration]) {
        precondition(!samples.isEmpty, "a timing needs at least one run")
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Duration {
            sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        self.name = name
        runs = samples.count
        p50 = percentile(0.50)
        p99 = percentile(0.99)
    }
}
