import Foundation

/// Fetches an episode's transcript and keeps it on disk, so an episode
/// opened again shows its transcript without the network.
///
/// An episode may list several transcripts (formats, languages); the one
/// read is the best the parser understands: in the reader's language if
/// one is, then timed (WebVTT, Podcasting 2.0 JSON, SubRip) before HTML,
/// whose paragraphs cannot follow playback. If it cannot be fetched the
/// next best is tried.
public struct TranscriptFetcher: Sendable {
    /// Why no transcript could be read, sorted into what the page can say.
    public enum Failure: Error, Equatable, LocalizedError {
        /// The episode lists no transcript in a format Trackcast reads at a web address.
        case noReadableTranscript
        case status(Int)
        case timeout
        case network(String)
        case tooManyRedirects
        case tooLarge(limit: Int64)
        /// Fetched, but not a transcript (garbage, a web page in place of a VTT file, no cues).
        case unreadable

        public var errorDescription: String? {
            switch self {
            case .noReadableTranscript: "The episode has no transcript Trackcast can read."
            case .status(let status): "The server answered \(status) for the transcript."
            case .timeout: "The server did not send the transcript in time."
            case .network(let message): message
            case .tooManyRedirects: "The server redirected too many times."
            case .tooLarge(let limit): "The transcript is larger than \(limit / 1_000_000) MB."
            case .unreadable: "The transcript could not be read."
            }
        }
    }

    /// A transcript read, and which of the episode's it is.
    public struct Fetched: Sendable, Equatable {
        public let transcript: Transcript
        public let source: FeedTranscript
        /// Read from the disk cache, not the network.
        public let fromCache: Bool
    }

    public static let defaultTimeouts = HTTPTimeouts(connect: .seconds(15), total: .seconds(60))
    /// Hours of speech as WebVTT are about 1 MB; ten times that is no transcript.
    public static let defaultMaxBytes: Int64 = 10_000_000

    private let client: HTTPClient
    /// `<episode id>-<hash of the address>.<format>`: a feed that moves its
    /// transcript elsewhere gets the new one, not the cached old one.
    private let cache: URL
    private let timeouts: HTTPTimeouts
    private let maxBytes: Int64
    private let preferredLanguages: [String]

    /// - Parameter preferredLanguages: BCP 47 tags in the reader's order of
    ///   preference, e.g. `Locale.preferredLanguages`; only the language
    ///   (before the first `-` or `_`) is compared.
    public init(client: HTTPClient, cacheDirectory: URL, preferredLanguages: [String],
                timeouts: HTTPTimeouts = defaultTimeouts, maxBytes: Int64 = defaultMaxBytes) {
        self.client = client
        self.cache = cacheDirectory
        self.preferredLanguages = preferredLanguages.map(Self.language)
        self.timeouts = timeouts
        self.maxBytes = maxBytes
    }

    /// The transcripts worth trying, best first, each with the format to read
    /// it as. Addresses other than `http(s)` are never fetched (the feed
    /// parser drops them already; the library could hold older rows).
    public func candidates(_ transcripts: [FeedTranscript]) -> [(FeedTranscript, TranscriptParser.Format)] {
        let readable = transcripts.enumerated().compactMap { offset, transcript -> (Int, FeedTranscript, TranscriptParser.Format)? in
            guard FeedURLResolver.webOnly(transcript.url) != nil, let format = Self.format(of: transcript) else { return nil }
            return (offset, transcript, format)
        }
        return readable.sorted { left, right in
            let (leftRank, rightRank) = (rank(left.1, left.2), rank(right.1, right.2))
            return leftRank != rightRank ? leftRank < rightRank : left.0 < right.0
        }.map { ($0.1, $0.2) }
    }

    /// The episode's best transcript if one is cached, without the network:
    /// what the search index takes in for a library indexed after the fact.
    public func cachedTranscript(for episode: EpisodeID, from transcripts: [FeedTranscript]) -> Transcript? {
        cached(episode, candidates(transcripts))?.transcript
    }

