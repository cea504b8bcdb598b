import Foundation

/// One measured figure against its peer or floor.
struct BenchRow {
    let measured: String
    let unit: String
    let trackcast: Double
    let peerName: String
    let peer: Double
    /// Trackcast's figure over the peer's; below 1 means Trackcast is smaller.
    var ratio: Double { trackcast / peer }
}

struct BenchTable {
    private var rows: [BenchRow] = []

    mutating func add(_ row: BenchRow) { rows.append(row) }

    var rendered: String {
        let header = ["measured", "Trackcast", "peer or floor", "peer", "ratio"]
        let body = rows.map { row in
            [row.measured, format(row.trackcast, row.unit), row.peerName, format(row.peer, row.unit),
             String(format: "%.2f×", row.ratio)]
        }
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([line(header), rule] + body.map(line)).joined(separator: "\n")
    }

    private func format(_ value: Double, _ unit: String) -> String {
        String(format: "%.1f %@", value, unit)
    }
}
