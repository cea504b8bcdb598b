import Bindings
import Foundation
import TestSupport

// Prints the benchmark table. Each row measures Trackcast and a peer or
// floor in the same run, on the same machine, so the ratio means something
// even when the machine is noisy.

let options = BenchOptions(CommandLine.arguments.dropFirst())
var table = BenchTable()

// `--only startup,cli-startup,static,ui,parsing,hostile,refresh,queries,search,search-provider,playback,interstitials,chapters,mpris,commands,listening,video,sync` runs some of the groups.
let groups = Set((options.value("--only") ?? "startup,cli-startup,static,ui,parsing,hostile,refresh,queries,search,search-provider,playback,interstitials,chapters,mpris,commands,listening,video,sync").split(separator: ",").map(String.init))

// `--write-realistic-corpus FOLDER` writes the realistic parsing row's feeds
// there and exits, for a profiler to run `trackcast feed parse` on.
if let folder = options.value("--write-realistic-corpus") {
    for member in RealisticFeedCorpus.bench {
        try member.writer.data().write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(member.name).xml"))
    }
    exit(0)
}

// Synchronous top-level code on purpose, as in the app: the main thread runs
// GLib's main loop, and the bridge drains the main actor's queue from it, so
// bus watches, D-Bus calls and timeouts are handled the moment they are ready,
// as the app handles them (an async main would park the thread in dispatch_main).
MainQueueBridge.install()
let loop = MainLoop()
var failure: (any Error)?
Task {
    do {
        if groups.contains("startup") {
            let startup = StartupBenchmark(trackcast: options.path("--trackcast"), floorWindow: options.path("--floor-window"))
            table.add(try startup.run())
            table.add(try await LibraryStartupBenchmark(startup: startup).run())
            for row in try PeerStartupBenchmark(trackcast: options.path("--trackcast"),
                                                firstPaint: options.path("--first-paint")).run() {
                table.add(row)
            }
        }
        if groups.contains("cli-startup") {
            for row in try CLIStartupBenchmark(trackcast: options.path("--trackcast"), floor: options.path("--floor-cli"),
                                               floorWithGUILibraries: options.path("--floor-cli-gui")).run() {
                table.add(row)
            }
        }
        if groups.contains("static") {
            let startup = StartupBenchmark(trackcast: options.path("--trackcast"), floorWindow: options.path("--floor-window"))
            for row in try StaticLinkBenchmark(staticBinary: options.path("--trackcast-static"),
                                               dynamicBinary: options.path("--trackcast"), startup: startup).run() {
                table.add(row)
            }
        }
        if groups.contains("ui") {
            let scroll = ShowPageScrollBenchmark(trackcast: options.path("--trackcast"), floorList: options.path("--floor-list"))
            for row in try await scroll.run() { table.add(row) }
        }
        if groups.contains("parsing") {
            let podcastparser = PodcastparserPeer(python: options.path("--python"), pythonPath: options.path("--python-path"),
                                                  script: options.path("--podcastparser-script"))
            for row in try await FeedParsingBenchmark(peer: podcastparser).run() { table.add(row) }
            let realistic = RealisticFeedParsingBenchmark(peer: podcastparser, trackcast: options.path("--trackcast"),
                                                          peakMemoryScript: options.path("--peak-memory-script"))
            for row in try realistic.run() { table.add(row) }
        }
        if groups.contains("hostile") { for row in try HostileShapesBenchmark().run() { table.add(row) } }
        if groups.contains("refresh") {
            for row in try await RefreshBenchmark().run() { table.add(row) }
            for row in try await RefreshBenchmark().runRealistic() { table.add(row) }
        }
        if groups.contains("queries") {
            for row in try await LibraryQueriesBenchmark().run() { table.add(row) }
        }
        if groups.contains("search") {
            var search = SearchBenchmark()
            // `--search-transcripts N`: fewer hour-long transcripts, for a quick look.
            if let count = options.value("--search-transcripts").flatMap(Int.init), count >= 0 { search.transcribed = count }
            for row in try await search.run() { table.add(row) }
        }
        if groups.contains("search-provider") {
            let startup = StartupBenchmark(trackcast: options.path("--trackcast"), floorWindow: options.path("--floor-window"))
            table.add(try await SearchProviderBenchmark(startup: startup).run())
        }
        if groups.contains("playback") {
            // `--playback-runs N`: more loads per first-buffer row and more seeks, for a noisy machine.
            var playback = PlaybackBenchmark()
            if let runs = options.value("--playback-runs").flatMap(Int.init), runs > 0 {
                playback.startRuns = runs
                playback.seekRuns = runs
            }
            for row in try await playback.run() { table.add(row) }
        }
        if groups.contains("interstitials") { for row in try await InterstitialBenchmark().run() { table.add(row) } }
        if groups.contains("chapters") { for row in try await ChaptersBenchmark().run() { table.add(row) } }
        if groups.contains("mpris") { for row in try await MPRISBenchmark().run() { table.add(row) } }
        if groups.contains("commands") {
            for row in try await PlayCommandBenchmark(trackcast: options.path("--trackcast")).run() { table.add(row) }
        }
        if groups.contains("listening") { for row in try await ListeningBenchmark().run() { table.add(row) } }
        if groups.contains("video") {
            for row in try await VideoBenchmark(trackcast: options.path("--trackcast"),
                                                    floorFrames: options.path("--floor-frames")).run() { table.add(row) }
        }
        if groups.contains("sync") { for row in try await SyncBenchmark().run() { table.add(row) } }
    } catch {
        failure = error
    }
    loop.quit()
}
loop.run()

if let failure {
    FileHandle.standardError.write(Data("trackcast-bench: \(failure)\n".utf8))
    exit(1)
}
print(table.rendered)
