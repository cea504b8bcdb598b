import Bindings
import TrackcastCore
import TrackcastLibrary

/// One episode in a show's list: title, date, length or time left; a
/// download (or delete-download) button; a check that shows whether it
/// was played and toggles it; and a menu to open its page or queue it. In
/// the queue itself, buttons to move it up or down and to take it out
/// instead, and the row can be dragged onto another to move it there.
@MainActor
final class EpisodeRow: ListRowController {
    private let box = Box(.horizontal, spacing: 12)
    private let title = Inscription()
    private let details = Label()
    // Each row makes only the buttons its list shows: a list keeps up to 200
    // rows alive, and each button is several kilobytes of widgets.
    private lazy var played = Button(iconName: "checkbox-symbolic", tooltip: tr("Mark as Played"))
    private lazy var download = Button(iconName: "folder-download-symbolic", tooltip: tr("Download"))
    /// Its menu is made when it opens, for the episode bound then.
    private lazy var episodeMenu = MenuButton(iconName: "view-more-symbolic", tooltip: tr("Episode Menu")) { [weak self] in
        Self.menu(for: self?.episodeID)
    }
    private lazy var moveUp = Button(iconName: "go-up-symbolic", tooltip: tr("Move Up"))
    private lazy var moveDown = Button(iconName: "go-down-symbolic", tooltip: tr("Move Down"))
    private lazy var dragSource = NumberDragSource()
    private var episodeID: EpisodeID?
    private lazy var remove = Button(iconName: "list-remove-symbolic", tooltip: tr("Remove from Queue"))
    private let inQueue: Bool

    var root: Widget { box }
    /// Lists across shows say which show each episode is from.
    private let namesShow: Bool

    /// What to do when a queued episode is dropped on this row: the dragged
    /// episode, this row's, and whether it was dropped on the lower half.
    typealias QueueDrop = @MainActor (_ dragged: EpisodeID, _ onto: EpisodeID, _ after: Bool) -> Void

    /// The queue's first and last episodes: its rows show Move Up or Move
    /// Down off there. Set before each reload; a row reads it when bound,
    /// and a changed order or length binds every row again (`update(to:)`).
    @MainActor
    final class QueueEnds {
        var first: EpisodeID?
        var last: EpisodeID?
    }

    private let queueEnds: QueueEnds?

    init(namesShow: Bool = false, queueEnds: QueueEnds? = nil, dropped: QueueDrop? = nil) {
        self.namesShow = namesShow
        self.inQueue = queueEnds != nil
        self.queueEnds = queueEnds
        box.setMargins(top: 10, bottom: 10, start: 12, end: 12)
        let text = Box(.vertical, spacing: 4)
        text.expandHorizontally()
        title.addCSSClass("heading")
        details.alignStart()
        details.ellipsize()
        details.addCSSClass("dim-label")
        details.addCSSClass("caption")
        details.useTabularNumbers()
        text.append(title)
        text.append(details)
        box.append(text)
        let buttons: [Widget] = inQueue ? [moveUp, moveDown, remove] : [download, played, episodeMenu]
        for button in buttons {
            button.addCSSClass("flat")
            button.addCSSClass("circular")
            button.align(horizontal: .end, vertical: .center)
            box.append(button)
        }
        if inQueue {
            // What GTK ends up showing: while a button is bound to an action, GTK sets its sensitivity too.
            for button in [moveUp, moveDown] {
                button.onSignal("notify::sensitive") { [weak self] (_: UnsafeMutableRawPointer?) in self?.reportQueueButtons() }
            }
        }
        if let dropped {
            box.addController(dragSource)
            box.addController(NumberDropTarget { [weak self] number, _, y in
                guard let self, let target = episodeID, number != target.rawValue else { return false }
                dropped(EpisodeID(rawValue: number), target, y > Double(box.height) / 2)
                return true
            })
        }
    }

