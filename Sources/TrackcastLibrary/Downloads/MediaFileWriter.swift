import Foundation
import Synchronization

/// Writes a download's body into its partial file: appended after what an
/// earlier attempt left when the server honours the Range request (206),
/// from the start when it sends the whole file (200).
///
/// Plain POSIX calls on a descriptor, so that a full disk arrives as ENOSPC
/// and can be told apart from other failures.
final class MediaFileWriter: HTTPResponseReceiver {
    struct Result: Sendable {
        /// What the server says the whole file is, if it says.
        var total: Int64?
        /// Bytes in the file now.
        var size: Int64
        var contentType: String?
        /// The server answered the resume with 416 for exactly the bytes we have.
        var wasAlreadyComplete = false
    }

    private let descriptor: Int32
    private let resumeFrom: Int64
    private let validatorFile: URL
    private let onProgress: @Sendable (Int64, Int64?) -> Void
    private let state: Mutex<(result: Result, nextReport: Int64)>

    /// Opens (creating) `file`; `resumeFrom` is how many bytes of it to keep
    /// and asked the server to skip. A response that starts the file afresh
    /// leaves its validator in `validatorFile` for the next resume.
    init(file: URL, resumeFrom: Int64, validatorFile: URL,
         onProgress: @escaping @Sendable (Int64, Int64?) -> Void) throws(DownloadError) {
        // O_NOFOLLOW: a symbolic link planted where the partial file goes is
        // refused (ELOOP), never written through to wherever it points.
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (resumeFrom == 0 ? O_TRUNC : 0)
        descriptor = open(file.path, flags, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ELOOP: throw DownloadError.file("\(file.path) is a symbolic link; it is not followed.")
            case ENOSPC, EDQUOT: throw DownloadError.diskFull
            default:
                throw DownloadError.file("The downloads folder \(file.deletingLastPathComponent().path) cannot be written "
                                         + "(\(String(cString: strerror(code)))).")
            }
        }
        self.resumeFrom = resumeFrom
        self.validatorFile = validatorFile
        self.onProgress = onProgress
        state = Mutex((Result(size: resumeFrom), 0))
    }

    deinit {
        close(descriptor)
    }

    var result: Result { state.withLock { $0.result } }

    func begin(_ head: HTTPResponseHead) throws {
        var result = Result(size: resumeFrom, contentType: head[header: "content-type"])
        switch head.status {
        case 206:
            let range = head[header: "content-range"] ?? ""
            guard let (start, total) = Self.parseContentRange(range), start == resumeFrom else {
                throw DownloadError.unexpectedRange(range)
            }
            guard lseek(descriptor, off_t(start), SEEK_SET) >= 0 else { throw Self.error(errno) }
            result.total = total
        case 200..<300:
            // The server ignored the Range header: start over.
            if resumeFrom > 0 {
                guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) >= 0 else { throw Self.error(errno) }
            }
            result.size = 0
            result.total = head.contentLength
            try Self.validator(of: head).write(to: validatorFile, atomically: true, encoding: .utf8)
        case 416 where resumeFrom > 0:
            // "bytes */N": nothing past the end we asked from; complete if N is what we have.
            let range = head[header: "content-range"] ?? ""
            guard range.hasSuffix("/\(resumeFrom)") else { throw DownloadError.unexpectedRange(range) }
            result.total = resumeFrom
            result.wasAlreadyComplete = true
        default:
            throw DownloadError.httpStatus(head.status)
        }
        // A length the disk cannot hold fails now, not after filling the disk.
        if let total = result.total, total - result.size > 0 {
            var space = statvfs()
            if fstatvfs(descriptor, &space) == 0 {
                let available = Int64(space.f_bavail) * Int64(space.f_frsize)
                if total - result.size > available {
                    throw DownloadError.notEnoughSpace(needed: total - result.size, available: available)
                }
            }
        }
        let reported = result
        state.withLock { $0 = (reported, reported.size) }
        onProgress(reported.size, reported.total)
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        if var start = chunk.baseAddress {
            var remaining = chunk.count
            while remaining > 0 {
                let written = write(descriptor, start, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(errno)
                }
                start += written
                remaining -= written
            }
        }
        let report = state.withLock { state -> (Int64, Int64?)? in
            state.result.size += Int64(chunk.count)
            guard state.result.size >= state.nextReport || state.result.size == state.result.total else { return nil }
            // About a hundred reports over a known length, one per 256 KiB otherwise.
            state.nextReport = state.result.size + max(262_144, (state.result.total ?? 0) / 100)
            return (state.result.size, state.result.total)
        }
        if let report { onProgress(report.0, report.1) }
    }

    /// Flushes the file to disk, so that a rename after it never names a file
    /// whose data a power cut could still lose.
    func synchronise() throws(DownloadError) {
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw Self.error(errno) }
    }

    /// If-Range takes a strong ETag or a date; a weak ETag cannot promise the same bytes.
    static func validator(of head: HTTPResponseHead) -> String {
        if let etag = head[header: "etag"], !etag.hasPrefix("W/") { return etag }
        return head[header: "last-modified"] ?? ""
    }

    /// "bytes 100-199/1000" → (100, 1000); the total may be "*" (unknown).
    static func parseContentRange(_ header: String) -> (start: Int64, total: Int64?)? {
        ByteCountHeaders.contentRange(header).map { ($0.start, $0.total) }
    }

    static func error(_ code: Int32) -> DownloadError {
        code == ENOSPC || code == EDQUOT ? .diskFull : .file(String(cString: strerror(code)))
    }
}
