import Foundation

/// A 10 s, 30 fps clip of moving bars (every frame differs, as in real
/// video), encoded at bench time as a podcast would ship it: 4:2:0, 8 bits;
/// and one at High 4:4:4 10-bit, what x264enc makes when nothing asks for
/// 4:2:0 (and the depth HDR sources carry), slower to decode and convert.
struct VideoBenchClip {
    let name: String
    let fileName: String
    let width: Int
    let height: Int
    /// The encoder and muxer after the raw frames.
    let encode: String
    var rawFormat = "I420"

    static let all = [
        VideoBenchClip(name: "1080p30 H.264", fileName: "1080p30-h264.mp4", width: 1920, height: 1080,
                       encode: "x264enc speed-preset=veryfast bitrate=6000 key-int-max=60 "
                           + "! video/x-h264,profile=high ! h264parse ! mp4mux"),
        VideoBenchClip(name: "1080p30 H.264 High 4:4:4 10-bit", fileName: "1080p30-h264-444-10.mp4", width: 1920,
                       height: 1080, encode: "x264enc speed-preset=veryfast bitrate=6000 key-int-max=60 "
                           + "! h264parse ! mp4mux", rawFormat: "Y444_10LE"),
        VideoBenchClip(name: "720p30 H.264", fileName: "720p30-h264.mp4", width: 1280, height: 720,
                       encode: "x264enc speed-preset=veryfast bitrate=3000 key-int-max=60 "
                           + "! video/x-h264,profile=high ! h264parse ! mp4mux"),
        VideoBenchClip(name: "1080p30 VP8", fileName: "1080p30-vp8.webm", width: 1920, height: 1080,
                       encode: "vp8enc deadline=1 cpu-used=16 threads=2 target-bitrate=6000000 keyframe-max-dist=60 "
                           + "! webmmux"),
    ]

    func make(in folder: URL, frames: Int) async throws -> URL {
        let file = folder.appendingPathComponent(fileName)
        _ = try await VideoPeers.launch("videotestsrc num-buffers=\(frames) pattern=smpte horizontal-speed=4 "
                                        + "! video/x-raw,format=\(rawFormat),width=\(width),height=\(height),framerate=30/1 "
                                        + "! \(encode) ! filesink location=\(file.path)")
        return file
    }
}
