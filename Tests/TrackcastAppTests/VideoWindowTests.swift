import Foundation
import TestSupport
import Testing

/// Video in the running app under Xvfb: what is on screen, read back from a
/// screenshot of the root window; picture-in-picture under a real window
/// manager (metacity, which honours both _NET_WM_STATE_ABOVE and _STICKY).
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    /// A clip made with gst-launch-1.0 in a fresh temporary folder.
    private func makeClip(_ name: String, _ pipeline: String) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-video-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"),
                                                arguments: ["-q"] + (pipeline + " ! filesink location=\(file.path)")
                                                    .split(separator: " ").map(String.init),
                                                timeout: .seconds(120))
        try #require(result.status == 0, "gst-launch failed: \(result.standardError)")
        return file
    }

    /// Opens `clip` in a fresh app and waits until its frames are painted.
    private func playVideo(_ clip: URL, environment: [String: String?] = [:]) async throws -> RunningApp {
        let app = try RunningApp(library: RunningApp.temporaryLibrary(), arguments: [clip.path], environment: environment)
        let painting = await app.waitFor(timeout: .seconds(60)) { Self.paintedFrames(in: $0.standardOutput) >= 3 }
        try #require(painting, "no video frames painted: \(app.standardOutput) \(app.standardError)")
        return app
    }

    /// The last "video: painted N …" count in the log.
    private static func paintedFrames(in log: String) -> Int {
        log.split(separator: "\n").last { $0.contains("video: painted ") }
            .flatMap { $0.components(separatedBy: "video: painted ").last?.split(separator: " ").first }
            .flatMap { Int($0) } ?? 0
    }

    /// The width of the frame shown, from the last "video: painted … frame WxH" line.
    private static func frameWidth(in log: String) -> Int {
        log.split(separator: "\n").last { $0.contains("video: painted ") }
            .flatMap { $0.components(separatedBy: " frame ").last?.split(separator: "x").first }
            .flatMap { Int($0) } ?? 0
    }

    @Test("a clip of colour bars plays in the window: each bar's colour is on screen, in order; idle is inhibited while it plays")
    func colourBars() async throws {
        // Full-height SMPTE 75% bars: grey, yellow, cyan, green, magenta, red, blue, left to right.
        let clip = try await makeClip("bars.webm", "videotestsrc num-buffers=300 pattern=smpte75 "
                                      + "! video/x-raw,width=640,height=360,framerate=25/1 ! vp8enc deadline=1 ! webmmux")
        let app = try await playVideo(clip)
        let shot = try await RunningApp.screenshot()
        let bars = [(191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191)]
            .map { shot.find($0) }
        for (index, bar) in bars.enumerated() {
            #expect(bar.count > 2_000, "bar \(index) is not on screen (\(bar.count) pixels)")
        }
        let centres = bars.map(\.meanX)
        #expect(centres == centres.sorted(), "bars out of order: \(centres)")
        // Each bar is one seventh of the picture wide.
        let widths = bars.map { Double($0.maxX - $0.minX + 1) }
        let pictureWidth = Double(bars[5].maxX - bars[0].minX + 1) * 7 / 6
        for width in widths { #expect(abs(width - pictureWidth / 7) < pictureWidth / 40, "bar widths \(widths)") }
        #expect(app.standardOutput.contains("inhibited suspend and idle"))
        #expect(app.standardOutput.contains("player bar artwork: video-x-generic-symbolic"), "a video without artwork shows a video icon")
        try await app.activate("play-pause")
        let released = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("released suspend and idle") }
        #expect(released, "pausing video must release the idle inhibition")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("with GPU conversion asked for (TRACKCAST_VIDEO_GPU=1), on Mesa's GL under Xvfb, the shader draws the picture right")
    func convertedOnGPU() async throws {
        try await fullSMPTEBarsDrawnRight(environment: ["TRACKCAST_VIDEO_GPU": "1"], convertedOn: "GPU", renderer: "gl")
    }

    @Test("on software GL (llvmpipe under Xvfb) the measured cheaper path is chosen: CPU conversion, cairo, the same picture")
    func convertedOnCPUOnSoftwareGL() async throws {
        try await fullSMPTEBarsDrawnRight(environment: [:], convertedOn: "CPU", renderer: "cairo")
    }

    @Test("drawn by cairo, each frame is let go of once GTK has drawn the next: 100 frames on, memory has not grown by them")
    func cairoFramesReleased() async throws {
        // Frames smaller than the picture come as decoded (640×360 BGRA,
        // 0.9 MB each): 100 of them kept would be 90 MB (measured so, with
        // the pattern's finish function made to keep them).
        let clip = try await makeClip("frames.webm", "videotestsrc num-buffers=250 pattern=smpte horizontal-speed=4 "
                                      + "! video/x-raw,width=640,height=360,framerate=25/1 ! vp8enc deadline=1 ! webmmux")
        let app = try await playVideo(clip)
        #expect(app.standardOutput.contains("video: converted on the CPU") && app.standardOutput.contains("renderer: cairo, "))
        func residentBytes() throws -> Int {
            let statm = try String(contentsOfFile: "/proc/\(app.pid)/statm", encoding: .utf8).split(separator: " ")
            return try #require(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        try #require(await app.waitFor(timeout: .seconds(30)) { Self.paintedFrames(in: $0.standardOutput) >= 20 })
        let baseline = try residentBytes()
        try #require(await app.waitFor(timeout: .seconds(30)) { Self.paintedFrames(in: $0.standardOutput) >= 120 })
        let growth = try residentBytes() - baseline
        #expect(growth < 48 << 20, "memory grew by \(growth >> 20) MB over 100 frames")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("with GPU conversion turned off (TRACKCAST_VIDEO_GPU=0) and GTK's GL renderer, CPU frames as textures draw the same")
    func convertedOnCPUDrawnWithGL() async throws {
        try await fullSMPTEBarsDrawnRight(environment: ["TRACKCAST_VIDEO_GPU": "0", "GSK_RENDERER": "gl"],
                                          convertedOn: "CPU", renderer: "gl")
    }

    @Test("10-bit and 4:2:2 clips (HDR sources, High 4:4:4 screen recordings, broadcast 4:2:2) are made 8-bit 4:2:0 first, in the right colours",
          arguments: ["Y444_10LE", "I422_10LE", "I420_10LE"])
    func tenBitOnCPU(format: String) async throws {
        try await fullSMPTEBarsDrawnRight(environment: [:], convertedOn: "CPU", renderer: "cairo", format: format)
    }

    @Test("a 1080p 10-bit 4:4:4 clip drawn at half its size or less has its chroma averaged over the middle of each 4×4 box, in the right colours")
    func tenBit444AtHalfSize() async throws {
        let frameWidth = try await fullSMPTEBarsDrawnRight(environment: [:], convertedOn: "CPU", renderer: "cairo",
                                                           format: "Y444_10LE", width: 1920, height: 1080)
        // At most half as wide: four chroma samples across for each one
        // drawn (the frame reducer's middle-of-the-box path).
        #expect(frameWidth <= 960, "frames \(frameWidth) wide: more than half the clip's, so not 4×4 chroma boxes")
    }

    /// Full SMPTE bars (H.264, 1280×720 unless `width` and `height` say
    /// otherwise, BT.709 as HD is; 8-bit 4:2:0 unless `format` says
    /// otherwise): the 100% bars on top, and under them a strip of blue,
    /// black, magenta, black, cyan, black, grey; a picture drawn upside down,
    /// in the wrong matrix or with planes swapped fails. Returns the width of
    /// the frames the app drew.
    @discardableResult
    private func fullSMPTEBarsDrawnRight(environment: [String: String?], convertedOn path: String,
                                         renderer: String, format: String = "I420", width: Int = 1280,
                                         height: Int = 720) async throws -> Int {
        let clip = try await makeClip("smpte.mp4", "videotestsrc num-buffers=250 pattern=smpte "
                                      + "! video/x-raw,format=\(format),width=\(width),height=\(height),framerate=25/1 "
                                      + "! x264enc speed-preset=ultrafast ! h264parse ! mp4mux")
        let app = try await playVideo(clip, environment: environment)
        #expect(app.standardOutput.contains("video: converted on the \(path)"),
                "\(path) path not chosen: \(app.standardOutput.split(separator: "\n").filter { $0.contains("video: conv") || $0.contains("renderer:") })")
        #expect(app.standardOutput.contains("on \(path.lowercased()) decoders"))
        #expect(app.standardOutput.contains("renderer: \(renderer), "))
        let shot = try await RunningApp.screenshot()
        let top = [(255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)]
            .map { shot.find($0, tolerance: 24) }
        for (index, bar) in top.enumerated() {
            #expect(bar.count > 2_000, "bar \(index) is not on screen (\(bar.count) pixels)")
        }
        let centres = top.map(\.meanX)
        #expect(centres == centres.sorted(), "bars out of order: \(centres)")
        // Magenta and cyan are top bars and, swapped, in the strip under
        // the bars, so they reach lower than yellow, which is only a top
        // bar. Upside down, the strip would be above the bars and all
        // three would end at the picture's bottom.
        let (yellow, magenta, cyan) = (top[0], top[3], top[1])
        #expect(magenta.maxY > yellow.maxY + 10 && cyan.maxY > yellow.maxY + 10,
                "no strip under the bars: yellow to \(yellow.maxY), magenta to \(magenta.maxY), cyan to \(cyan.maxY)")
        #expect(magenta.minY == yellow.minY || abs(magenta.minY - yellow.minY) < 3, "bars do not start at the top")
        // Yellow, green and red are only top bars, the second, fourth and
        // sixth of seven: each a seventh of the picture wide, which the
        // five from yellow to red span five sevenths of. A frame scaled by
        // the wrong amount across, or with its columns misplaced, fails.
        let (green, red) = (top[2], top[4])
        let pictureWidth = Double(red.maxX - yellow.minX + 1) * 7 / 5
        let widths = [yellow, green, red].map { Double($0.maxX - $0.minX + 1) }
        for width in widths { #expect(abs(width - pictureWidth / 7) < pictureWidth / 40, "bar widths \(widths)") }
        let frameWidth = Self.frameWidth(in: app.standardOutput)
        if path == "CPU" {
            // Converted on the CPU, frames come at the size drawn (the
            // window is smaller than the clip), not scaled again by GTK.
            #expect(frameWidth < width && abs(Double(frameWidth) - pictureWidth) < pictureWidth / 40,
                    "frames \(frameWidth) wide for a picture \(pictureWidth) wide")
        }
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
        return frameWidth
    }

    @Test("while a video plays, the player bar (drawn from a recording, RecordedBin) still follows it on screen: its seek bar fills")
    func playerBarFollowsVideo() async throws {
        // 20 s of bars, which have none of the seek bar's accent blue.
        let clip = try await makeClip("twenty-seconds.webm", "videotestsrc num-buffers=500 pattern=smpte75 "
                                      + "! video/x-raw,width=640,height=360,framerate=25/1 ! vp8enc deadline=1 ! webmmux")
        let app = try await playVideo(clip)
        #expect(app.standardOutput.contains("renderer: cairo, "))
        let accentBlue = (53, 132, 228)
        try #require(await app.waitFor(timeout: .seconds(30)) { ($0.positions().last ?? 0) >= 2 })
        let early = try await RunningApp.screenshot().find(accentBlue, tolerance: 8)
        try #require(await app.waitFor(timeout: .seconds(60)) { ($0.positions().last ?? 0) >= 7 },
                     "not at 7 s: \(app.standardOutput.suffix(3000))")
        let later = try await RunningApp.screenshot().find(accentBlue, tolerance: 8)
        // Five seconds more of twenty: a quarter more of the slider's width
        // filled, a few pixels high; the filled part starts where it did.
        #expect(early.count > 0, "no filled seek bar on screen")
        #expect(later.minX == early.minX && later.maxX - early.maxX > 100,
                "the seek bar's fill went from x \(early.minX)–\(early.maxX) to \(later.minX)–\(later.maxX)")
        #expect(later.count > early.count + 300, "filled pixels \(early.count) then \(later.count)")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("a video that cannot play shows why in the video view, with no picture")
    func unplayable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-video-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let broken = folder.appendingPathComponent("broken.webm")
        try Data(repeating: 0x42, count: 64_000).write(to: broken)
        let library = folder.appendingPathComponent("library")
        let app = try RunningApp(library: library, arguments: [broken.path])
        let told = await app.waitFor(timeout: .seconds(60)) {
            $0.standardOutput.contains("video: message: This video cannot be played: ")
        }
        #expect(told, "no message in the video view: \(app.standardOutput)")
        #expect(Self.paintedFrames(in: app.standardOutput) == 0)
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("an anamorphic clip (720×576, pixels 64:45) is shown at 16:9")
    func anamorphic() async throws {
        let clip = try await makeClip("anamorphic.webm", "videotestsrc num-buffers=300 pattern=green "
                                      + "! video/x-raw,width=720,height=576,framerate=25/1,pixel-aspect-ratio=64/45 "
                                      + "! vp8enc deadline=1 ! webmmux")
        let app = try await playVideo(clip)
        let green = try await RunningApp.screenshot().find((0, 255, 0), tolerance: 60)
        let aspect = Double(green.maxX - green.minX + 1) / Double(green.maxY - green.minY + 1)
        #expect(green.count > 10_000)
        // Square pixels would make it 1.25.
        #expect(abs(aspect - 16.0 / 9.0) < 0.05, "shown at \(aspect):1")
        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }

    @Test("picture-in-picture stays above and on all workspaces; closing it keeps playing on one decoder; F and Escape")
    func pictureInPicture() async throws {
        try await underWindowManager { try await pictureInPictureUnderWindowManager() }
    }

    private func pictureInPictureUnderWindowManager() async throws {
        let clip = try await makeClip("long.webm", "videotestsrc num-buffers=1500 pattern=smpte75 "
                                      + "! video/x-raw,width=320,height=180,framerate=25/1 ! vp8enc deadline=1 ! webmmux")
        let app = try await playVideo(clip)
        try await app.activate("pip")
        let shown = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("pip: shown, asked to stay above") }
        try #require(shown, "no picture-in-picture window: \(app.standardOutput)")

        var states = ""
        for _ in 0..<100 where !(states.contains("_NET_WM_STATE_ABOVE") && states.contains("_NET_WM_STATE_STICKY")) {
            try await Task.sleep(for: .milliseconds(200))
            states = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xprop"),
                                                arguments: ["-name", "Picture-in-Picture", "_NET_WM_STATE"]).standardOutput
        }
        #expect(states.contains("_NET_WM_STATE_ABOVE"), "xprop: \(states)")
        #expect(states.contains("_NET_WM_STATE_STICKY"), "xprop: \(states)")

        // The main window shows a placeholder meanwhile: the bars are on screen once, in the
        // small window (400 wide), not also in the main one (960 wide, some 50,000 yellow pixels).
        #expect(app.standardOutput.contains("video: in picture-in-picture, a placeholder here"))
        try await Task.sleep(for: .milliseconds(500))
        let yellow = try await RunningApp.screenshot().find((191, 191, 0)).count
        #expect(yellow > 2_000 && yellow < 20_000, "\(yellow) yellow pixels")

        try await app.activate("pip")
        let closed = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("pip: closed") }
        try #require(closed)
        #expect(await app.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("video: shown here again") })
        let paintedAtClose = Self.paintedFrames(in: app.standardOutput)
        let goesOn = await app.waitFor(timeout: .seconds(30)) { Self.paintedFrames(in: $0.standardOutput) > paintedAtClose + 10 }
        #expect(goesOn, "frames stopped after picture-in-picture closed")
        let afterClose = app.standardOutput.components(separatedBy: "pip: closed").last ?? ""
        #expect(!afterClose.contains("playback: paused") && !afterClose.contains("playback: loading"))
        let decoders = afterClose.split(separator: "\n").last { $0.contains("video: painted") }?
            .components(separatedBy: "decoders ").last?.split(separator: ",") ?? []
        #expect(decoders.filter { $0.contains("vp8") }.count == 1, "decoders: \(decoders)")

        try await app.type("f", raising: true)
        let fullscreen = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("fullscreen: true") }
        #expect(fullscreen, "F did not go fullscreen: \(app.standardOutput)")
        try await app.type("Escape", raising: true)
        let windowed = await app.waitFor(timeout: .seconds(20)) { $0.standardOutput.contains("fullscreen: false") }
        #expect(windowed, "Escape did not leave fullscreen")

        let result = try await app.quit()
        #expect(result.status == 0 && !result.timedOut)
    }
}

