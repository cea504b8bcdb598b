import Foundation
import TestSupport
import Testing

/// The real `trackcast` binary, headless: no display may be needed.
@Suite("trackcast on the command line")
struct CommandLineTests {
    private let trackcast = BuiltProducts.executable("trackcast")
    private let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

    @Test("--help works without a display")
    func help() async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["--help"], environment: noDisplay)
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: trackcast"))
        #expect(result.standardOutput.contains("--library DIR"))
        #expect(result.standardError.isEmpty)
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["--version"], environment: noDisplay)
        #expect(result.status == 0)
        #expect(result.standardOutput.range(of: #"^trackcast \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test("bad options and unknown commands exit 2 with a message and touch nothing", arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["--library"], "option --library needs a directory"),
    ])
    func usageError(arguments: [String], message: String) async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-untouched-\(UUID())")
        let result = try await ChildProcess.run(trackcast, arguments: arguments,
                                                environment: noDisplay.merging(["TRACKCAST_LIBRARY_DIR": library.path]) { $1 })
        #expect(result.status == 2)
        #expect(result.standardError.contains("trackcast: \(message)"))
        #expect(result.standardError.contains("trackcast --help"))
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }
}

@Suite("trackcast in the user's language", .needs("msgfmt"))
struct TranslatedCommandLineTests {
    /// Compiles the German catalog from the source tree, as meson would install it.
    private func germanCatalog() async throws -> URL {
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let localeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-locale-\(UUID())")
        let messages = localeDirectory.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        let compiled = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/msgfmt"), arguments: [
            "--check", "--output-file=\(messages.appendingPathComponent("trackcast.mo").path)",
            sourceRoot.appendingPathComponent("po/de.po").path,
        ])
        try #require(compiled.status == 0, "msgfmt failed: \(compiled.standardError)")
        return localeDirectory
    }

    @Test("LANGUAGE=de gives German help and errors")
    func german() async throws {
        let environment: [String: String?] = ["LANG": "C.UTF-8", "LC_ALL": nil, "LANGUAGE": "de",
                                              "TRACKCAST_LOCALEDIR": try await germanCatalog().path,
                                              "DISPLAY": nil, "WAYLAND_DISPLAY": nil]
        let trackcast = BuiltProducts.executable("trackcast")
        let help = try await ChildProcess.run(trackcast, arguments: ["--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("Aufruf: trackcast"))
        #expect(help.standardOutput.contains("Diese Hilfe anzeigen"))
        let wrong = try await ChildProcess.run(trackcast, arguments: ["--frobnicate"], environment: environment)
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("Unbekannte Option »--frobnicate«"))
    }
}

@Suite("trackcast feed parse")
struct FeedParseCommandTests {
    private let trackcast = BuiltProducts.executable("trackcast")
    private let sampleShow = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/sample/sample-show.xml")

    @Test("prints the feed as JSON without a display or a library")
    func parsesSampleShow() async throws {
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-untouched-\(UUID())")
        let result = try await ChildProcess.run(trackcast, arguments: ["--library", library.path, "feed", "parse",
                                                                        sampleShow.path, "--json"],
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["title"] as? String == "Trackcast Sample Show")
        let episodes = try #require(json["episodes"] as? [[String: Any]])
        #expect(episodes.count == 3)
        #expect(episodes.first?["duration"] as? Double == 16)
        #expect(!FileManager.default.fileExists(atPath: library.path), "parsing touches no library")
    }

