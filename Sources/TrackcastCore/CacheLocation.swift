import Foundation

/// Where what can be fetched again is kept: show artwork, chapters files and
/// transcripts. They belong in the cache folder, which the user (or a tool
/// that frees space) may empty; the library database and the downloads stay
/// in the library folder (`LibraryLocation`).
public enum CacheLocation {
    /// `$XDG_CACHE_HOME/trackcast`, `~/.cache/trackcast` for the default
    /// library. A library chosen with `--library` or `TRACKCAST_LIBRARY_DIR`
    /// keeps its caches in its own `cache` folder: two libraries number their
    /// episodes alike, and must not read each other's cached chapters.
    public static func resolve(option: String?, environment: [String: String], library: URL) -> URL {
        if option?.isEmpty == false || environment[LibraryLocation.environmentVariable]?.isEmpty == false {
            return library.appendingPathComponent("cache", isDirectory: true)
        }
        // As for XDG_DATA_HOME, a relative XDG_CACHE_HOME is invalid and ignored.
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return URL(fileURLWithPath: cacheHome, isDirectory: true).appendingPathComponent("trackcast", isDirectory: true)
    }

    /// What `moveEarlierCaches` did with one folder an earlier version kept.
    public enum Move: Equatable, Sendable {
        case moved(from: String, to: String)
        /// Left where it was: a cache can be fetched again, so a failed move
        /// costs nothing but the space, and the next start tries again.
        case kept(String, reason: String)
    }

    /// Moves the caches earlier versions kept in the library folder
    /// (`artwork/`, `cache/chapters/`, `cache/transcripts/`) into `cache`,
    /// once: a folder moved is gone from the library, so a second call finds
    /// nothing to do. Nothing else in the library is touched. Blocking file
    /// work: call it off the main thread.
    public static func moveEarlierCaches(library: URL, cache: URL) -> [Move] {
        let files = FileManager.default
        let earlier = [("artwork", "artwork"), ("cache/chapters", "chapters"), ("cache/transcripts", "transcripts")]
        var moves: [Move] = []
        for (old, new) in earlier {
            let source = library.appendingPathComponent(old, isDirectory: true).standardizedFileURL
            let target = cache.appendingPathComponent(new, isDirectory: true).standardizedFileURL
            guard source.path != target.path, files.fileExists(atPath: source.path) else { continue }
            do {
                try files.createDirectory(at: cache, withIntermediateDirectories: true)
                try files.moveItem(at: source, to: target)
                moves.append(.moved(from: source.path, to: target.path))
            } catch {
                moves.append(.kept(source.path, reason: "\(error)"))
            }
        }
        // The earlier `cache/` folder goes once empty; when it is the cache
        // folder itself (a library of its own), it stays.
        let earlierCache = library.appendingPathComponent("cache", isDirectory: true).standardizedFileURL
        if earlierCache.path != cache.standardizedFileURL.path,
           (try? files.contentsOfDirectory(atPath: earlierCache.path))?.isEmpty == true {
            try? files.removeItem(at: earlierCache)
        }
        return moves
    }
}
