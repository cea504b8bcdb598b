import Bindings
import Foundation
import TrackcastLibrary

/// Chapter pictures at the chapter list's size: each made a file that may
/// be shown (`ChapterArtwork`: fetched, or written out of the tag, and
/// checked), then decoded off the main thread (`ArtworkCache`).
@MainActor
final class ChapterPictures {
    static let size: Int32 = 32

    private let library: LibraryModel
    private let artworkCache: ArtworkCache

    init(library: LibraryModel, artworkCache: ArtworkCache) {
        self.library = library
        self.artworkCache = artworkCache
    }

    /// Calls `deliver` with the picture, later; never if it cannot be shown.
    func texture(for image: ChapterImage, _ deliver: @escaping @MainActor (Texture) -> Void) {
        let artworks = library.chapterArtwork()
        Task { [artworkCache] in
            guard let file = try? await artworks.file(for: image) else { return }
            artworkCache.texture(for: file, size: Self.size, deliver)
        }
    }
}
