import Foundation

// Prints the benchmark table. Each row measures Trackcast and a peer or
// floor in the same run, on the same machine, so the ratio means something
// even when the machine is noisy.

let options = BenchOptions(CommandLine.arguments.dropFirst())
var table = BenchTable()

do {
    let startup = StartupBenchmark(trackcast: options.path("--trackcast"), floorWindow: options.path("--floor-window"))
    table.add(try startup.run())
    table.add(try await LibraryStartupBenchmark(startup: startup).run())
} catch {
    FileHandle.standardError.write(Data("trackcast-bench: \(error)\n".utf8))
    exit(1)
}

print(table.rendered)
