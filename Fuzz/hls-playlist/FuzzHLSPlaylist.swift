import Foundation

/// libFuzzer entry for HLS media playlists (`HLSMediaPlaylist`): any bytes
/// as a playlist. Its reading looks at each byte at most four times; every
/// time it reads is finite and within a media time; each interstitial has
/// one web address to play, never both or another scheme; at most 1,000 of
/// them. A master playlist's first variant is a web address; its variants
/// (`HLSMasterPlaylist`) are read in four looks a byte, each bandwidth and
/// height within range. An input read slower than its size allows traps
/// (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSPlaylist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let url = URL(string: "https://streams.example/show/index.m3u8")!
    SizeScaledTimeLimit.check(bytes: count) {
        func isWeb(_ url: URL?) -> Bool { url.map { ["http", "https"].contains($0.scheme?.lowercased() ?? "") } ?? true }
        func inRange(_ seconds: Double?) -> Bool {
            seconds.map { $0.isFinite && $0 >= 0 && $0 <= HLSAttributes.maximumSeconds } ?? true
        }
        if !isWeb(HLSMediaPlaylist.firstVariant(in: text, url: url)) { fatalError("a variant that is not a web address") }
        var variantSteps = 0
        let variants = HLSMasterPlaylist.variants(in: text, steps: &variantSteps)
        if variantSteps > 4 * text.utf8.count + 16 { fatalError("\(variantSteps) steps for \(text.utf8.count) bytes of variants") }
        for variant in variants where !(1...Int(HLSMasterPlaylist.maximumBandwidth)).contains(variant.bandwidth)
            || !(variant.height.map { (1...100_000).contains($0) } ?? true) {
            fatalError("\(variant)")
        }
        var steps = 0
        guard let playlist = try? HLSMediaPlaylist(text, url: url, steps: &steps) else { return }
        if steps > 4 * text.utf8.count + 16 { fatalError("\(steps) steps for \(text.utf8.count) bytes") }
        if !inRange(playlist.duration) { fatalError("duration \(playlist.duration)") }
        // The live playlist is read again at this interval: never zero.
        if let target = playlist.targetDuration, !(inRange(target) && target > 0) { fatalError("target duration \(target)") }
        if playlist.interstitials.count > HLSMediaPlaylist.maximumInterstitials {
            fatalError("\(playlist.interstitials.count) interstitials")
        }
        for interstitial in playlist.interstitials {
            guard inRange(interstitial.start), inRange(interstitial.duration), inRange(interstitial.resumeOffset),
                  isWeb(interstitial.assetURI), isWeb(interstitial.assetList),
                  (interstitial.assetURI == nil) != (interstitial.assetList == nil), !interstitial.id.isEmpty
            else { fatalError("\(interstitial)") }
        }
    }
    return 0
}
