import Foundation
import TestSupport
import Testing

/// Whether the app loads GL at all: with no GPU device it would only be
/// software GL (Mesa's llvmpipe), where the app draws with cairo anyway, so
/// GDK is told not to load it. Read from the running process's mappings.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("with no GPU device GL is never loaded (no libEGL in the process, cairo chosen, a lighter process); a GSK_RENDERER of the user's own keeps it")
    func noGLWithoutGPU() async throws {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        let hasGPUDevice = nodes.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") }
            || FileManager.default.fileExists(atPath: "/dev/nvidia0")
        var resident: [Bool: Int] = [:]
        for (environment, loadsGL) in [([:], hasGPUDevice), (["GSK_RENDERER": "cairo"], true)] as [([String: String?], Bool)] {
            let library = RunningApp.temporaryLibrary()
            defer { try? FileManager.default.removeItem(at: library) }
            let app = try await RunningApp.launch(library: library, environment: environment)
            // procfs files have no size: read to the end, not by the size stat gives.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(app.pid)/maps"))
            let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            try handle.close()
            try #require(maps.contains("libglib-2.0"), "the mappings were not read: \(maps.count) characters")
            let statm = try String(contentsOfFile: "/proc/\(app.pid)/statm", encoding: .utf8).split(separator: " ")
            resident[loadsGL] = try #require(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE)))
            #expect(maps.contains("libEGL") == loadsGL, "\(environment): libEGL mapped: \(maps.contains("libEGL"))")
            #expect(app.standardOutput.contains("GL: not loaded: no GPU device") == !loadsGL, "\(app.standardOutput)")
            #expect(app.standardOutput.contains("renderer: cairo, "), "\(app.standardOutput)")
            let result = try await app.quit()
            #expect(result.status == 0 && !result.timedOut)
        }
        if let without = resident[false], let with = resident[true] {
            #expect(without + (32 << 20) < with, "without GL \(without >> 20) MB, with \(with >> 20) MB")
        }
    }
}