/// Picture-in-picture's size and its opening on minimise, under metacity.
extension RunningAppTests {
    /// `body` under metacity, which is gone afterwards also when it fails:
    /// a compositing window manager makes GTK draw shadows around windows,
    /// changing their X size for the tests that follow.
    func underWindowManager(_ body: () async throws -> Void) async throws {
        let windowManager = try await DetachedProcess.start(["/usr/bin/metacity", "--replace"])
        do {
            try await body()
        } catch {
            await windowManager.stop()
            throw error
        }
        await windowManager.stop()
    }

    private static func xdotool(_ arguments: String...) async throws -> String {
        try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments: arguments).standardOutput
    }

    /// The X window of the picture-in-picture window, once mapped.
    private func pictureInPictureWindow() async throws -> String {
        for _ in 0..<100 {
            if let id = try await Self.xdotool("search", "--onlyvisible", "--name", "^Picture-in-Picture$")
                .split(separator: "\n").first {
                return String(id)
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("no picture-in-picture window mapped")
        throw CancellationError()
    }

    private static func ratio(_ size: (width: Int, height: Int)) -> Double {
        Double(size.width) / Double(max(size.height, 1))
    }

    /// Its size as the X server has it.
    private static func size(of window: String) async throws -> (width: Int, height: Int) {
        let info = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xwininfo"), arguments: ["-id", window]).standardOutput
        func value(_ key: String) -> Int {
            info.split(separator: "\n").first { $0.contains(key) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? 0
        }
        return (value("Width:"), value("Height:"))
    }

    @Test("minimising the main window while video plays opens picture-in-picture (a preference) and restoring it closes it; picture-in-picture resized keeps the video's aspect")
    func pictureInPictureOnMinimizeAndAspect() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-pip-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("wide.webm")
        // 2.35:1, far from the 16:9 a guess would give.
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "videotestsrc", "num-buffers=1500", "pattern=smpte75", "!", "video/x-raw,width=470,height=200,framerate=25/1",
            "!", "vp8enc", "deadline=1", "!", "webmmux", "!", "filesink", "location=\(clip.path)",
        ], timeout: .seconds(120))
        try #require(result.status == 0, "gst-launch failed: \(result.standardError)")
        try await underWindowManager {
            let app = try RunningApp(library: RunningApp.temporaryLibrary(), arguments: [clip.path])
            _ = try await app.quitting { app in
                let painting = await app.waitFor(timeout: .seconds(60)) { $0.standardOutput.contains("video: painted 3") }
                try #require(painting, "no video: \(app.standardOutput)")
                let main = try #require(try await Self.xdotool("search", "--onlyvisible", "--name", "^Trackcast$")
                    .split(separator: "\n").first.map(String.init))

                // Off by default: minimising only minimises.
                var offset = app.standardOutput.endIndex
                _ = try await Self.xdotool("windowminimize", "--sync", main)
                #expect(await app.waitForLine("main window: minimized", after: offset))
                #expect(!app.standardOutput[offset...].contains("pip: shown"))
                _ = try await Self.xdotool("windowactivate", "--sync", main)
                #expect(await app.waitForLine("main window: restored", after: offset))

                try await app.activate("pip-on-minimize")
                offset = app.standardOutput.endIndex
                _ = try await Self.xdotool("windowminimize", "--sync", main)
                let opened = await app.waitForLine("pip: shown", after: offset)
                try #require(opened, "minimising did not open picture-in-picture: \(app.standardOutput[offset...])")
                let pip = try await pictureInPictureWindow()
                #expect(app.standardOutput[offset...].contains("pip: aspect locked at 470:200"))
                // GTK writes its own size hints after map; the request is made again after it.
                var hints = ""
                for _ in 0..<50 where !hints.contains("maximum aspect ratio: 470/200") {
                    try await Task.sleep(for: .milliseconds(200))
                    hints = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/xprop"),
                                                       arguments: ["-id", pip, "WM_NORMAL_HINTS"]).standardOutput
                }
                #expect(hints.contains("minimum aspect ratio: 470/200") && hints.contains("maximum aspect ratio: 470/200"), "xprop: \(hints)")
                offset = app.standardOutput.endIndex

                // Resized to a square, as a user dragging a corner would ask:
                // the window manager keeps the aspect (and the app snaps it where none does).
                _ = try await Self.xdotool("windowsize", pip, "600", "600")
                var size = (width: 0, height: 0)
                for _ in 0..<50 {
                    try await Task.sleep(for: .milliseconds(200))
                    size = try await Self.size(of: pip)
                    if size.width != 400, abs(Self.ratio(size) - 2.35) < 0.03 { break }
                }
                let snapped = app.standardOutput[offset...].contains("snapped")
                print("picture-in-picture resized to 600×600 is \(size.width)×\(size.height)"
                      + (snapped ? ", snapped by the app" : ", kept by the window manager"))
                let ratio = Self.ratio(size)
                #expect(abs(ratio - 2.35) < 0.03, "size \(size.width)×\(size.height)")
                #expect(size.width != 400, "the window did not resize at all")
                try await RunningApp.saveScreenshot(to: folder.appendingPathComponent("pip-resized.png"))
                print("screenshot: \(folder.path)/pip-resized.png")

                // Restoring the main window closes the picture-in-picture it opened.
                offset = app.standardOutput.endIndex
                _ = try await Self.xdotool("windowactivate", "--sync", main)
                #expect(await app.waitForLine("pip: closed", after: offset), "\(app.standardOutput[offset...])")
            }
        }
    }
}
