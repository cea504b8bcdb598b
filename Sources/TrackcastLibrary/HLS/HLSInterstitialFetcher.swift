import Foundation

/// Fetches an HLS stream's media playlist to read the interstitials it
/// schedules: GStreamer plays the stream but does not say what its
/// playlist's date ranges are. A master playlist leads to its first
/// variant (date ranges are the same in every variant); one hop only.
public struct HLSInterstitialFetcher: Sendable {
    private let client: HTTPClient
    static let timeouts = HTTPTimeouts(connect: .seconds(10), total: .seconds(20), idle: .seconds(10))

    public init(client: HTTPClient) {
        self.client = client
    }

    public enum FetchError: Error, Equatable {
        case status(Int)
        case noVariant
    }

    public func playlist(at url: URL) async throws -> HLSMediaPlaylist {
        var (text, at) = try await fetch(url)
        if HLSMediaPlaylist.isMaster(text) {
            guard let variant = HLSMediaPlaylist.firstVariant(in: text, url: at) else { throw FetchError.noVariant }
            try Task.checkCancellation()
            (text, at) = try await fetch(variant)
        }
        return try HLSMediaPlaylist(text, url: at)
    }

    private func fetch(_ url: URL) async throws -> (String, URL) {
        let body = ResponseBodyBuffer(limit: Int64(HLSMediaPlaylist.maximumSize))
        let head = try await client.get(url, timeouts: Self.timeouts, receiver: body)
        guard (200..<300).contains(head.status) else { throw FetchError.status(head.status) }
        return (String(decoding: body.data, as: UTF8.self), head.url)
    }
}
