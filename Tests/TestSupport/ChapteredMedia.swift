import Foundation

/// Audio files with chapters in each container's own way, made at test time:
/// the sound by gst-launch-1.0, the chapters by ffmpeg, since no GStreamer
/// muxer writes chapters from the command line.
public enum ChapteredMedia {
    public enum Container: String, Sendable, CaseIterable {
        /// MP3 behind an ID3v2.4 tag of CHAP frames and a CTOC (written by `ID3TagWriter`).
        case mp3
        /// AAC in MP4: a QuickTime chapter track and Nero's `chpl`, both as ffmpeg writes them.
        case m4a
        /// AAC in Matroska: an `EditionEntry` of `ChapterAtom`s.
        case mkv
        /// Opus in Ogg: `CHAPTER000=00:00:02.000`, `CHAPTER000NAME=…` Vorbis comments.
        case opus
    }

    public struct Mark: Sendable, Equatable {
        public var start: Double
        public var title: String

        public init(_ start: Double, _ title: String) {
            self.start = start
            self.title = title
        }
    }

    /// Writes `seconds` of a tone with `chapters` to `url`.
    public static func write(_ container: Container, seconds: Int, chapters: [Mark], to url: URL) async throws {
        let scratch = url.deletingLastPathComponent().appendingPathComponent("sound-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // 20 ms buffers of 48 kHz audio: 50 per second.
        let tone = ["audiotestsrc", "num-buffers=\(seconds * 50)", "samplesperbuffer=960", "!",
                    "audio/x-raw,rate=48000,channels=2", "!", "audioconvert", "!"]
        let sound: URL
        let ffmpegArguments: [String]
        switch container {
        case .mp3:
            sound = scratch.appendingPathComponent("sound.mp3")
            try await gstLaunch(tone + ["lamemp3enc", "!", "filesink", "location=\(sound.path)"])
            let tag = ID3TagWriter(version: 4, chapters: chapters.enumerated().map { index, mark in
                let end = index + 1 < chapters.count ? chapters[index + 1].start : Double(seconds)
                return (UInt32(mark.start * 1000), UInt32(end * 1000), mark.title, nil)
            })
            try (tag.data() + Data(contentsOf: sound)).write(to: url)
            return
        case .m4a, .mkv:
            sound = scratch.appendingPathComponent("sound.m4a")
            try await gstLaunch(tone + ["avenc_aac", "!", "mp4mux", "!", "filesink", "location=\(sound.path)"])
            let metadata = scratch.appendingPathComponent("chapters.txt")
            try ffmetadata(chapters, seconds: seconds).write(to: metadata, atomically: true, encoding: .utf8)
            ffmpegArguments = ["-i", sound.path, "-i", metadata.path, "-map", "0:a", "-map_metadata", "1",
                               "-map_chapters", "1", "-c", "copy"]
        case .opus:
            // ffmpeg's own Ogg chapters are written off by a second in ffmpeg 5.1,
            // so the comments are written as a tagger writes them.
            sound = scratch.appendingPathComponent("sound.opus")
            try await gstLaunch(tone + ["opusenc", "!", "oggmux", "!", "filesink", "location=\(sound.path)"])
            let comments = chapters.enumerated().flatMap { index, mark in
                let number = String(format: "%03d", index)
                return ["-metadata", "CHAPTER\(number)=\(clock(mark.start))", "-metadata", "CHAPTER\(number)NAME=\(mark.title)"]
            }
            ffmpegArguments = ["-i", sound.path, "-map", "0:a", "-c", "copy"] + comments
        }
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                                              arguments: ["-loglevel", "error", "-y"] + ffmpegArguments + [url.path],
                                              timeout: .seconds(60))
        guard made.status == 0 else { throw Failure(message: "ffmpeg: \(made.standardError)") }
    }

    /// ffmpeg's metadata file: one `[CHAPTER]` section per chapter, in milliseconds.
    private static func ffmetadata(_ chapters: [Mark], seconds: Int) -> String {
        var text = ";FFMETADATA1\n"
        for (index, mark) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].start : Double(seconds)
            let title = mark.title.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "=", with: "\\=").replacingOccurrences(of: ";", with: "\\;")
                .replacingOccurrences(of: "#", with: "\\#")
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(mark.start * 1000))\nEND=\(Int(end * 1000))\ntitle=\(title)\n"
        }
        return text
    }

    /// `seconds` of a tone as AAC in MP4, as mp4mux writes it (`moov` after
    /// the media), without chapters.
    public static func writeAACTone(seconds: Int, to url: URL) async throws {
        try await gstLaunch(["audiotestsrc", "num-buffers=\(seconds * 50)", "samplesperbuffer=960", "!",
                             "audio/x-raw,rate=48000,channels=2", "!", "audioconvert", "!", "avenc_aac", "!", "mp4mux",
                             "!", "filesink", "location=\(url.path)"])
    }

    /// One frame of GStreamer's test pattern, encoded by `encoder` (`jpegenc`, `pngenc`).
    public static func testPicture(encoder: String, in directory: URL) async throws -> Data {
        let file = directory.appendingPathComponent("picture-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try await gstLaunch(["videotestsrc", "num-buffers=1", "!", "video/x-raw,width=64,height=64", "!", "videoconvert",
                             "!", encoder, "!", "filesink", "location=\(file.path)"])
        return try Data(contentsOf: file)
    }

    /// `HH:MM:SS.mmm`.
    private static func clock(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                      milliseconds / 1000 % 60, milliseconds % 1000)
    }

    private static func gstLaunch(_ arguments: [String]) async throws {
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: ["-q"] + arguments,
                                              timeout: .seconds(60))
        guard made.status == 0 else { throw Failure(message: "gst-launch-1.0: \(made.standardError)") }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
