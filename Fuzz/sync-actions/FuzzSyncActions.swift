import Foundation
import TrackcastCore

/// libFuzzer entry for what a sync server sends back as episode actions:
/// any bytes as JSON. Every action read has web-length addresses, a
/// timestamp within 1990…2200 and seconds finite and within MediaTime's
/// range; written out as an upload and read back, the same actions come
/// back with whole seconds. A timestamp read from any text writes back as
/// one that reads the same to the second.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncActions(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    SizeScaledTimeLimit.check(bytes: count) {
        if let date = SyncTimestamp.parse(String(decoding: data, as: UTF8.self)) {
            let again = SyncTimestamp.parse(SyncTimestamp.format(date))
            guard let again, abs(again.timeIntervalSince(date)) < 1 else {
                fatalError("timestamp \(date) writes as \(SyncTimestamp.format(date)), read back as \(String(describing: again))")
            }
        }
        guard let list = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else { return }
        let actions = list.compactMap(EpisodeAction.init(json:))
        for action in actions {
            let seconds = action.timestamp.timeIntervalSince1970
            guard (SyncTimestamp.earliest...SyncTimestamp.latest).contains(seconds) else { fatalError("timestamp \(seconds)") }
            for value in [action.started, action.position, action.total].compactMap({ $0 })
            where !value.isFinite || value < 0 || value > MediaTime.maximumSeconds {
                fatalError("seconds \(value)")
            }
        }
        let written = EpisodeActionsJSON.encode(actions, device: "fuzz")
        guard let again = (try? JSONSerialization.jsonObject(with: written)) as? [Any] else {
            fatalError("the upload is not JSON: \(String(decoding: written, as: UTF8.self))")
        }
        let reread = again.compactMap(EpisodeAction.init(json:))
        guard reread.count == actions.count else { fatalError("\(actions.count) actions read back as \(reread.count)") }
        for (action, back) in zip(actions, reread) {
            guard back.podcast == action.podcast, back.episode == action.episode, back.guid == action.guid,
                  back.kind == action.kind, back.device == "fuzz",
                  abs(back.timestamp.timeIntervalSince(action.timestamp)) < 1,
                  back.position == action.position.map({ $0.rounded(.towardZero) })
            else { fatalError("\(action) read back as \(back)") }
        }
    }
    return 0
}
