import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// A show in the library grid: artwork, title and how many episodes are new.
@MainActor
final class ShowTile: ListRowController {
    static let artworkSize: Int32 = 160

    private let box = Box(.vertical, spacing: 6)
    private let artwork = Image(iconName: "application-rss+xml-symbolic", pixelSize: ShowTile.artworkSize)
    private let title = Label()
    private let counts = Label()
    private let artworkCache: ArtworkCache
    /// What the tile shows now: artwork that arrives for an earlier binding is dropped.
    private var boundArtwork: URL?

    var root: Widget { box }

    init(artworkCache: ArtworkCache) {
        self.artworkCache = artworkCache
        box.setMargins(6)
        artwork.addCSSClass("card")
        title.wrap(lines: 2)
        title.addCSSClass("heading")
        counts.addCSSClass("caption")
        counts.wrap(lines: 2)
        box.append(artwork)
        box.append(title)
        box.append(counts)
    }

    func bind(_ show: Show) {
        let name = show.title ?? show.feedURL.absoluteString
        title.text = name
        // A feed that failed its last refresh says so, with the reason,
        // until a refresh succeeds: its episodes may be out of date.
        let failed = show.refresh.lastFailure.map(FailureText.refresh)
        counts.removeCSSClass(failed == nil ? "warning" : "dim-label")
        counts.addCSSClass(failed == nil ? "dim-label" : "warning")
        if let failed {
            counts.text = failed
            Log.debug("show tile \(show.id): \(failed)")
        } else if show.newCount > 0 {
            counts.text = String(format: trn("%d new episode", "%d new episodes", show.newCount), show.newCount)
        } else if show.unplayedCount > 0 {
            counts.text = String(format: trn("%d unplayed", "%d unplayed", show.unplayedCount), show.unplayedCount)
        } else {
            counts.text = tr("All played")
        }
        box.setAccessibleLabel("\(name), \(counts.text)")
        artwork.setIconName("application-rss+xml-symbolic")
        boundArtwork = show.imageURL
        guard let url = show.imageURL else { return }
        artworkCache.texture(for: url, size: Self.artworkSize) { [weak self] texture in
            guard let self, self.boundArtwork == url else { return }
            self.artwork.setTexture(texture)
        }
    }

    func unbind() { boundArtwork = nil }
}
