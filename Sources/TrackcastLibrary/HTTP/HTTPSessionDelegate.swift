import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The one delegate of an `HTTPClient`'s session: hands each task's
/// callbacks (redirect, response head, body chunks, completion) to that
/// task's `HTTPTransfer`, found by task identifier.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Mutex<[Int: HTTPTransfer]>([:])

    func register(_ transfer: HTTPTransfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> HTTPTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let follow = transfer(for: task)?.shouldFollow(status: response.statusCode, from: response.url ?? task.currentRequest?.url,
                                                       to: request.url) ?? false
        completionHandler(follow ? request : nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        // The Linux URLSession ignores the disposition (it cannot pause
        // libcurl), so stopping means cancelling the task.
        completionHandler(.allow)
        guard let transfer = transfer(for: dataTask) else { return }
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let url = response.url ?? dataTask.currentRequest?.url ?? dataTask.originalRequest?.url
        guard let url, transfer.begin(status: http?.statusCode ?? 200, url: url, headers: headers) else {
            dataTask.cancel()
            return
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask) else { return }
        if !transfer.receive(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.complete(urlSessionError: error)
    }
}
