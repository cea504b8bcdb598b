import CCurl
import Foundation
import Synchronization

/// An `HTTPClient`'s network thread: one libcurl multi handle drives all of
/// the client's transfers, reading each connection as data arrives and
/// calling the transfers' receivers there.
///
/// Other threads talk to it only by posting commands (start, cancel, stop)
/// and waking it with `curl_multi_wakeup`; the handles themselves are
/// touched on the thread alone.
final class CurlMultiLoop: Sendable {
    private let mailbox: CurlMailbox

    init() {
        _ = CurlLibrary.initialised
        guard let multi = curl_multi_init() else {
            // libcurl fails here only without memory for a few hundred bytes.
            fatalError("libcurl could not make a multi handle")
        }
        let mailbox = CurlMailbox(CurlMultiHandle(multi))
        self.mailbox = mailbox
        let thread = Thread { Self.run(mailbox) }
        thread.name = "Trackcast HTTP"
        thread.start()
    }

    deinit {
        mailbox.post(.stop)
    }

    func start(_ request: HTTPRequest, for transfer: HTTPTransfer) {
        mailbox.post(.start(request, transfer))
    }

    /// Stops `transfer` if it is still running; it completes with the
    /// failure already recorded in it.
    func cancel(_ transfer: HTTPTransfer) {
        mailbox.post(.cancel(transfer))
    }

    private static func run(_ mailbox: CurlMailbox) {
        let multi = mailbox.multi.pointer
        var running: [UnsafeMutableRawPointer: CurlEasyTransfer] = [:]

        func add(_ request: HTTPRequest, for transfer: HTTPTransfer) {
            guard !transfer.hasFailed else { return transfer.complete(curlCode: CURLE_ABORTED_BY_CALLBACK) }
            guard let easy = CurlEasyTransfer(request, for: transfer),
                  curl_multi_add_handle(multi, easy.handle) == CURLM_OK else {
                return transfer.complete(curlCode: CURLE_OUT_OF_MEMORY)
            }
            running[easy.handle] = easy
        }

        func remove(_ easy: CurlEasyTransfer) {
            curl_multi_remove_handle(multi, easy.handle)
            running[easy.handle] = nil
        }

        while true {
            for command in mailbox.take() {
                switch command {
                case .start(let request, let transfer):
                    add(request, for: transfer)
                case .cancel(let transfer):
                    guard let easy = running.values.first(where: { $0.transfer === transfer }) else { continue }
                    remove(easy)
                    transfer.complete(curlCode: CURLE_ABORTED_BY_CALLBACK)
                case .stop:
                    for easy in running.values {
                        remove(easy)
                        easy.transfer.fail(HTTPError.cancelled)
                        easy.transfer.complete(curlCode: CURLE_ABORTED_BY_CALLBACK)
                    }
                    curl_multi_cleanup(multi)
                    return
                }
            }

            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                      let easy = running[handle] else { continue }
                let code = message.pointee.data.result
                remove(easy)
                if code == CURLE_OK, let next = easy.nextHop {
                    add(next, for: easy.transfer)
                } else {
                    easy.transfer.complete(curlCode: code)
                }
            }
            // Sleeps until a socket is ready, one of libcurl's timers is due
            // (it shortens the wait itself) or a command is posted: an idle
            // client's thread does not wake the process (the idle-wakeups
            // test counts every thread's).
            curl_multi_poll(multi, nil, 0, 3_600_000, nil)
        }
    }
}

/// The commands waiting for the network thread, and the wake-up that tells it.
private final class CurlMailbox: Sendable {
    enum Command: Sendable {
        case start(HTTPRequest, HTTPTransfer)
        case cancel(HTTPTransfer)
        case stop
    }

    let multi: CurlMultiHandle
    private let commands = Mutex<[Command]>([])

    init(_ multi: CurlMultiHandle) {
        self.multi = multi
    }

    func post(_ command: Command) {
        // Woken inside the lock: once the thread has taken `.stop` it frees
        // the handle, and a wake-up after that would touch freed memory.
        commands.withLock { commands in
            commands.append(command)
            curl_multi_wakeup(multi.pointer)
        }
    }

    func take() -> [Command] {
        commands.withLock { commands in
            defer { commands.removeAll(keepingCapacity: true) }
            return commands
        }
    }
}

/// A `CURLM *` that crosses threads.
///
/// @unchecked Sendable: the network thread is the only one that calls
/// libcurl with it, except for `curl_multi_wakeup`, which libcurl documents
/// as safe to call from any thread; and the thread cleans it up only after
/// the `.stop` command, the last one posted (from `CurlMultiLoop.deinit`).
private struct CurlMultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init(_ pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }
}

/// libcurl's process-wide set-up, done once before the first handle.
enum CurlLibrary {
    static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}
