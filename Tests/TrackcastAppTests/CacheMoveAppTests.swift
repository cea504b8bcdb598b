import Foundation
import TestSupport
import Testing

/// The app moves the caches an earlier version kept in the library folder
/// at start, before anything reads them, and leaves the library's own
/// files where they are.
extension RunningAppTests {
    @Test("at start the app moves the earlier artwork cache into the cache folder, and the library stays")
    func cachesMovedAtStart() async throws {
        let library = RunningApp.temporaryLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        let artwork = library.appendingPathComponent("artwork/ab12.png")
        let download = library.appendingPathComponent("downloads/1.mp3")
        for file in [artwork, download] {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("kept".utf8).write(to: file)
        }
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            #expect(app.standardOutput.contains("cache moved from \(library.appendingPathComponent("artwork").path)"),
                    "\(app.standardOutput)")
        }
        #expect(result.status == 0 && !result.timedOut)
        #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent("cache/artwork/ab12.png").path))
        #expect(!FileManager.default.fileExists(atPath: artwork.path))
        #expect(FileManager.default.fileExists(atPath: download.path))
        #expect(FileManager.default.fileExists(atPath: library.appendingPathComponent("library.sqlite3").path))
    }
}
