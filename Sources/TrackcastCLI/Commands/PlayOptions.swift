import Foundation
import TrackcastCore

/// The arguments of `trackcast play URI [--start SECONDS] [--rate R] [--skip-silence] [--voice-boost]`,
/// checked before anything plays. Toolkit-free, so the parser tests need no
/// GStreamer; the executable's `PlayCommand` runs them.
public struct PlayOptions: Equatable, Sendable {
    public static let words = ["play"]
    public static let arguments = "URI [--start SECONDS] [--rate R] [--skip-silence] [--voice-boost]"
    public static let summary = "Play a file or URI in the terminal, without a window"
    /// The speeds the player accepts (`PlaybackRate.range`, which this module cannot see).
    public static let rates: ClosedRange<Double> = 0.5...3.0

    /// A URI; a path given on the command line becomes a file URI.
    public let uri: String
    public let start: Double?
    public let rate: Double
    /// Shorten long silences, and say how much time that saved at the end.
    public let skipsSilence: Bool
    public let boostsVoice: Bool

    public init(parsing arguments: [String],
                currentDirectory: String = FileManager.default.currentDirectoryPath) throws(UsageError) {
        var uri: String?
        var start: Double?
        var rate = 1.0
        var skipsSilence = false
        var boostsVoice = false
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            switch word {
            case "--start":
                guard let value = remaining.popFirst(), let seconds = Double(value), seconds.isFinite, seconds >= 0 else {
                    throw UsageError("--start needs a number of seconds, 0 or more")
                }
                start = seconds
            case "--rate":
                guard let value = remaining.popFirst(), let speed = Double(value), Self.rates.contains(speed) else {
                    throw UsageError("--rate needs a speed from 0.5 to 3")
                }
                rate = speed
            case "--skip-silence":
                skipsSilence = true
            case "--voice-boost":
                boostsVoice = true
            case _ where word.hasPrefix("-") && word != "-":
                throw UsageError("unknown option '\(word)' for play")
            default:
                guard uri == nil else { throw UsageError("play takes one URI; '\(word)' is one too many") }
                uri = word
            }
        }
        guard let uri, !uri.isEmpty else { throw UsageError("usage: trackcast play \(Self.arguments)") }
        self.uri = Self.uri(for: uri, currentDirectory: currentDirectory)
        guard PlayableURI.isAllowed(self.uri) else {
            throw UsageError("play takes a file, or an http or https URI, not '\(uri)'")
        }
        self.start = start
        self.rate = rate
        self.skipsSilence = skipsSilence
        self.boostsVoice = boostsVoice
    }

    /// "https://…" and "file:///…" stay; anything else is a path.
    static func uri(for word: String, currentDirectory: String) -> String {
        if word.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil { return word }
        let base = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        return URL(fileURLWithPath: word, relativeTo: base).standardizedFileURL.absoluteString
    }
}
