import Foundation
import TrackcastCore
import TrackcastLibrary

/// How a command line names a show: its number (as `shows` lists it), its
/// feed URL, or the start of its title (any case) if only one show's title
/// starts that way. A title that matches in full wins over longer ones.
struct ShowReference: Sendable {
    let text: String

    func resolve(in store: LibraryStore) async throws -> Show {
        if let number = Int64(text) {
            guard let show = try await store.show(ShowID(rawValue: number)) else {
                throw CommandFailure(String(format: tr("there is no show %@ in the library"), text))
            }
            return show
        }
        let shows = try await store.shows()
        if text.contains("://") {
            let url = FeedAddress.url(from: text)
            guard let show = shows.first(where: { $0.feedURL == url || $0.feedURL.absoluteString == text }) else {
                throw CommandFailure(String(format: tr("no show in the library has the feed %@"), text))
            }
            return show
        }
        let wanted = text.lowercased()
        let matches = shows.filter { ($0.title ?? "").lowercased().hasPrefix(wanted) }
        if let exact = matches.first(where: { $0.title?.lowercased() == wanted }) { return exact }
        switch matches.count {
        case 1:
            return matches[0]
        case 0:
            throw CommandFailure(String(format: tr("no show's title starts with '%@'"), text))
        default:
            let names = matches.prefix(5).map { "\($0.id.rawValue) \($0.title ?? "")" }.joined(separator: ", ")
            throw CommandFailure(String(format: tr("'%@' matches %d shows (%@); name one by its number"),
                                        text, matches.count, names))
        }
    }
}
