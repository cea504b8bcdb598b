import Bindings
import TrackcastCore
import TrackcastLibrary

/// An episode found: its title, and a line per place its words are in.
/// Activating it opens the episode there (`app.open-search-result`).
@MainActor
struct LibrarySearchResultRow {
    let button: Button
    private let title: Label
    private let places: [Label]

    init(_ episode: SearchResults.Episode) {
        let box = Box(.vertical, spacing: 2)
        title = Label(episode.title ?? tr("Untitled episode"))
        title.alignStart()
        title.ellipsize()
        box.append(title)
        places = episode.matches.prefix(LibrarySearchView.placesPerEpisode).map { match in
            let label = Label()
            label.setMarkup(LibrarySearchResultRow.placeMarkup(match))
            label.alignStart()
            label.wrap(lines: 2)
            label.addCSSClass("dim-label")
            label.addCSSClass("caption")
            label.useTabularNumbers()
            box.append(label)
            return label
        }
        box.setMargins(top: 4, bottom: 4, start: 2, end: 2)
        button = Button(child: box)
        button.addCSSClass("flat")
        let best = episode.best
        button.setAction("app.open-search-result", target: Variant(tuple: [
            Variant(episode.id.rawValue), Variant(best.place.name), Variant(best.place.time ?? -1),
        ]))
        button.setAccessibleLabel(title.text)
    }

    /// What the widgets say, for the log the tests read.
    var text: String { ([title.text] + places.map(\.text)).joined(separator: " | ") }

    /// "Title: …", "Notes: …", "Chapter 12:03 …", "Transcript 41:10 … the words …"; feed text escaped.
    static func placeMarkup(_ match: SearchMatch) -> String {
        let snippet = match.snippet.markup
        switch match.place {
        case .title: return String(format: tr("Title: %@"), snippet)
        case .notes: return String(format: tr("Notes: %@"), snippet)
        case .chapter(let start):
            return String(format: tr("Chapter %@ %@"), TimeText.clock(seconds: start), snippet)
        case .transcript(let start):
            guard let start else { return String(format: tr("Transcript: %@"), snippet) }
            return String(format: tr("Transcript %@ %@"), TimeText.clock(seconds: start), snippet)
        }
    }
}
