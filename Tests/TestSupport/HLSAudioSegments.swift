import Foundation

/// One-second AAC segments in MPEG-TS for the HLS streams tests serve on
/// loopback (`VariantStream`, `InterstitialStream`), made by GStreamer.
public enum HLSAudioSegments {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `seconds` segments (a 440 Hz tone), as file name ("segment00000.ts"…) → contents.
    public static func make(seconds: Int = 20) async throws -> [String: Data] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-hls-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "audiotestsrc", "num-buffers=\(seconds * 50)", "samplesperbuffer=960", "!",
            "audio/x-raw,rate=48000,channels=2", "!", "audioconvert", "!", "avenc_aac", "!", "aacparse", "!",
            "mpegtsmux", "!", "multifilesink", "location=\(folder.path)/segment%05d.ts", "next-file=max-duration",
            "max-file-duration=1000000000",
        ], timeout: .seconds(60))
        guard made.status == 0 else { throw Failure(description: "gst-launch failed: \(made.standardError)") }
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ts") {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }
}