    func bind(_ episode: EpisodeSummary) {
        let id = Variant(episode.id.rawValue)
        episodeID = episode.id
        if inQueue {
            dragSource.setContent(episode.id.rawValue)
            showQueueEnds(id)
            remove.setAction("app.queue-remove", target: id)
        } else {
            episodeMenu.forgetMenu()
        }
        title.text = episode.title ?? tr("Untitled episode")
        var parts: [String] = []
        if namesShow, let show = episode.showTitle { parts.append(show) }
        if let published = episode.published { parts.append(TimeText.date(published)) }
        if let position = episode.resumePosition, !episode.isPlayed,
           let total = position.duration ?? episode.duration, total > position.position {
            parts.append(TimeText.remaining(total - position.position))
        } else if let duration = episode.duration, duration > 0 {
            parts.append(TimeText.length(duration))
        }
        if episode.isNew { parts.append(tr("New")) }
        if !inQueue { showDownload(of: episode, in: &parts) }
        details.text = parts.joined(separator: " · ")
        box.setAccessibleLabel(episode.isPlayed ? String(format: tr("%@, played"), title.text) : title.text)
        guard !inQueue else { return }
        // The action's target names this row's episode; rows are recycled.
        played.setAction("app.set-played", target: Variant(tuple: [Variant(episode.id.rawValue), Variant(!episode.isPlayed)]))
        if episode.isPlayed {
            played.setIcon("checkbox-checked-symbolic", tooltip: tr("Mark as Unplayed"))
        } else {
            played.setIcon("checkbox-symbolic", tooltip: tr("Mark as Played"))
        }
    }

    /// Move Up and Move Down for the episode `id` names, each off at its end of the queue.
    private func showQueueEnds(_ id: Variant) {
        guard let queueEnds, let episodeID else { return }
        let ends = (up: episodeID != queueEnds.first, down: episodeID != queueEnds.last)
        for (button, action, isOn) in [(moveUp, "app.queue-move-up", ends.up), (moveDown, "app.queue-move-down", ends.down)] {
            if isOn {
                button.setAction(action, target: id)
                button.isSensitive = true
            } else {
                button.disableAction()
            }
        }
        reportQueueButtons()
    }

    private var reportedQueueButtons: String?

    /// Says in the debug log whether Move Up and Move Down can be pressed, when that changes.
    private func reportQueueButtons() {
        guard let episodeID else { return }
        let shown = "up next row \(episodeID.rawValue): move up \(moveUp.isSensitive ? "on" : "off"), "
            + "move down \(moveDown.isSensitive ? "on" : "off")"
        guard shown != reportedQueueButtons else { return }
        reportedQueueButtons = shown
        Log.debug(shown)
    }

    private static func menu(for episode: EpisodeID?) -> Menu {
        let menu = Menu()
        guard let id = episode?.rawValue else { return menu }
        menu.append(tr("Episode _Details"), action: "app.open-episode(int64 \(id))")
        menu.append(tr("Play Next"), action: "app.queue-next(int64 \(id))")
        menu.append(tr("Play Last"), action: "app.queue-last(int64 \(id))")
        return menu
    }

    private func showDownload(of episode: EpisodeSummary, in parts: inout [String]) {
        // Media on this computer already (the sample show, a local feed) has nothing to download.
        download.isVisible = episode.mediaURL.map { !$0.isFileURL } ?? false
        let id = Variant(episode.id.rawValue)
        switch episode.downloadState {
        case .complete:
            parts.append(tr("Downloaded"))
            download.isSensitive = true
            download.setAction("app.delete-download", target: id)
            download.setIcon("user-trash-symbolic", tooltip: tr("Delete Download"))
        case .queued, .downloading:
            parts.append(tr("Downloading…"))
            // Asking again joins the running download.
            download.setAction("app.download-episode", target: id)
            download.isSensitive = false
            download.setIcon("folder-download-symbolic", tooltip: tr("Downloading…"))
        case .failed, nil:
            download.isSensitive = true
            download.setAction("app.download-episode", target: id)
            download.setIcon("folder-download-symbolic", tooltip: tr("Download"))
        }
    }
}
