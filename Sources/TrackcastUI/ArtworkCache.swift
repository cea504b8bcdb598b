import Bindings
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Show artwork as textures, decoded off the main thread at the size shown.
/// Remote images are downloaded once into `<library>/artwork/`. Rows ask
/// for a texture when they are bound and may be rebound before it arrives,
/// so each delivery is the row's to check against what it shows now.
@MainActor
final class ArtworkCache {
    /// Enough for a few screens of tiles; artwork is small at these sizes.
    private static let capacity = 400

    private let directory: URL
    private var textures: [String: Texture] = [:]
    private var waiting: [String: [@MainActor (Texture) -> Void]] = [:]

    init(libraryDirectory: URL) {
        directory = libraryDirectory.appendingPathComponent("artwork", isDirectory: true)
    }

    /// Calls `deliver` with the image at `url` scaled to fit `size` pixels:
    /// at once if it is cached, later if it must be loaded, never if it cannot.
    func texture(for url: URL, size: Int32, _ deliver: @escaping @MainActor (Texture) -> Void) {
        let key = "\(size) \(url.absoluteString)"
        if let texture = textures[key] {
            deliver(texture)
            return
        }
        if waiting[key] != nil {
            waiting[key]!.append(deliver)
            return
        }
        waiting[key] = [deliver]
        let directory = directory
        Task {
            let texture: Texture?
            do {
                let file = try await Self.localFile(for: url, cacheDirectory: directory)
                texture = try await Texture.load(path: file.path, fitting: size)
                Log.debug("artwork \(texture?.width ?? 0)×\(texture?.height ?? 0) from \(url.absoluteString)")
            } catch {
                Log.debug("no artwork from \(url.absoluteString): \(error)")
                texture = nil
            }
            let deliveries = waiting.removeValue(forKey: key) ?? []
            guard let texture else { return }
            if textures.count >= Self.capacity { textures.removeAll() }
            textures[key] = texture
            for deliver in deliveries { deliver(texture) }
        }
    }

    private static func localFile(for url: URL, cacheDirectory: URL) async throws -> URL {
        if url.isFileURL { return url }
        let file = cacheDirectory.appendingPathComponent(String(stableHash(url.absoluteString), radix: 16))
        if FileManager.default.fileExists(atPath: file.path) { return file }
        let (downloaded, response) = try await URLSession.shared.download(from: url)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw URLError(.badServerResponse)
        }
        try await Task.detached {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            _ = try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: downloaded, to: file)
        }.value
        return file
    }

    /// FNV-1a: the same name for the same address in every run (Swift's
    /// `hashValue` is seeded per process).
    private static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
