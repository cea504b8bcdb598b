import Foundation
import Synchronization

/// Collects a response's body (a feed, a chapters file, artwork) in memory,
/// up to a limit. The bodies of error responses and 304s are not kept:
/// nothing reads them.
final class ResponseBodyBuffer: HTTPResponseReceiver {
    private let limit: Int64
    private let state = Mutex<(keep: Bool, data: Data)>((false, Data()))

    init(limit: Int64) {
        self.limit = limit
    }

    var data: Data { state.withLock { $0.data } }

    func begin(_ head: HTTPResponseHead) throws {
        let keep = (200..<300).contains(head.status)
        if keep, let length = head.contentLength, length > limit { throw HTTPError.tooLarge(limit: limit) }
        state.withLock {
            $0.keep = keep
            $0.data = Data()
            if keep, let length = head.contentLength { $0.data.reserveCapacity(Int(length)) }
        }
    }

    func receive(_ chunk: Data) throws {
        try state.withLock { state in
            guard state.keep else { return }
            guard Int64(state.data.count + chunk.count) <= limit else { throw HTTPError.tooLarge(limit: limit) }
            state.data.append(chunk)
        }
    }
}
