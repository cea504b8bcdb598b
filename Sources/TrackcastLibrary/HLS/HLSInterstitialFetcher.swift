import Foundation
import TrackcastCore

/// Fetches an HLS stream's media playlist to read the interstitials it
/// schedules: GStreamer plays the stream but does not say what its
/// playlist's date ranges are. A master playlist leads to its first
/// variant (date ranges are the same in every variant); one hop only. Its
/// variants are kept for the data saver's height cap.
/// Also fetches an interstitial's asset list when it comes due.
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

    /// The media playlist at `url` (or its first variant's), its
    /// interstitials placed on `timelineStart`'s timeline when given (a
    /// live playlist read again: `HLSMediaPlaylist.init(_:url:timelineStart:)`).
    public func playlist(at url: URL, timelineStart: Date? = nil) async throws -> HLSMediaPlaylist {
        var (body, at) = try await fetch(url, limit: HLSMediaPlaylist.maximumSize)
        var text = String(decoding: body, as: UTF8.self)
        var variants: [StreamVariant] = []
        if HLSMediaPlaylist.isMaster(text) {
            variants = HLSMasterPlaylist.variants(in: text)
            guard let variant = HLSMediaPlaylist.firstVariant(in: text, url: at) else { throw FetchError.noVariant }
            try Task.checkCancellation()
            (body, at) = try await fetch(variant, limit: HLSMediaPlaylist.maximumSize)
            text = String(decoding: body, as: UTF8.self)
        }
        var playlist = try HLSMediaPlaylist(text, url: at, timelineStart: timelineStart)
        playlist.variants = variants
        return playlist
    }

    /// The asset list at `url` (an interstitial's `X-ASSET-LIST`), its
    /// addresses resolved against where it was fetched from.
    public func assetList(at url: URL) async throws -> HLSAssetList {
        let (body, at) = try await fetch(url, limit: HLSAssetList.maximumSize)
        return try HLSAssetList(body, url: at)
    }

    private func fetch(_ url: URL, limit: Int) async throws -> (Data, URL) {
        let body = ResponseBodyBuffer(limit: Int64(limit))
        let head = try await client.get(url, timeouts: Self.timeouts, receiver: body)
        guard (200..<300).contains(head.status) else { throw FetchError.status(head.status) }
        return (body.data, head.url)
    }
}
