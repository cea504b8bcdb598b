import Foundation

/// Chapter pictures as files, for the player bar and for MPRIS, whose
/// `mpris:artUrl` the desktop opens itself: a linked picture fetched once
/// into the artwork cache (`ArtworkFetcher`), one carried in the media's
/// tag written once into a cache folder of its own, named by its bytes.
/// Either is handed out only if it is PNG, JPEG or WebP by its own bytes and
/// of a sane size (`ArtworkImage`), as show artwork is before it is decoded.
public struct ChapterArtwork: Sendable {
    private let fetcher: ArtworkFetcher
    private let directory: URL

    public init(fetcher: ArtworkFetcher, directory: URL) {
        self.fetcher = fetcher
        self.directory = directory
    }

    /// The picture's file. Off the caller's actor: it reads, hashes and writes.
    @concurrent public func file(for image: ChapterImage) async throws -> URL {
        switch image {
        case .remote(let url):
            let file = try await fetcher.file(for: url)
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            _ = try ArtworkImage(inspecting: try handle.read(upToCount: Int(ArtworkFetcher.maxBytes)) ?? Data())
            return file
        case .embedded(let bytes, _):
            let image = try ArtworkImage(inspecting: bytes)
            var hash = FNV1a()
            hash.add(bytes)
            let file = directory.appendingPathComponent("\(String(hash.value, radix: 16)).\(image.format.rawValue)")
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try bytes.write(to: file, options: .atomic)
            }
            return file
        }
    }
}
