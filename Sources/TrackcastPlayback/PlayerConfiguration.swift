import Foundation
import TrackcastCore

/// How a `PlayerController` plays: outputs, skips, limits and buffers.
public struct PlayerConfiguration: Sendable {
    /// The audio output as a gst-launch description ("fakesink sync=true",
    /// "pulsesink"); nil lets playbin choose.
    public var audioSink: String?
    /// The video output likewise; ignored when `decodesVideo` is false.
    public var videoSink: String?
    /// Whether video is decoded at all; the headless CLI plays sound only.
    public var decodesVideo = true
    public var skipForward: Duration = .seconds(30)
    public var skipBackward: Duration = .seconds(15)
    /// How long a load may take to preroll, or the probe to finish, before it fails with `.timeout`.
    public var loadTimeout: Duration = .seconds(20)
    /// Whether to probe each item for its details (codecs, cover art,
    /// chapters) once it is ready. Playback never waits for them; a player
    /// without a screen has no use for them. (An item slow to preroll is
    /// probed either way, for a second opinion on what is wrong.)
    public var probesAssets = true
    /// How long a network source may go without data before it fails with
    /// `.timeout`. Under souphttpsrc's own 15 s, which would fail first with
    /// an error that does not say why (see `SourceSettings`).
    public var networkTimeout: Duration = .seconds(10)
    /// The bandwidth to assume for adaptive streams, in kbit/s; nil measures it.
    public var connectionSpeed: Int?
    /// The highest variant bitrate an adaptive stream may pick, in bit/s.
    public var maximumBitrate: Int?
    /// How far ahead of the playback position network streams buffer.
    public var forwardBuffer: Duration = .seconds(20)
    /// How often position ticks arrive while playing.
    public var tickInterval: Duration = .milliseconds(500)

    public init() {}

    /// The environment variable that names the audio sink, so tests and
    /// machines without a sound device can play: `fakesink sync=true`.
    public static let audioSinkVariable = "TRACKCAST_AUDIO_SINK"

    /// The defaults, with the audio sink from `TRACKCAST_AUDIO_SINK` if set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> PlayerConfiguration {
        var configuration = PlayerConfiguration()
        if let sink = environment[audioSinkVariable], !sink.isEmpty { configuration.audioSink = sink }
        return configuration
    }
}
