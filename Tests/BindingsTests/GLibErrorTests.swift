import Bindings
import CGLib
import Foundation
import Testing

@Suite("GError as a Swift error")
struct GLibErrorTests {
    /// The file's bytes, as g_file_get_contents read them.
    private func readFile(_ path: String) throws -> [UInt8] {
        var length: gsize = 0
        var contents: UnsafeMutablePointer<gchar>?
        let succeeded = try GLibError.check { error in
            g_file_get_contents(path, &contents, &length, error)
        }
        defer { g_free(contents) }
        #expect(succeeded != 0)
        return contents.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
    }

    @Test("a failing call throws its domain, code and message")
    func failure() {
        do {
            _ = try readFile("/nonexistent/trackcast-test")
            Issue.record("reading a missing file should throw")
        } catch let error as GLibError {
            #expect(error.domain == "g-file-error-quark")
            #expect(error.code == Int32(G_FILE_ERROR_NOENT.rawValue))
            #expect(error.message.contains("/nonexistent/trackcast-test"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("a succeeding call returns its result, and its out-parameters hold what it read")
    func success() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-glib-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = Array("read through GLib\n".utf8)
        try Data(written).write(to: URL(fileURLWithPath: path))
        #expect(try readFile(path) == written)
    }
}
