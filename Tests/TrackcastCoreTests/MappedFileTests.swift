import Foundation
import Testing
import TrackcastCore

/// `MappedFile` reads a feed file mapped; a file cut short meanwhile must
/// read as zeros and say so, not stop the process with SIGBUS.
/// Serialized: the process has sixteen guarded mappings, and `manyAtOnce` takes them all.
@Suite("Mapped file", .serialized)
struct MappedFileTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-mapped-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func file(_ name: String, holding bytes: [UInt8]) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Bytes that differ from page to page, none of them zero.
    private static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(1 + ($0 / 7 + $0) % 251) }
    }

    @Test("a file reads as its bytes, and was not cut short")
    func wholeFile() throws {
        let bytes = Self.pattern(count: 3 * 4096 + 123)
        let mapped = try MappedFile(contentsOf: try file("whole.xml", holding: bytes))
        #expect(Array(mapped.bytes) == bytes)
        #expect(!mapped.wasCutShort)
    }

    @Test("a file cut short after it was mapped reads as zeros past the cut, and says so")
    func cutShort() throws {
        let bytes = Self.pattern(count: 64 * 4096)
        let url = try file("cut.xml", holding: bytes)
        let mapped = try MappedFile(contentsOf: url)
        #expect(truncate(url.path, 4096) == 0)

        // Without the guard, this read past the file's new end ends the test run with SIGBUS.
        let read = Array(mapped.bytes)
        #expect(read.count == bytes.count)
        #expect(Array(read[..<4096]) == Array(bytes[..<4096]))
        #expect(read[4096...].allSatisfy { $0 == 0 })
        #expect(mapped.wasCutShort)

        let other = try MappedFile(contentsOf: try file("other.xml", holding: bytes))
        #expect(Array(other.bytes) == bytes)
        #expect(!other.wasCutShort, "the flag belongs to the mapping that was cut")
    }

    @Test("an empty file and a missing one are read as Data(contentsOf:) reads them")
    func notMapped() throws {
        #expect(try MappedFile(contentsOf: try file("empty.xml", holding: [])).bytes.isEmpty)

        let missing = folder.appendingPathComponent("missing.xml")
        let expected = #expect(throws: CocoaError.self) { try Data(contentsOf: missing) }
        let thrown = #expect(throws: CocoaError.self) { try MappedFile(contentsOf: missing) }
        #expect(thrown?.code == expected?.code)
    }

    @Test("more files open at once than there are guarded mappings are read instead")
    func manyAtOnce() throws {
        let files = try (0..<24).map { index in
            (try file("many-\(index).xml", holding: Self.pattern(count: 5000 + index)), 5000 + index)
        }
        let mapped = try files.map { try MappedFile(contentsOf: $0.0) }
        for (file, count) in zip(mapped, files.map(\.1)) {
            #expect(Array(file.bytes) == Self.pattern(count: count))
        }
    }
}
