import Foundation
import Testing
@testable import TrackcastLibrary

/// Reading an interstitial's asset list (`X-ASSET-LIST`), which comes from an ad server.
@Suite("HLS asset lists")
struct HLSAssetListTests {
    static let url = URL(string: "https://ads.example.net/break/list.json")!

    static func read(_ text: String) throws(HLSAssetListError) -> [HLSAssetList.Asset] {
        try HLSAssetList(Data(text.utf8), url: url).assets
    }

    @Test("the assets in order, relative addresses resolved against the list's, other members ignored")
    func assets() throws {
        let assets = try Self.read(#"""
            {"ASSETS": [{"URI": "one/ad.m3u8", "DURATION": 15.5, "X-AD-ID": [1, {"a": null}]},
                        {"DURATION": 2e1, "URI": "https:\/\/cdn.example.com\/two.m3u8"}],
             "X-OTHER": {"nested": [true, false, "\u00e9\ud83d\ude00"]}}
            """#)
        #expect(assets == [
            HLSAssetList.Asset(uri: URL(string: "https://ads.example.net/break/one/ad.m3u8")!, duration: 15.5),
            HLSAssetList.Asset(uri: URL(string: "https://cdn.example.com/two.m3u8")!, duration: 20),
        ])
        #expect(try Self.read(#"{"ASSETS": []}"#) == [])
        // A byte-order mark, as some servers send.
        #expect(try HLSAssetList(Data([0xEF, 0xBB, 0xBF] + Array(#"{"ASSETS":[]}"#.utf8)), url: Self.url).assets == [])
    }

    @Test("hostile durations refuse the list, naming the asset and the value", arguments: [
        ("1e300", "DURATION 1e300 is not a time"), ("-1", "DURATION -1 is not a time"),
        ("1e999", "DURATION 1e999 is not a time"), ("\"15\"", "no DURATION number"), ("true", "no DURATION number"),
        ("null", "no DURATION number"),
    ])
    func hostileDurations(value: String, reason: String) {
        let text = #"{"ASSETS": [{"URI": "a.m3u8", "DURATION": 1}, {"URI": "b.m3u8", "DURATION": \#(value)}]}"#
        #expect(throws: HLSAssetListError.badAsset(index: 1, reason: reason)) { try Self.read(text) }
    }

    @Test("what is not an asset list is refused with a reason", arguments: [
        ("", HLSAssetListError.notJSON(offset: 0)),
        (#"{"ASSETS": [{"URI": "a", "DURATION": NaN}]}"#, .notJSON(offset: 37)),
        (#"{"ASSETS": [], }"#, .notJSON(offset: 15)),
        (#"{"ASSETS": [] "#, .notJSON(offset: 14)),
        (#"{"ASSETS": "x\u12"}"#, .notJSON(offset: 17)),
        ("{\"ASSETS\": \"tab\t\"}", .notJSON(offset: 15)),
        (#"[{"ASSETS": []}]"#, .noAssetArray),
        (#"{"assets": []}"#, .noAssetArray),
        (#"{"ASSETS": [1]}"#, .badAsset(index: 0, reason: "not an object")),
        (#"{"ASSETS": [{"URI": "file:///etc/passwd", "DURATION": 1}]}"#, .badAsset(index: 0, reason: "no web address in URI")),
        (#"{"ASSETS": [{"URI": "javascript:alert(1)", "DURATION": 1}]}"#, .badAsset(index: 0, reason: "no web address in URI")),
        (String(repeating: "[", count: 40), .tooDeep),
    ])
    func refusals(text: String, error: HLSAssetListError) {
        #expect(throws: error) { try Self.read(text) }
    }

    @Test("too large or too many assets are refused")
    func limits() {
        let huge = Data(repeating: 0x20, count: HLSAssetList.maximumSize + 1)
        #expect(throws: HLSAssetListError.tooLarge(bytes: huge.count)) { try HLSAssetList(huge, url: Self.url) }
        let many = #"{"ASSETS": ["# + Array(repeating: #"{"URI": "a", "DURATION": 1}"#, count: 101).joined(separator: ",") + "]}"
        #expect(throws: HLSAssetListError.tooManyAssets(101)) { try Self.read(many) }
    }

    @Test("reading looks at each byte a bounded number of times, whatever the shape", arguments: [
        String(repeating: #"{"a":"#, count: 30), String(repeating: "[", count: 32) + String(repeating: "]", count: 32),
        #"{"ASSETS": ["# + Array(repeating: #"{"URI": "a\u0041", "DURATION": 1.5e0}"#, count: 100).joined(separator: ",") + "]}",
        #"{"x": ""# + String(repeating: #"\ud800"#, count: 5_000) + #""}"#,
        #"{"x": ["# + Array(repeating: "-0.5e-3", count: 5_000).joined(separator: ",") + "]}",
    ])
    func linear(text: String) {
        var steps = 0
        _ = try? HLSAssetList(Array(text.utf8), url: Self.url, steps: &steps)
        #expect(steps <= 2 * text.utf8.count + 16, "\(steps) steps for \(text.utf8.count) bytes")
    }
}
