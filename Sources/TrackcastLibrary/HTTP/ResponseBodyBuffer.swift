import Foundation
import Synchronization

/// Collects a response's body (a feed, a chapters file, artwork) in memory,
/// up to a limit. The bodies of error responses and 304s are not kept:
/// nothing reads them.
final class ResponseBodyBuffer: HTTPResponseReceiver {
    /// A body compressed although `Accept-Encoding: identity` asked for it plain.
    struct UnrequestedEncoding: Error, Equatable {
        let encoding: String
    }

    private let limit: Int64
    private let plainOnly: Bool
    private let state = Mutex<(keep: Bool, data: Data)>((false, Data()))

    /// `plainOnly`: the request asked for `identity`, and a body with any
    /// other `Content-Encoding` is refused at its head. libcurl inflates
    /// whatever comes and hands over only the result, so for a compressed
    /// body `limit` counts inflated bytes and nothing counts the bytes that
    /// arrive: a stream that inflates to nothing would run until the
    /// total timeout.
    init(limit: Int64, plainOnly: Bool = false) {
        self.limit = limit
        self.plainOnly = plainOnly
    }

    var data: Data { state.withLock { $0.data } }

    func begin(_ head: HTTPResponseHead) throws {
        let keep = (200..<300).contains(head.status)
        if keep, plainOnly, let encoding = head[header: "content-encoding"]?.trimmingCharacters(in: .whitespaces),
           !encoding.isEmpty, encoding.lowercased() != "identity" {
            // The server's words go into a message: a token of plain letters, short.
            let token = encoding.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || "0123456789-_.,".unicodeScalars.contains($0)) }
            throw UnrequestedEncoding(encoding: String(String.UnicodeScalarView(token.prefix(32))))
        }
        if keep, let length = head.contentLength, length > limit { throw HTTPError.tooLarge(limit: limit) }
        state.withLock {
            $0.keep = keep
            $0.data = Data()
            if keep, let length = head.contentLength { $0.data.reserveCapacity(Int(length)) }
        }
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            guard state.keep else { return }
            guard Int64(state.data.count + chunk.count) <= limit else { throw HTTPError.tooLarge(limit: limit) }
            state.data.append(contentsOf: chunk)
        }
    }
}
