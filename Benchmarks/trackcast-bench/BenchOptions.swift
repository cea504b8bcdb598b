import Foundation

/// `--name value` pairs from the bench script.
struct BenchOptions {
    private var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) {
        var remaining = arguments
        while let name = remaining.popFirst() {
            values[name] = remaining.popFirst()
        }
    }

    func value(_ name: String) -> String? {
        values[name]
    }

    func path(_ name: String) -> URL {
        guard let value = values[name] else {
            FileHandle.standardError.write(Data("trackcast-bench: missing \(name) PATH\n".utf8))
            exit(2)
        }
        return URL(fileURLWithPath: value)
    }
}
