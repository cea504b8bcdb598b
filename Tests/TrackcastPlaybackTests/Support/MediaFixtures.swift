import Foundation
import Testing
import TestSupport

/// Small media files made at test time with gst-launch-1.0, once per test
/// process, in a temporary directory.
actor MediaFixtures {
    static let shared = MediaFixtures()

    enum Media: String, CaseIterable, Sendable {
        /// 6 s of Opus in Ogg.
        case opus
        /// 6 s of MP3, with an ID3v2 title.
        case mp3
        /// 6 s of AAC in MP4 (moov at the end, as mp4mux writes it).
        case aac
        /// 30 s of Opus, for rate and seek tests that need room.
        case longOpus
        /// 30 s of 32 kbit/s CBR MP3: 4000 bytes a second, for throttled servers.
        case longMP3
        /// The MP4 cut in half: its index is missing.
        case truncatedMP4
        /// Matroska whose codec ID no decoder knows.
        case unknownCodec
        /// An HLS stream of 12 one-second AAC segments with an ENDLIST.
        case hls
        /// A 4 s WAV with no compression at all, for probes that must be cheap.
        case wav
        /// 10 s of VP8 video (key frame every 2 s) with Opus audio in WebM.
        case video
        /// 6 s of MP3 with an ID3v2.4 title and a PNG front cover.
        case coverMP3
        /// 6 s of FLAC with a cue sheet: tracks at 0, 2 and 4 s.
        case cueFLAC
        /// 20 s of 60 fps VP8 video only, 320×240: a sink under a fast source.
        case video60fps
        /// 3 s of VP8 video only, 720×576 stored with a 64:45 pixel aspect
        /// ratio (PAL 16:9): displayed 1024×576.
        case anamorphic

        var fileName: String {
            switch self {
            case .opus: "tone.opus"
            case .mp3: "tone.mp3"
            case .aac: "tone.m4a"
            case .longOpus: "long.opus"
            case .longMP3: "long.mp3"
            case .truncatedMP4: "truncated.m4a"
            case .unknownCodec: "unknown.mkv"
            case .hls: "hls/playlist.m3u8"
            case .wav: "tone.wav"
            case .video: "video.webm"
            case .coverMP3: "cover.mp3"
            case .cueFLAC: "cue.flac"
            case .video60fps: "video60.webm"
            case .anamorphic: "anamorphic.webm"
            }
        }

        var contentType: String {
            switch self {
            case .opus, .longOpus: "audio/ogg"
            case .mp3, .longMP3: "audio/mpeg"
            case .aac, .truncatedMP4: "audio/mp4"
            case .unknownCodec: "audio/x-matroska"
            case .hls: "application/vnd.apple.mpegurl"
            case .wav: "audio/wav"
            case .video: "video/webm"
            case .coverMP3: "audio/mpeg"
            case .cueFLAC: "audio/flac"
            case .video60fps, .anamorphic: "video/webm"
            }
        }

        /// How long it plays.
        var duration: Duration {
            switch self {
            case .longOpus, .longMP3: .seconds(30)
            case .hls: .seconds(12)
            case .wav: .seconds(4)
            case .video: .seconds(10)
            case .video60fps: .seconds(20)
            case .anamorphic: .seconds(3)
            default: .seconds(6)
            }
        }
    }

    private let directory: URL
    private var made: Set<Media> = []

    private init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-media-\(getpid())")
    }

    /// The file, made on first use.
    func url(_ media: Media) throws -> URL {
        let url = directory.appendingPathComponent(media.fileName)
        if !made.contains(media) {
            try make(media, at: url)
            made.insert(media)
        }
        return url
    }

    func data(_ media: Media) throws -> Data { try Data(contentsOf: url(media)) }

    /// Every file of an HLS stream: path relative to the playlist → contents.
    /// Serves the generated HLS stream under /hls/, the playlist as `edit` makes it.
    func serveHLS(on server: TestHTTPServer, playlist edit: @Sendable (String) -> String = { $0 }) throws {
        for (name, data) in try hlsFiles() {
            if name.hasSuffix(".m3u8") {
                let text = edit(String(decoding: data, as: UTF8.self))
                server.route("/hls/\(name)", .serve(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"))
            } else {
                server.route("/hls/\(name)", .serve(data, contentType: "video/mp2t"))
            }
        }
    }

    func hlsFiles() throws -> [String: Data] {
        let playlist = try url(.hls)
        let folder = playlist.deletingLastPathComponent()
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    private func make(_ media: Media, at url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let path = url.path
        // 20 ms buffers of 48 kHz audio: 50 per second.
        func tone(_ seconds: Int, _ frequency: Int = 440) -> String {
            "audiotestsrc num-buffers=\(seconds * 50) samplesperbuffer=960 freq=\(frequency) ! audio/x-raw,rate=48000,channels=2 ! audioconvert"
        }
        switch media {
        case .opus:
            try launch("\(tone(6)) ! opusenc ! oggmux ! filesink location=\(path)")
        case .longOpus:
            try launch("\(tone(30, 330)) ! opusenc bitrate=32000 ! oggmux ! filesink location=\(path)")
        case .longMP3:
            try launch("\(tone(30, 330)) ! lamemp3enc target=bitrate bitrate=32 cbr=true ! filesink location=\(path)")
        case .mp3:
            try launch("\(tone(6, 550)) ! lamemp3enc ! taginject tags=title=ToneMP3 ! id3v2mux ! filesink location=\(path)")
        case .aac:
            try launch("\(tone(6, 660)) ! \(Self.aacEncoder) ! mp4mux ! filesink location=\(path)")
        case .wav:
            try launch("\(tone(4)) ! wavenc ! filesink location=\(path)")
        case .coverMP3:
            // lamemp3enc alone writes no tag; the ID3v2 tag is written here.
            let raw = url.deletingLastPathComponent().appendingPathComponent("raw.mp3")
            try launch("\(tone(6, 550)) ! lamemp3enc ! filesink location=\(raw.path)")
            try (ID3Tag.tag(title: "Cover Story", cover: ID3Tag.onePixelPNG) + Data(contentsOf: raw)).write(to: url)
        case .cueFLAC:
            let raw = url.deletingLastPathComponent().appendingPathComponent("raw.flac")
            try launch("\(tone(6)) ! flacenc ! filesink location=\(raw.path)")
            try FLACCueSheet.adding(trackStarts: [0, 96_000, 192_000], total: 288_000, to: Data(contentsOf: raw)).write(to: url)
        case .video:
            try launch("videotestsrc num-buffers=250 ! video/x-raw,width=160,height=120,framerate=25/1 "
                       + "! vp8enc keyframe-max-dist=50 deadline=1 ! webmmux name=mux ! filesink location=\(path) "
                       + "\(tone(10)) ! opusenc ! mux.")
        case .video60fps:
            try launch("videotestsrc num-buffers=1200 pattern=ball ! video/x-raw,width=320,height=240,framerate=60/1 "
                       + "! vp8enc deadline=1 ! webmmux ! filesink location=\(path)")
        case .anamorphic:
            try launch("videotestsrc num-buffers=75 ! video/x-raw,width=720,height=576,framerate=25/1,pixel-aspect-ratio=64/45 "
                       + "! vp8enc deadline=1 ! webmmux ! filesink location=\(path)")
        case .truncatedMP4:
            let whole = try Data(contentsOf: self.url(.aac))
            try whole.prefix(whole.count / 2).write(to: url)
        case .unknownCodec:
            let source = url.deletingLastPathComponent().appendingPathComponent("pcm.mkv")
            try launch("\(tone(3)) ! audio/x-raw,format=S16LE ! matroskamux ! filesink location=\(source.path)")
            // Same length, so the EBML sizes stay right.
            var bytes = try Data(contentsOf: source)
            let known = Data("A_PCM/INT/LIT".utf8)
            let range = try #require(bytes.range(of: known))
            bytes.replaceSubrange(range, with: Data("A_TRACKCAST/Z".utf8))
            try bytes.write(to: url)
        case .hls:
            // hlssink2 (splitmuxsink) now and then never finishes at end of
            // stream on GStreamer 1.22, so the segments come from multifilesink
            // and the playlist is written here.
            let folder = url.deletingLastPathComponent()
            try launch("\(tone(12)) ! \(Self.aacEncoder) ! aacparse ! mpegtsmux ! multifilesink "
                       + "location=\(folder.path)/segment%05d.ts next-file=max-duration max-file-duration=1000000000")
            let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".ts") }.sorted()
            let playlist = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
                + segments.flatMap { ["#EXTINF:1.0,", $0] } + ["#EXT-X-ENDLIST", ""]
            try playlist.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// avenc_aac comes with gstreamer1.0-libav; voaacenc with plugins-bad.
    private static let aacEncoder = ProcessInfo.processInfo.environment["TRACKCAST_TEST_AAC_ENCODER"] ?? "avenc_aac"

    /// Runs gst-launch-1.0, giving each attempt 30 s: now and then a
    /// pipeline (hlssink2, at end of stream) never exits, and a retry succeeds.
    private func launch(_ pipeline: String) throws {
        var lastError = ""
        for _ in 0..<3 {
            let process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"),
                                           arguments: ["-q"] + Self.words(pipeline))
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                lastError = "timed out"
                continue
            }
            if process.ended == .exited(0) { return }
            lastError = process.standardError
        }
        throw FixtureError(pipeline: pipeline, message: lastError)
    }

    /// Splits a gst-launch description into words as a shell would, keeping quoted parts together.
    private static func words(_ pipeline: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in pipeline {
            if character == "\"" { quoted.toggle(); continue }
            if character == " ", !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    struct FixtureError: Error, CustomStringConvertible {
        let pipeline: String
        let message: String
        var description: String { "gst-launch-1.0 \(pipeline) failed: \(message)" }
    }
}
