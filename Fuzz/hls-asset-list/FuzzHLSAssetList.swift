import Foundation

/// libFuzzer entry for interstitial asset lists (`HLSAssetList`): any bytes
/// as the JSON an `X-ASSET-LIST` names. Its reading looks at each byte at
/// most twice; every asset it keeps has a web address and a finite duration
/// within a media time; at most 100 of them. An input read slower than its
/// size allows traps (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSAssetList(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    let url = URL(string: "https://ads.example.net/break/list.json")!
    SizeScaledTimeLimit.check(bytes: count) {
        var steps = 0
        let list = try? HLSAssetList(input, url: url, steps: &steps)
        if steps > 2 * count + 16 { fatalError("\(steps) steps for \(count) bytes") }
        guard let list else { return }
        if list.assets.count > HLSAssetList.maximumAssets { fatalError("\(list.assets.count) assets") }
        for asset in list.assets {
            guard ["http", "https"].contains(asset.uri.scheme?.lowercased() ?? ""), asset.duration.isFinite,
                  asset.duration >= 0, asset.duration <= HLSAttributes.maximumSeconds
            else { fatalError("\(asset)") }
        }
    }
    return 0
}
