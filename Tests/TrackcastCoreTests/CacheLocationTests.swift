import Foundation
import Testing
import TrackcastCore

@Suite("Where the caches live")
struct CacheLocationTests {
    @Test("the default library's caches go to XDG_CACHE_HOME, then ~/.cache")
    func defaultLibrary() {
        let library = URL(fileURLWithPath: "/xdg/trackcast")
        #expect(CacheLocation.resolve(option: nil, environment: ["XDG_CACHE_HOME": "/cache", "HOME": "/home/u"],
                                      library: library).path == "/cache/trackcast")
        #expect(CacheLocation.resolve(option: nil, environment: ["HOME": "/home/u"], library: library).path
                == "/home/u/.cache/trackcast")
        #expect(CacheLocation.resolve(option: nil, environment: ["XDG_CACHE_HOME": "cache", "HOME": "/home/u"],
                                      library: library).path == "/home/u/.cache/trackcast")
    }

    @Test("a library chosen by hand keeps its caches in its own cache folder")
    func chosenLibrary() {
        let library = URL(fileURLWithPath: "/srv/lib")
        #expect(CacheLocation.resolve(option: "/srv/lib", environment: ["XDG_CACHE_HOME": "/cache"], library: library).path
                == "/srv/lib/cache")
        #expect(CacheLocation.resolve(option: nil, environment: ["TRACKCAST_LIBRARY_DIR": "/srv/lib", "XDG_CACHE_HOME": "/cache"],
                                      library: library).path == "/srv/lib/cache")
    }

    /// A library folder as an earlier version left it, in a temporary
    /// XDG_DATA_HOME, with its caches, database and downloads.
    private func earlierLibrary(in home: URL) throws -> URL {
        let library = home.appendingPathComponent("data/trackcast")
        let files = [
            "library.sqlite3": "the library", "downloads/1.mp3": "an episode",
            "artwork/ab12.png": "a picture", "cache/chapters/7.json": "chapters",
            "cache/transcripts/7.vtt": "a transcript",
        ]
        for (path, text) in files {
            let file = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return library
    }

    private func text(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

    @Test("the caches move once into the cache folder; the library and its downloads stay")
    func movesOnce() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-caches-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let library = try earlierLibrary(in: home)
        let cache = CacheLocation.resolve(option: nil, environment: ["XDG_CACHE_HOME": home.appendingPathComponent("cache").path],
                                          library: library)

        let moves = CacheLocation.moveEarlierCaches(library: library, cache: cache)
        #expect(moves.count == 3 && moves.allSatisfy { if case .moved = $0 { true } else { false } }, "\(moves)")
        #expect(text(cache.appendingPathComponent("artwork/ab12.png")) == "a picture")
        #expect(text(cache.appendingPathComponent("chapters/7.json")) == "chapters")
        #expect(text(cache.appendingPathComponent("transcripts/7.vtt")) == "a transcript")
        #expect(text(library.appendingPathComponent("library.sqlite3")) == "the library")
        #expect(text(library.appendingPathComponent("downloads/1.mp3")) == "an episode")
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.path).sorted() == ["downloads", "library.sqlite3"])

        #expect(CacheLocation.moveEarlierCaches(library: library, cache: cache).isEmpty, "a second start has nothing to move")
        #expect(text(cache.appendingPathComponent("chapters/7.json")) == "chapters")
    }

    @Test("a cache that cannot move stays where it was, and the library is untouched")
    func failedMoveKeepsOld() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-caches-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let library = try earlierLibrary(in: home)
        // Files where the moved folders would go: each move itself fails.
        let cache = home.appendingPathComponent("cache/trackcast")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        for name in ["artwork", "chapters", "transcripts"] {
            try Data("in the way".utf8).write(to: cache.appendingPathComponent(name))
        }

        let moves = CacheLocation.moveEarlierCaches(library: library, cache: cache)
        #expect(moves.count == 3 && moves.allSatisfy { if case .kept = $0 { true } else { false } }, "\(moves)")
        #expect(text(library.appendingPathComponent("artwork/ab12.png")) == "a picture")
        #expect(text(library.appendingPathComponent("cache/chapters/7.json")) == "chapters")
        #expect(text(library.appendingPathComponent("library.sqlite3")) == "the library")
        #expect(text(library.appendingPathComponent("downloads/1.mp3")) == "an episode")
    }

    @Test("a library with its own cache folder moves only its artwork into it")
    func ownCacheFolder() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-caches-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let library = try earlierLibrary(in: home)
        let cache = CacheLocation.resolve(option: library.path, environment: [:], library: library)

        let moves = CacheLocation.moveEarlierCaches(library: library, cache: cache)
        #expect(moves == [.moved(from: library.appendingPathComponent("artwork").path, to: cache.appendingPathComponent("artwork").path)])
        #expect(text(cache.appendingPathComponent("artwork/ab12.png")) == "a picture")
        #expect(text(cache.appendingPathComponent("chapters/7.json")) == "chapters")
        #expect(text(library.appendingPathComponent("downloads/1.mp3")) == "an episode")
    }
}
