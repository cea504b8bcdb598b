import CPlatform
import Foundation

/// A file's bytes for reading once, whole (`feed parse` of a file): a
/// regular file mapped rather than read, so that its megabytes are neither
/// copied nor given fresh memory, which a new process pays for page by page.
/// A file another program cuts short meanwhile does not stop the process
/// (SIGBUS): what was cut off reads as zeros, and `wasCutShort` says so.
/// Anything else (a pipe, a device, an empty file) is read as usual.
public struct MappedFile: Sendable {
    /// The file's bytes; the mapping lasts as long as this `Data` or a copy of it.
    public let bytes: Data
    /// Where the mapping starts, if the file was mapped.
    private let mappedAt: UInt?

    /// Throws what `Data(contentsOf:)` throws for a file it cannot read.
    public init(contentsOf file: URL) throws {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              status.st_size > 0, status.st_size <= Int.max,
              let start = tc_guarded_mapping_map(descriptor, Int(status.st_size)) else {
            bytes = try Data(contentsOf: file)
            mappedAt = nil
            return
        }
        let length = Int(status.st_size)
        bytes = Data(bytesNoCopy: start, count: length, deallocator: .custom { start, length in
            tc_guarded_mapping_unmap(start, length)
        })
        mappedAt = UInt(bitPattern: start)
    }

    /// Whether a read of `bytes` went past the file's end: another program
    /// cut the file short while it was read, and `bytes` is not what it held.
    public var wasCutShort: Bool {
        guard let mappedAt else { return false }
        return withExtendedLifetime(bytes) {
            tc_guarded_mapping_was_cut_short(UnsafeRawPointer(bitPattern: mappedAt))
        }
    }
}
