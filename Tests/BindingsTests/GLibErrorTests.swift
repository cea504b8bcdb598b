import Bindings
import CGLib
import Testing

@Suite("GError as a Swift error")
struct GLibErrorTests {
    private func readFile(_ path: String) throws -> Int {
        var length: gsize = 0
        var contents: UnsafeMutablePointer<gchar>?
        let succeeded = try GLibError.check { error in
            g_file_get_contents(path, &contents, &length, error)
        }
        defer { g_free(contents) }
        #expect(succeeded != 0)
        return Int(length)
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

    @Test("a succeeding call returns its result")
    func success() throws {
        #expect(try readFile("/proc/self/cmdline") >= 0)
    }
}