    @Test("a feed's address is fetched over HTTP through its redirect; a missing one gets the server's status")
    func parsesFeedFromServer() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/old.xml", .redirect(302, to: "/feed.xml"))
        server.route("/feed.xml", .serve(try Data(contentsOf: sampleShow), contentType: "application/rss+xml"))
        let result = try await ChildProcess.run(trackcast, arguments: ["feed", "parse", server.url("/old.xml"), "--json"],
                                                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect((json["episodes"] as? [[String: Any]])?.count == 3)
        #expect(server.log(for: "/feed.xml").first?.headers["user-agent"]?.hasPrefix("Trackcast/") == true)

        let missing = try await ChildProcess.run(trackcast, arguments: ["feed", "parse", server.url("/gone.xml"), "--json"],
                                                 environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(missing.status == 1)
        #expect(missing.standardError == "trackcast: \(server.url("/gone.xml")): The server answered 404 (Not Found).\n")
        #expect(missing.standardOutput.isEmpty)
    }

    @Test("controls in a feed that its text keeps reach the terminal escaped, as JSON")
    func controlsEscaped() async throws {
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-feed-controls-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: feed) }
        // NEL is whitespace the text keeps; attribute values keep CSI and DEL as XML allows them.
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Show</title>
            <item><title>A&#x85;B</title><guid>1</guid>
            <psc:chapters><psc:chapter start="0" title="C&#x9b;2J&#x7f;D"/></psc:chapters></item>
            </channel></rss>
            """.utf8).write(to: feed)
        let result = try await ChildProcess.run(trackcast, arguments: ["feed", "parse", feed.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let raw = result.standardOutput.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
        #expect(raw.isEmpty, "printed \(raw.map { String($0.value, radix: 16) })")
        #expect(result.standardOutput.contains(#""title": "C\u009B2J\u007FD""#), "\(result.standardOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let episode = try #require((json["episodes"] as? [[String: Any]])?.first)
        let chapter = try #require((episode["chapters"] as? [[String: Any]])?.first)
        #expect(chapter["title"] as? String == "C\u{9B}2J\u{7F}D")
    }

    @Test("feed parse grows its heap once, 64 MB advised for huge pages; a library command keeps glibc's own heap")
    func batchHeap() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        // Headers at once, then nothing: the commands wait for the rest up to their total timeout
        // (90 s), where a server that never answers would time them out after 20 s, which a loaded
        // CI machine took to get from the request to reading the heap.
        let head = Data("<?xml version=\"1.0\"?><rss><channel>".utf8)
        server.route("/parse.xml", .stallAfter(bytes: head.count, head + head, contentType: "application/rss+xml"))
        server.route("/subscribe.xml", .stallAfter(bytes: head.count, head + head, contentType: "application/rss+xml"))
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-batch-heap-\(UUID())")
        defer { try? FileManager.default.removeItem(at: library) }
        let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

        /// The process's heap, as the kernel has it while the process waits for the server.
        func heapWhileWaiting(_ arguments: [String], path: String) async throws -> [(size: Int, flags: [Substring])] {
            let process = try ChildProcess(trackcast, arguments: arguments, environment: noDisplay)
            defer { process.terminate() }
            #expect(await process.waitFor(timeout: .seconds(20)) { _ in !server.log(for: path).isEmpty })
            // procfs files have no size: read to the end, not by the size stat gives.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(process.pid)/smaps"))
            let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            try handle.close()
            let state = "\(arguments): ended \(String(describing: process.ended)), stderr \(process.standardError)"
            try #require(smaps.contains("libc.so"), "the mappings were not read: \(smaps.count) characters; \(state)")
            var regions: [(size: Int, flags: [Substring])] = []
            var inHeap = false
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if let range = fields.first, range.contains("-"), fields.count >= 5 {
                    inHeap = fields.last == "[heap]"
                    let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                    if inHeap, bounds.count == 2 { regions.append((bounds[1] - bounds[0], [])) }
                } else if inHeap, fields.first == "VmFlags:" {
                    regions[regions.count - 1].flags = Array(fields.dropFirst())
                }
            }
            return regions
        }

        let parsing = try await heapWhileWaiting(["feed", "parse", server.url("/parse.xml"), "--json"], path: "/parse.xml")
        // A kernel built without transparent huge pages refuses the advice; the heap still grows once.
        let kernelHasHugePages = FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")
        #expect(parsing.contains { $0.size >= 64 << 20 && $0.flags.contains("hg") == kernelHasHugePages }, "\(parsing)")
        let subscribing = try await heapWhileWaiting(["--library", library.path, "subscribe", server.url("/subscribe.xml")],
                                                     path: "/subscribe.xml")
        #expect(!subscribing.isEmpty && !subscribing.contains { $0.flags.contains("hg") }, "\(subscribing)")
    }

    @Test("bad input gets one clear line and exit status 1", arguments: [
        ("/nonexistent/feed.xml", "/nonexistent/feed.xml:"),
        ("/etc/hostname", "/etc/hostname:"),
    ])
    func badInput(path: String, prefix: String) async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["feed", "parse", path, "--json"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("trackcast: \(prefix)"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardOutput.isEmpty)
    }
}

/// `trackcast play` from a terminal: no display, no sound card (a
/// synchronised fakesink through TRACKCAST_AUDIO_SINK), the real binary on
/// the real GLib main loop.
@Suite("trackcast play")
struct PlayCommandTests {
    private let trackcast = BuiltProducts.executable("trackcast")
    private let headless: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil,
                                               "TRACKCAST_AUDIO_SINK": "fakesink sync=true"]

    /// `seconds` of Opus, made once per test with gst-launch-1.0.
    private func tone(seconds: Int) async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-play-\(UUID()).opus")
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=\(seconds * 50)", "samplesperbuffer=960", "!", "audio/x-raw,rate=48000",
            "!", "audioconvert", "!", "opusenc", "!", "oggmux", "!", "filesink", "location=\(file.path)",
        ])
        #expect(made.status == 0, "\(made.standardError)")
        return file
    }

    private func positions(in output: String) -> [Double] {
        output.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("position ") else { return nil }
            let clock = line.dropFirst("position ".count).split(separator: " ")[0].split(separator: ":")
            return clock.reduce(0.0) { $0 * 60 + (Double($1) ?? 0) }
        }
    }

    @Test("plays a file to the end, printing states and the position, and exits 0")
    func playsToTheEnd() async throws {
        let file = try await tone(seconds: 2)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(trackcast, arguments: ["play", file.path], environment: headless,
                                                timeout: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "state loading")
        #expect(lines.contains("state ready"))
        #expect(lines.contains("state playing"))
        #expect(lines.last == "state ended")
        let seen = positions(in: result.standardOutput)
        #expect(seen.count >= 2, "positions: \(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("--start and --rate: starts late and plays fast")
    func startAndRate() async throws {
        let file = try await tone(seconds: 8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(trackcast, arguments: ["play", file.path, "--start", "4", "--rate", "2"],
                                                environment: headless, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        let seen = positions(in: result.standardOutput)
        let first = try #require(seen.first)
        #expect(first >= 4 && first < 5, "first position \(first)")
        // Positions are printed every half second of wall time: a second of
        // media apart at 2×, half a second at 1×. (A loaded machine only
        // delays ticks, which widens the steps; it cannot narrow them.)
        let steps = zip(seen, seen.dropFirst()).map { $1 - $0 }.sorted()
        let median = try #require(steps.isEmpty ? nil : steps[steps.count / 2], "positions: \(seen)")
        #expect(median >= 0.8, "steps of \(median) s of media per tick: \(seen)")
    }

    @Test("--skip-silence --voice-boost: plays to the end and says how much time skipping saved, within 10 % of the pauses beyond what it keeps")
    func skipSilence() async throws {
        let talk = TalkLikeAudio(parts: [.talk(seconds: 1), .pause(seconds: 2), .talk(seconds: 1), .pause(seconds: 1.5), .talk(seconds: 0.5)])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-talk-\(UUID()).wav")
        try talk.writeWAV(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ChildProcess.run(trackcast, arguments: ["play", file.path, "--skip-silence", "--voice-boost"],
                                                environment: headless, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        let last = try #require(lines.last.map(String.init))
        let saved = try #require(Double(last.replacingOccurrences(of: "saved ", with: "").prefix { $0 != " " }), "last line: \(last)")
        #expect(last.hasSuffix(" s by skipping silence"))
        #expect(abs(saved - 2.9) <= 0.29, "saved \(saved) s of 2.9 s")
    }

    @Test("the sound server sees who plays and what: application name, icon and the music role",
          .needs("pulseaudio", "pactl"))
    func soundServerProperties() async throws {
        let file = try await tone(seconds: 8)
        defer { try? FileManager.default.removeItem(at: file) }
        // A real PulseAudio of the test's own, with a null sink to play into.
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pulse-\(UUID())")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let socket = runtime.appendingPathComponent("native").path
        // Daemonized: it outlives the starting process, which ends at once,
        // and is stopped through its pid file.
        let pulseEnvironment: [String: String?] = ["HOME": runtime.path, "XDG_RUNTIME_DIR": runtime.path]
        let started = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/pulseaudio"), arguments: [
            "-n", "--daemonize=yes", "--exit-idle-time=-1", "--log-target=stderr",
            "--load=module-null-sink sink_name=trackcast_test", "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ], environment: pulseEnvironment)
        defer {
            let pidFile = runtime.appendingPathComponent("pulse/pid")
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGTERM)
            }
        }
        try #require(started.status == 0 && FileManager.default.fileExists(atPath: socket),
                     "PulseAudio did not start: \(started.standardError)")

        var environment = headless
        environment["TRACKCAST_AUDIO_SINK"] = .some(nil)
        environment["PULSE_SERVER"] = "unix:\(socket)"
        let player = try ChildProcess(trackcast, arguments: ["play", file.path], environment: environment)
        var streams = ""
        for _ in 0..<100 where !streams.contains("media.role") {
            try await Task.sleep(for: .milliseconds(200))
            streams = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/pactl"),
                                                 arguments: ["--server", "unix:\(socket)", "list", "sink-inputs"]).standardOutput
        }
        kill(player.pid, SIGINT)
        _ = await player.finish(timeout: .seconds(20))
        #expect(streams.contains(#"media.role = "music""#), "streams: \(streams) player: \(player.standardError)")
        #expect(streams.contains(#"application.name = "Trackcast""#), "streams: \(streams)")
        #expect(streams.contains(#"application.icon_name = "org.trackcast.Trackcast""#), "streams: \(streams)")
    }

    @Test("a failing source exits 1 with the classified error")
    func failure() async throws {
        let result = try await ChildProcess.run(trackcast, arguments: ["play", "http://127.0.0.1:9/episode.mp3"],
                                                environment: headless, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot play http://127.0.0.1:9/episode.mp3"))
        #expect(result.standardError.contains("[offline]"), "\(result.standardError)")
        #expect(result.standardOutput.contains("state failed: offline"))
    }

    @Test("Ctrl-C stops playback cleanly with status 130")
    func interrupt() async throws {
        let file = try await tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: file) }
        let player = try ChildProcess(trackcast, arguments: ["play", file.path], environment: headless)
        let playing = await player.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("state playing") }
        #expect(playing, "\(player.standardError)")
        kill(player.pid, SIGINT)
        let result = await player.finish(timeout: .seconds(10))
        #expect(!result.timedOut)
        #expect(result.status == 130)
        #expect(result.standardOutput.hasSuffix("interrupted\n"))
    }

    @Test("play without a URI, or with a bad option, is a usage error", arguments: [
        (["play"], "usage: trackcast play URI"),
        (["play", "a.mp3", "--rate", "9"], "--rate needs a speed from 0.5 to 3"),
        (["play", "a.mp3", "--start", "soon"], "--start needs a number of seconds"),
        (["play", "a.mp3", "b.mp3"], "play takes one URI"),
    ])
    func usage(arguments: [String], message: String) async throws {
        let result = try await ChildProcess.run(trackcast, arguments: arguments, environment: headless)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
