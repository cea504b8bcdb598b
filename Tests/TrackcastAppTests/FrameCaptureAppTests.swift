import Foundation
import TestSupport
import Testing

/// Saving the video frame on screen as a PNG, and copying it to the
/// clipboard, through the app's actions.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("save-frame-to writes the frame on screen as a PNG of the video's size, the colour bars where they are; copy-frame puts it on the clipboard")
    func savesFrame() async throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bars-\(UUID()).mkv")
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-frame-\(UUID()).png")
        let copied = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-copied-\(UUID()).png")
        let library = RunningApp.temporaryLibrary()
        defer {
            for file in [media, png, copied, library] { try? FileManager.default.removeItem(at: file) }
        }
        try await makeBars(at: media)
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("video: painted"), "no video: \(app.standardOutput)")
            try await app.activate("save-frame-to", "[<'\(png.path)'>]")
            try #require(await app.waitForLine("frame saved: \(png.path)"), "\(app.standardOutput)")
            // The clipboard as another X client reads it, while the app owns it.
            try await app.activate("copy-frame")
            try #require(await app.waitForLine("frame copied: "), "\(app.standardOutput)")
            let pasted = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "xclip -selection clipboard -target image/png -out > \"$0\"", copied.path,
            ], timeout: .seconds(20))
            #expect(pasted.status == 0, "xclip: \(pasted.standardError)")
        }
        #expect(result.status == 0 && !result.timedOut)
        // The saved file and the clipboard each hold the bars (the pattern's
        // noise strip differs from frame to frame, so not every pixel).
        for file in [png, copied] { try await expectBars(in: file) }
    }

    @Test("Save Frame… asks through the file chooser: a path typed into it, Enter, and the PNG there holds the frame", .needs("xdotool"))
    func savesFrameThroughTheChooser() async throws {
        let media = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bars-\(UUID()).mkv")
        // A folder of its own: nothing in it for the chooser's completion to offer.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-chooser-\(UUID())")
        let png = folder.appendingPathComponent("chosen frame.png")
        let library = RunningApp.temporaryLibrary()
        defer {
            for file in [media, folder, library] { try? FileManager.default.removeItem(at: file) }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await makeBars(at: media)
        let app = try await RunningApp.launch(library: library, arguments: [media.path])
        let result = try await app.quitting { app in
            try #require(await app.waitForLine("video: painted"), "no video: \(app.standardOutput)")
            try await app.activate("save-frame")
            let xdotool = URL(fileURLWithPath: "/usr/bin/xdotool")
            var chooser: String?
            for _ in 0..<50 where chooser == nil {
                let found = try await ChildProcess.run(xdotool, arguments: ["search", "--onlyvisible", "--name", "^Save Frame$"])
                chooser = found.standardOutput.split(separator: "\n").first.map(String.init)
                if chooser == nil { try await Task.sleep(for: .milliseconds(200)) }
            }
            let window = try #require(chooser, "the file chooser did not open: \(app.standardOutput)")
            // As a person would: the name field has the focus with the suggested name selected; a whole path replaces it.
            _ = try await ChildProcess.run(xdotool, arguments: ["windowfocus", "--sync", window])
            try await Task.sleep(for: .milliseconds(500))
            _ = try await ChildProcess.run(xdotool, arguments: ["key", "--clearmodifiers", "ctrl+a"])
            _ = try await ChildProcess.run(xdotool, arguments: ["type", "--delay", "40", png.path])
            _ = try await ChildProcess.run(xdotool, arguments: ["key", "Return"])
            try #require(await app.waitForLine("frame saved: \(png.path)"), "\(app.standardOutput)")
        }
        #expect(result.status == 0 && !result.timedOut)
        try await expectBars(in: png)
    }

    /// Lossless (ffv1) SMPTE bars at 320×240 in Matroska: the colours survive to the screen.
    private func makeBars(at media: URL) async throws {
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "videotestsrc", "pattern=smpte", "num-buffers=250", "!", "video/x-raw,width=320,height=240,framerate=25/1",
            "!", "avenc_ffv1", "!", "matroskamux", "!", "filesink", "location=\(media.path)",
        ], timeout: .seconds(60))
        try #require(made.status == 0, "gst-launch: \(made.standardError)")
    }

    /// `file` is a 320×240 PNG with SMPTE bars across its top two thirds.
    private func expectBars(in file: URL) async throws {
        let raw = file.appendingPathExtension("rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        let identify = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/identify"), arguments: ["-format", "%w %h %m", file.path])
        #expect(identify.standardOutput == "320 240 PNG", "identify \(file.lastPathComponent): \(identify.standardOutput) \(identify.standardError)")
        let converted = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/convert"),
                                                   arguments: [file.path, "-depth", "8", "rgb:\(raw.path)"])
        try #require(converted.status == 0, "convert: \(converted.standardError)")
        let pixels = [UInt8](try Data(contentsOf: raw))
        try #require(pixels.count == 320 * 240 * 3)
        // The seven bars across the top two thirds, as videotestsrc draws them
        // (pngenc straight from videotestsrc reads the same): white, yellow,
        // cyan, green, magenta, red, blue.
        let bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)]
        for (index, colour) in bars.enumerated() {
            let x = 320 * (2 * index + 1) / 14, y = 80
            let offset = (y * 320 + x) * 3
            let pixel = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
            #expect(abs(pixel.0 - colour.0) <= 24 && abs(pixel.1 - colour.1) <= 24 && abs(pixel.2 - colour.2) <= 24,
                    "bar \(index) at \(x),\(y): \(pixel), expected \(colour)")
        }
    }
}
