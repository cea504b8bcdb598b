import Foundation

/// Speech-like sound with pauses of known lengths, written as a 48 kHz
/// stereo 16-bit WAV, and the measurements the listening tests make on
/// what comes out of the player.
///
/// "Talk" is syllables: 180 ms of a 140–190 Hz voice with four harmonics,
/// 10 ms ramps in and out, 70 ms apart. The gaps inside talk are shorter
/// than the silence skipping keeps, so only the pauses should shrink.
public struct TalkLikeAudio: Sendable {
    public enum Part: Sendable {
        /// Talk at a peak level in dBFS.
        case talk(seconds: Double, peakDB: Double = -6)
        case pause(seconds: Double)
    }

    public static let rate = 48_000
    public static let channels = 2

    public let parts: [Part]

    public init(parts: [Part]) { self.parts = parts }

    public var pauses: [Double] {
        parts.compactMap { if case .pause(let seconds) = $0 { seconds } else { nil } }
    }

    /// Seconds of silence beyond `kept` of each pause: what skipping silence
    /// that keeps `kept` of every pause should save.
    public func silence(beyond kept: Double) -> Double {
        pauses.filter { $0 > kept }.reduce(0) { $0 + $1 - kept }
    }

    /// Samples of one channel (the other is the same).
    public func samples() -> [Float] {
        var samples: [Float] = []
        var syllable = 0
        for part in parts {
            switch part {
            case .pause(let seconds):
                samples += [Float](repeating: 0, count: Int(seconds * Double(Self.rate)))
            case .talk(let seconds, let peakDB):
                let peak = pow(10, peakDB / 20)
                let end = samples.count + Int(seconds * Double(Self.rate))
                while samples.count < end {
                    let pitch = 140 + Double(syllable * 37 % 50)
                    syllable += 1
                    let length = min(Int(0.18 * Double(Self.rate)), end - samples.count)
                    let ramp = Int(0.01 * Double(Self.rate))
                    for n in 0..<length {
                        let t = Double(n) / Double(Self.rate)
                        let envelope = min(1, Double(n) / Double(ramp), Double(length - n) / Double(ramp))
                        var value = 0.0
                        for harmonic in 1...4 { value += sin(2 * .pi * pitch * Double(harmonic) * t) / Double(harmonic) }
                        samples.append(Float(peak * envelope * value / 2.08))
                    }
                    let gap = min(Int(0.07 * Double(Self.rate)), end - samples.count)
                    samples += [Float](repeating: 0, count: gap)
                }
            }
        }
        return samples
    }

    public func writeWAV(to url: URL) throws {
        try Self.wav(samples()).write(to: url)
    }

    /// Writes the talk as Opus in Ogg at `url` (64 kbit/s), by way of a
    /// WAV beside it, with gst-launch-1.0.
    public func writeOpus(to url: URL) throws {
        let wav = url.deletingPathExtension().appendingPathExtension("wav")
        try writeWAV(to: wav)
        let encoded = try ChildProcess.runSynchronously(URL(fileURLWithPath: "/usr/bin/gst-launch-1.0"), arguments: [
            "-q", "filesrc", "location=\(wav.path)", "!", "wavparse", "!", "audioconvert", "!",
            "opusenc", "bitrate=64000", "!", "oggmux", "!", "filesink", "location=\(url.path)",
        ])
        guard encoded.termination == .exited(0) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    public static func wav(_ mono: [Float]) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let dataBytes = mono.count * channels * 2
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + dataBytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(channels))
        append(UInt32(rate)); append(UInt32(rate * channels * 2)); append(UInt16(channels * 2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(dataBytes))
        for sample in mono {
            let value = Int16(max(-1, min(1, sample)) * 32767)
            for _ in 0..<channels { append(value) }
        }
        return data
    }

    /// The first channel of a 16-bit PCM WAV, as written by wavenc.
    public static func readWAV(_ url: URL) throws -> (rate: Int, samples: [Float]) {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var offset = 12
        var rate = 0, channels = 1
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                channels = u16(offset + 10)
                rate = u32(offset + 12)
                guard u16(offset + 22) == 16 else { throw WAVError("\(url.lastPathComponent) is not 16-bit") }
            } else if id == "data" {
                let end = min(bytes.count, offset + 8 + size)
                var samples: [Float] = []
                var at = offset + 8
                while at + 2 * channels <= end {
                    samples.append(Float(Int16(bitPattern: UInt16(u16(at)))) / 32767)
                    at += 2 * channels
                }
                return (rate, samples)
            }
            offset += 8 + size + size % 2
        }
        throw WAVError("\(url.lastPathComponent) has no audio data")
    }

    /// RMS level in dBFS of 10 ms windows.
    public static func windowLevels(_ samples: ArraySlice<Float>, rate: Int) -> [Double] {
        let window = rate / 100
        return stride(from: samples.startIndex, to: samples.endIndex, by: window).map { start in
            let slice = samples[start..<min(start + window, samples.endIndex)]
            return level(slice)
        }
    }

    public static func level(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return -200 }
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(meanSquare + 1e-20)
    }

    /// Seconds of 10 ms windows louder than -40 dBFS: how much talk there is.
    public static func talkSeconds(_ samples: [Float], rate: Int) -> Double {
        Double(windowLevels(samples[...], rate: rate).filter { $0 > -40 }.count) / 100
    }

    /// The energy of the windows louder than -40 dBFS.
    public static func talkEnergy(_ samples: [Float], rate: Int) -> Double {
        let window = rate / 100
        return stride(from: 0, to: samples.count, by: window).reduce(0.0) { total, start in
            let slice = samples[start..<min(start + window, samples.count)]
            return level(slice) > -40 ? total + slice.reduce(0.0) { $0 + Double($1) * Double($1) } : total
        }
    }
}

/// A WAV file `TalkLikeAudio.readWAV` cannot read.
public struct WAVError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
