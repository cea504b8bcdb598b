import Foundation
import TestSupport
import Testing

/// Audio and subtitle tracks in the running app under Xvfb: subtitles are
/// proved by the white text GStreamer draws into the picture of a black
/// clip, read back from screenshots; the audio track by what playbin says
/// it plays. Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// A folder of its own for a test's media.
    private func mediaFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-tracks-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// SubRip text with `text` shown for 1.5 s of every 2 s over `seconds`:
    /// a cue always begins soon, whatever a seek or a switch missed. (Over
    /// 129 bytes: GStreamer's typefinder recognises nothing shorter.)
    private func subRip(_ text: String, seconds: Int = 40) -> String {
        func clock(_ millis: Int) -> String {
            String(format: "00:%02d:%02d,%03d", millis / 60_000, millis / 1000 % 60, millis % 1000)
        }
        return stride(from: 0, to: seconds * 1000, by: 2000).enumerated().map { number, start in
            "\(number + 1)\n\(clock(start)) --> \(clock(start + 1500))\n\(text)\n"
        }.joined(separator: "\n")
    }

    /// Runs gst-launch-1.0 with `pipeline` (split on spaces).
    private func gstLaunch(_ pipeline: String) async throws {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"),
                                                arguments: ["-q"] + pipeline.split(separator: " ").map(String.init),
                                                timeout: .seconds(120))
        try #require(result.status == 0, "gst-launch failed: \(result.standardError)")
    }

    /// 30 s of black 640×360 in Matroska with two audio tracks (English;
    /// German, named "Kommentar") and French subtitles saying `embedded`.
    private func makeFilmWithTracks(in folder: URL, embedded: String) async throws -> URL {
        let subtitles = folder.appendingPathComponent("embedded-source.srt")
        try subRip(embedded).write(to: subtitles, atomically: true, encoding: .utf8)
        let film = folder.appendingPathComponent("film.mkv")
        try await gstLaunch("videotestsrc num-buffers=750 pattern=black ! video/x-raw,width=640,height=360,framerate=25/1 "
                            + "! vp8enc deadline=1 ! queue ! mux. "
                            + "audiotestsrc num-buffers=1300 ! taginject tags=language-code=en ! audioconvert ! vorbisenc ! queue ! mux. "
                            + "audiotestsrc num-buffers=1300 freq=880 ! taginject tags=language-code=de,title=Kommentar "
                            + "! audioconvert ! vorbisenc ! queue ! mux. "
                            + "filesrc location=\(subtitles.path) ! subparse ! taginject tags=language-code=fr ! queue ! mux. "
                            + "matroskamux name=mux ! filesink location=\(film.path)")
        return film
    }

    /// The main window's video area: the black inside the window.
    private func videoArea(in shot: RunningApp.Screenshot) async throws -> (minX: Int, maxX: Int, minY: Int, maxY: Int) {
        let found = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"),
                                               arguments: ["search", "--onlyvisible", "--name", "^Trackcast$", "getwindowgeometry", "--shell"])
        var geometry: [String: Int] = [:]
        for line in found.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { geometry[String(parts[0])] = value }
        }
        let (x, y) = (geometry["X"] ?? 0, geometry["Y"] ?? 0)
        let (width, height) = (geometry["WIDTH"] ?? shot.width, geometry["HEIGHT"] ?? shot.height)
        var box = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        for row in max(0, y)..<min(shot.height, y + height) {
            for column in max(0, x)..<min(shot.width, x + width) {
                let i = (row * shot.width + column) * 3
                guard shot.rgb[i] < 10, shot.rgb[i + 1] < 10, shot.rgb[i + 2] < 10 else { continue }
                box = (min(box.minX, column), max(box.maxX, column), min(box.minY, row), max(box.maxY, row))
            }
        }
        try #require(box.maxX - box.minX > 200 && box.maxY - box.minY > 100, "no video area in the window: \(box)")
        return box
    }

    /// Subtitle text on screen: white pixels in the lower third of the
    /// video area, their count and how wide they spread.
    struct SubtitleText: CustomStringConvertible {
        var pixels = 0
        var width = 0
        var description: String { "\(pixels) white pixels over \(width) px" }
    }

    private func subtitleText() async throws -> SubtitleText {
        let shot = try await RunningApp.screenshot()
        let area = try await videoArea(in: shot)
        var (count, minX, maxX) = (0, Int.max, -1)
        for row in (area.maxY - (area.maxY - area.minY) / 3)...area.maxY {
            for column in area.minX...area.maxX {
                let i = (row * shot.width + column) * 3
                guard shot.rgb[i] > 200, shot.rgb[i + 1] > 200, shot.rgb[i + 2] > 200 else { continue }
                count += 1
                (minX, maxX) = (min(minX, column), max(maxX, column))
            }
        }
        return SubtitleText(pixels: count, width: count > 0 ? maxX - minX + 1 : 0)
    }

    /// Takes screenshots until `condition` holds of the subtitle text (up to
    /// 20 s: a cue begins every 2 s, the controls hide after 3 s); returns the last.
    private func waitForSubtitles(_ what: Comment, _ condition: (SubtitleText) -> Bool) async throws -> SubtitleText {
        var text = SubtitleText()
        for _ in 0..<40 {
            text = try await subtitleText()
            if condition(text) { return text }
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("\(what): subtitle text \(text)")
        return text
    }

    /// Moves the pointer off the window and waits for the video controls
    /// to hide: their white icons lie where subtitles are drawn.
    private func hideControls(_ app: RunningApp) async throws {
        _ = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments: ["mousemove", "1279", "799"])
        let hidden = await app.waitFor(timeout: .seconds(30)) { $0.standardOutput.contains("video: controls hidden") }
        try #require(hidden, "the video controls did not hide: \(app.standardOutput)")
    }

    /// The last "tracks: …" line the app logged after `offset`.
    private func tracksLine(_ app: RunningApp, prefix: String = "tracks: ", after offset: String.Index) -> String? {
        let output = app.standardOutput
        return output[offset...].split(separator: "\n").last { $0.contains(prefix) }
            .map { String($0.components(separatedBy: prefix).last ?? "") }
    }

    private func waitForTracks(_ app: RunningApp, prefix: String = "tracks: ", after offset: String.Index,
                               _ condition: @escaping @Sendable (String) -> Bool) async -> String? {
        _ = await app.waitFor(timeout: .seconds(30)) { app in
            let output = app.standardOutput
            return output[offset...].split(separator: "\n").contains { line in
                line.contains(prefix) && condition(line.components(separatedBy: prefix).last ?? "")
            }
        }
        return tracksLine(app, prefix: prefix, after: offset)
    }

    @Test("audio and subtitle tracks: embedded and beside-the-file subtitles drawn into the picture, chosen by action; the choice survives pause and seek and resets for the next item")
    func tracksAndSubtitles() async throws {
        let folder = try mediaFolder()
        let film = try await makeFilmWithTracks(in: folder, embedded: "EMB")
        // Beside it, as a viewer would keep it: same name, a language.
        try subRip("EXTERNAL SUBTITLE LINE").write(to: folder.appendingPathComponent("film.de.srt"),
                                                   atomically: true, encoding: .utf8)
        let app = try RunningApp(library: RunningApp.temporaryLibrary(), arguments: [film.path])
        _ = try await app.quitting { app in
            let start = app.standardOutput.startIndex
            let first = await waitForTracks(app, after: start) { $0.contains("subtitles") && $0.contains("of 2") }
            let tracks = try #require(first, "no tracks logged: \(app.standardOutput)")
            // Named from the media's tags and the file's name.
            #expect(tracks.contains("audio 0 of 2 [English"), "tracks: \(tracks)")
            #expect(tracks.contains("German – Kommentar"), "tracks: \(tracks)")
            #expect(tracks.contains("German (file)") && tracks.contains("French"), "tracks: \(tracks)")
            let names = tracks.components(separatedBy: "subtitles ").last?.components(separatedBy: "[").last ?? ""
            let external = names.hasPrefix("German (file)") ? 0 : 1
            #expect(tracks.contains("subtitles \(external) of 2"), "the file beside the film is shown first: \(tracks)")

            try await hideControls(app)
            let shownExternal = try await waitForSubtitles("the external file's text") { $0.pixels > 200 && $0.width > 250 }
            print("external subtitles: \(shownExternal)")

            // The media's own track: the item is loaded again without the
            // file (GStreamer shows nothing of it after the file's), from where it was.
            var offset = app.standardOutput.endIndex
            try await app.activate("subtitle-track", "[<\(1 - external)>]")
            let switched = await waitForTracks(app, after: offset) { $0.contains("subtitles 0 of 1 [French") }
            #expect(switched != nil, "the embedded track was not chosen: \(app.standardOutput[offset...])")
            // "EMB" is a third as wide as the file's line.
            let shownEmbedded = try await waitForSubtitles("the embedded text") {
                $0.pixels > 50 && $0.width < shownExternal.width / 2
            }
            print("embedded subtitles: \(shownEmbedded)")

            offset = app.standardOutput.endIndex
            try await app.activate("audio-track", "[<1>]")
            try await app.activate("subtitle-track", "[<-1>]")
            let chosen = await waitForTracks(app, after: offset) { $0.contains("audio 1 of 2") && $0.contains("subtitles off") }
            #expect(chosen != nil, "audio 1 and no subtitles: \(app.standardOutput[offset...])")
            let off = try await waitForSubtitles("subtitles turned off") { $0.pixels == 0 }
            #expect(off.pixels == 0)
            // The menu's radio items follow the actions' states.
            let state = try await RunningApp.gdbusCall(RunningApp.busName, "/org/trackcast/Trackcast",
                                                       "org.gtk.Actions.Describe", "audio-track")
            #expect(state.standardOutput.contains("[<1>]"), "audio-track state: \(state.standardOutput)")

            // Through a pause and a seek, the choice stays: playbin's own state after the seek lands.
            offset = app.standardOutput.endIndex
            try await app.activate("play-pause")
            #expect(await app.waitForLine("playback: paused", after: offset))
            try await app.activate("seek-to", "[<12.0>]")
            let afterSeek = await waitForTracks(app, prefix: "tracks after seek: ", after: offset) { _ in true }
            #expect(afterSeek?.contains("audio 1 of 2") == true && afterSeek?.contains("subtitles off") == true,
                    "after pause and seek: \(afterSeek ?? "nothing")")
            try await app.activate("play-pause")
            #expect(await app.waitForLine("playback: playing", after: offset))
            let stillOff = try await waitForSubtitles("still off after the seek") { $0.pixels == 0 }
            #expect(stillOff.pixels == 0)

            // The next item starts from the defaults: first audio track, subtitles on.
            offset = app.standardOutput.endIndex
            _ = try await app.mpris("org.mpris.MediaPlayer2.Player.OpenUri", "'\(film.absoluteString)'")
            let next = await waitForTracks(app, after: offset) { $0.contains("of 2") && $0.contains("subtitles") }
            #expect(next?.contains("audio 0 of 2") == true && next?.contains("subtitles off") == false,
                    "the next item: \(next ?? "nothing")")
            _ = try await waitForSubtitles("subtitles on again") { $0.pixels > 50 }
        }
    }

    @Test("subtitles loaded by hand are drawn over a video that had none; a damaged subtitle file is refused with a message")
    func subtitlesLoadedByHand() async throws {
        let folder = try mediaFolder()
        let clip = folder.appendingPathComponent("plain.webm")
        try await gstLaunch("videotestsrc num-buffers=750 pattern=black ! video/x-raw,width=640,height=360,framerate=25/1 "
                            + "! vp8enc deadline=1 ! webmmux ! filesink location=\(clip.path)")
        let elsewhere = try mediaFolder()
        let good = elsewhere.appendingPathComponent("chosen.en.srt")
        try subRip("LOADED BY HAND").write(to: good, atomically: true, encoding: .utf8)
        let damaged = elsewhere.appendingPathComponent("damaged.srt")
        var bytes = [UInt8](repeating: 0, count: 20_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: damaged)

        let app = try RunningApp(library: RunningApp.temporaryLibrary(), arguments: [clip.path])
        _ = try await app.quitting { app in
            let start = app.standardOutput.startIndex
            let none = await waitForTracks(app, after: start) { _ in true }
            #expect(none?.contains("subtitles off of 0") == true, "tracks: \(none ?? "nothing")")
            try await hideControls(app)
            let empty = try await waitForSubtitles("no subtitles yet") { $0.pixels == 0 }
            #expect(empty.pixels == 0)

            var offset = app.standardOutput.endIndex
            try await app.activate("subtitle-file", "[<'\(damaged.absoluteString)'>]")
            #expect(await app.waitForLine("toast: The subtitles in “damaged.srt” cannot be shown", after: offset),
                    "no message for a damaged file: \(app.standardOutput[offset...])")
            #expect(app.isRunning)

            // One cue, well-formed, but under the 129 bytes GStreamer's typefinder needs.
            let tiny = elsewhere.appendingPathComponent("tiny.srt")
            try "1\n00:00:00,000 --> 00:00:30,000\nTINY\n".write(to: tiny, atomically: true, encoding: .utf8)
            offset = app.standardOutput.endIndex
            try await app.activate("subtitle-file", "[<'\(tiny.absoluteString)'>]")
            #expect(await app.waitForLine("toast: The subtitles in “tiny.srt” cannot be shown: GStreamer", after: offset),
                    "no message for a file GStreamer cannot recognise: \(app.standardOutput[offset...])")

            offset = app.standardOutput.endIndex
            try await app.activate("subtitle-file", "[<'\(good.absoluteString)'>]")
            let loaded = await waitForTracks(app, after: offset) { $0.contains("subtitles 0 of 1") }
            #expect(loaded?.contains("English (file)") == true, "tracks: \(loaded ?? app.standardOutput)")
            let shown = try await waitForSubtitles("the loaded file's text") { $0.pixels > 200 }
            print("subtitles loaded by hand: \(shown)")
        }
    }
}