    private func cached(_ episode: EpisodeID, _ candidates: [(FeedTranscript, TranscriptParser.Format)])
        -> Fetched? {
        for (source, format) in candidates {
            if let cached = try? Data(contentsOf: cacheFile(episode, source, format)),
               let transcript = try? TranscriptParser.parse(cached, format: format) {
                return Fetched(transcript: transcript, source: source, fromCache: true)
            }
        }
        return nil
    }

    /// The episode's best transcript: from the cache if any candidate is
    /// there, else fetched (the next candidate if one fails), parsed and then
    /// cached (what does not parse is not). Throws the best candidate's `Failure`.
    public func transcript(for episode: EpisodeID, from transcripts: [FeedTranscript]) async throws -> Fetched {
        let candidates = candidates(transcripts)
        guard !candidates.isEmpty else { throw Failure.noReadableTranscript }
        if let cached = cached(episode, candidates) { return cached }
        var firstFailure: Failure?
        for (source, format) in candidates {
            do {
                let data = try await fetch(source.url)
                guard let transcript = try? TranscriptParser.parse(data, format: format) else { throw Failure.unreadable }
                // A cache that cannot be written costs the next open a fetch, not this one its transcript.
                try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
                try? data.write(to: cacheFile(episode, source, format), options: .atomic)
                return Fetched(transcript: transcript, source: source, fromCache: false)
            } catch let failure as Failure {
                firstFailure = firstFailure ?? failure
            }
        }
        throw firstFailure ?? Failure.noReadableTranscript
    }

    private func fetch(_ url: URL) async throws -> Data {
        let body = ResponseBodyBuffer(limit: maxBytes)
        let head: HTTPResponseHead
        do {
            head = try await client.get(url, timeouts: timeouts, receiver: body)
        } catch let error as HTTPError {
            switch error {
            case .network(let message): throw Failure.network(message)
            case .timeout: throw Failure.timeout
            case .tooManyRedirects: throw Failure.tooManyRedirects
            case .tooLarge(let limit): throw Failure.tooLarge(limit: limit)
            case .cancelled: throw CancellationError()
            }
        }
        guard (200..<300).contains(head.status) else { throw Failure.status(head.status) }
        return body.data
    }

    /// Lower is better: the reader's languages in order, then a transcript
    /// that does not say (likely the show's), then any other; within one
    /// language, timed formats before HTML.
    private func rank(_ transcript: FeedTranscript, _ format: TranscriptParser.Format) -> Int {
        let languageRank: Int = if let language = transcript.language.map(Self.language) {
            preferredLanguages.firstIndex(of: language) ?? preferredLanguages.count + 1
        } else {
            preferredLanguages.count
        }
        let formatRank = switch format {
        case .webVTT: 0
        case .json: 1
        case .subRip: 2
        case .html: 3
        }
        return languageRank * 4 + formatRank
    }

    /// The format the feed names, or, when its type is missing or vague
    /// (`text/plain`), the one the address's extension names.
    static func format(of transcript: FeedTranscript) -> TranscriptParser.Format? {
        if let type = transcript.type, let format = TranscriptParser.Format(mediaType: type) { return format }
        return switch transcript.url.pathExtension.lowercased() {
        case "vtt": .webVTT
        case "srt": .subRip
        case "json": .json
        case "html", "htm": .html
        default: nil
        }
    }

    private static func language(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    private func cacheFile(_ episode: EpisodeID, _ source: FeedTranscript, _ format: TranscriptParser.Format) -> URL {
        let suffix = switch format {
        case .webVTT: "vtt"
        case .subRip: "srt"
        case .json: "json"
        case .html: "html"
        }
        return cache.appendingPathComponent("\(episode.rawValue)-\(Self.stableHash(source.url.absoluteString)).\(suffix)")
    }

    /// FNV-1a: the same in every run (Swift's `Hasher` is seeded per process).
    private static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
