import Bindings
import TrackcastCore
import TrackcastLibrary

/// The player bar's chapter button: a menu of the listed chapters, the
/// current one marked, each jumping to its start, and the current one's web
/// link if it has one. Hidden without chapters.
@MainActor
final class ChapterMenu {
    let root = MenuButton(iconName: "view-list-ordered-symbolic", tooltip: tr("Chapters"), menu: Menu())
    private var shown: (ChapterList, Int?)?

    init(chapters: ChapterTracker) {
        root.addCSSClass("flat")
        root.align(horizontal: .center, vertical: .center)
        root.isVisible = false
        chapters.observe { [weak self, unowned chapters] in self?.render(chapters) }
    }

    private func render(_ chapters: ChapterTracker) {
        let listed = chapters.list.listed
        let current = chapters.current.flatMap { chapter in listed.firstIndex(of: chapter) }
        if let shown, shown.0 == chapters.list, shown.1 == current { return }
        shown = (chapters.list, current)
        root.isVisible = !listed.isEmpty
        let menu = Menu()
        for (index, chapter) in listed.enumerated() {
            let title = chapter.title ?? String(format: tr("Chapter %d"), index + 1)
            let label = "\(TimeText.clock(seconds: chapter.start))  \(title)"
            // The current chapter is marked the way a radio item would be.
            menu.append(index == current ? "▶ " + label : label, action: "app.seek-chapter(\(index))")
        }
        if let chapter = chapters.current, EpisodeChapterRow.address(of: chapter) != nil {
            let link = Menu()
            link.append(tr("Open Chapter Link"), action: "app.open-chapter-link")
            menu.appendSection(link)
        }
        root.setMenu(menu)
    }
}
