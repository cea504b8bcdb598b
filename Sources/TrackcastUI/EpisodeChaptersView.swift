import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// An episode's listed chapters on its page, each with its start and title;
/// the chapter under the play head is highlighted while the episode plays,
/// and clicking one plays from its start.
@MainActor
final class EpisodeChaptersView {
    struct ChapterItem: Equatable {
        let chapter: Chapter
        let number: Int
        var isCurrent = false
    }

    let root = ViewStack()
    private let chapters = ListStore<ChapterItem>()
    private var shown: [Chapter] = []
    private var currentIndex: Int?

    private var seek: @MainActor (TimeInterval) -> Void = { _ in }

    init(pictures: ChapterPictures) {
        let list = ListView(model: chapters, factory: ListItemFactory { EpisodeChapterRow(pictures: pictures) })
        list.setAccessibleLabel(tr("Chapters"))
        list.onActivate { [weak self] position in
            guard let self, let item = chapters.payload(at: position) else { return }
            Log.debug("episode page: chapter \(position) chosen")
            seek(item.chapter.start)
        }
        root.add(ScrolledWindow(child: list), name: "chapters")
        root.add(StatusPage(iconName: "view-list-ordered-symbolic", title: tr("No Chapters"),
                            description: tr("This episode is not divided into chapters")), name: "none")
        root.visibleChildName = "none"
        root.expandVertically()
    }

    /// Plays the episode from a chapter's start.
    func onSeek(_ handler: @escaping @MainActor (TimeInterval) -> Void) { seek = handler }

    /// Shows `list`'s listed chapters, `current` (an index into
    /// `list.chapters`, as `ChapterTracker` keeps it) highlighted.
    func update(_ list: ChapterList, current: Int?) {
        let listed = list.listed
        let currentListed = current.flatMap { index in listed.firstIndex(of: list.chapters[index]) }
        if listed != shown {
            shown = listed
            currentIndex = currentListed
            chapters.replaceAll(with: listed.enumerated().map {
                ChapterItem(chapter: $0.element, number: $0.offset + 1, isCurrent: $0.offset == currentListed)
            })
            root.visibleChildName = listed.isEmpty ? "none" : "chapters"
            let linked = listed.filter { EpisodeChapterRow.address(of: $0) != nil }.count
            let pictured = listed.filter { $0.image != nil }.count
            Log.debug("episode page: \(listed.count) chapters, \(linked) linked, \(pictured) with pictures")
        } else if currentListed != currentIndex {
            let previous = currentIndex
            currentIndex = currentListed
            for index in [previous, currentListed].compactMap({ $0 }) {
                guard var item = chapters.payload(at: index) else { continue }
                item.isCurrent = index == currentListed
                chapters.splice(at: index, removing: 1, inserting: [item])
            }
        } else {
            return
        }
        Log.debug("episode page: current chapter \(currentListed.map(String.init) ?? "none")")
    }
}

/// One chapter: its picture if it has one, its start, its title and, if it
/// has a web link, a button opening it.
@MainActor
final class EpisodeChapterRow: ListRowController {
    private let box = Box(.horizontal, spacing: 12)
    private let pictures: ChapterPictures
    private let picture = Image(iconName: "image-x-generic-symbolic", pixelSize: ChapterPictures.size)
    /// The picture asked for, so a late delivery for a chapter bound before is dropped.
    private var boundImage: ChapterImage?
    private let start = Label()
    private let title = Label()
    // Rows are reused, so one button is pointed at each chapter's link in turn.
    private let link = LinkButton(uri: "", label: "")

    var root: Widget { box }

    init(pictures: ChapterPictures) {
        self.pictures = pictures
        box.addCSSClass("episode-page-row")
        box.setMargins(top: 4, bottom: 4, start: 4, end: 4)
        start.useTabularNumbers()
        start.addCSSClass("dim-label")
        start.align(horizontal: .start, vertical: .start)
        title.alignStart()
        title.wrap()
        title.expandHorizontally()
        link.align(horizontal: .end, vertical: .start)
        link.isVisible = false
        picture.align(horizontal: .start, vertical: .start)
        picture.isVisible = false
        box.append(picture)
        box.append(start)
        box.append(title)
        box.append(link)
    }

    func bind(_ item: EpisodeChaptersView.ChapterItem) {
        showPicture(item.chapter.image)
        start.text = TimeText.clock(seconds: item.chapter.start)
        let name = item.chapter.title.flatMap { $0.isEmpty ? nil : $0 } ?? String(format: tr("Chapter %d"), item.number)
        title.text = name
        if let address = Self.address(of: item.chapter) {
            link.setURI(address)
            link.setLabel(item.chapter.url?.host ?? address)
            link.setTooltip(address)
            link.setAccessibleLabel(String(format: tr("Link for %@"), name))
            link.isVisible = true
        } else {
            link.isVisible = false
        }
        if item.isCurrent {
            box.addCSSClass("current-chapter")
            box.setAccessibleLabel(String(format: tr("%@, playing"), name))
        } else {
            box.removeCSSClass("current-chapter")
            box.setAccessibleLabel(name)
        }
    }

    private func showPicture(_ image: ChapterImage?) {
        guard image != boundImage else { return }
        boundImage = image
        picture.setIconName("image-x-generic-symbolic")
        picture.isVisible = image != nil
        guard let image else { return }
        pictures.texture(for: image) { [weak self] texture in
            guard let self, boundImage == image else { return }
            picture.setTexture(texture)
            Log.debug("episode page: chapter picture \(texture.width)×\(texture.height)")
        }
    }

    /// The chapter's link as the row opens it: web addresses only.
    static func address(of chapter: Chapter) -> String? {
        chapter.url.flatMap { SafeMarkup.allowedLink($0.absoluteString) }
    }
}
