import Bindings
import Foundation
import TrackcastLibrary

/// Show artwork as textures, decoded off the main thread at the size shown.
/// Remote images are downloaded once into `<library>/artwork/` (`ArtworkFetcher`). Rows ask
/// for a texture when they are bound and may be rebound before it arrives,
/// so each delivery is the row's to check against what it shows now.
@MainActor
final class ArtworkCache {
    /// Enough for a few screens of tiles; artwork is small at these sizes.
    private static let capacity = 400

    private let library: LibraryModel
    private var textures: [String: Texture] = [:]
    private var waiting: [String: [@MainActor (Texture) -> Void]] = [:]

    init(library: LibraryModel) {
        self.library = library
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
        let fetcher = library.artworkFetcher()
        Task {
            let texture: Texture?
            do {
                let file = try await fetcher.file(for: url)
                texture = try await Task.detached(priority: .utility) { try Self.decode(file, fitting: size) }.value
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

    /// Decodes the artwork in `file` if it is PNG, JPEG or WebP by its own
    /// bytes and declares a sane size (`ArtworkImage`), with that format's
    /// loader alone. Blocking: off the main thread.
    private nonisolated static func decode(_ file: URL, fitting size: Int32) throws -> Texture {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        // A local file named by a feed can be of any size; a download is capped at this already.
        let bytes = try handle.read(upToCount: Int(ArtworkFetcher.maxBytes) + 1) ?? Data()
        guard bytes.count <= ArtworkFetcher.maxBytes else { throw HTTPError.tooLarge(limit: ArtworkFetcher.maxBytes) }
        let image = try ArtworkImage(inspecting: bytes)
        return try Texture.decode(bytes, loader: image.format.loaderName, fitting: size, maxPixels: ArtworkImage.maxPixels)
    }
}
