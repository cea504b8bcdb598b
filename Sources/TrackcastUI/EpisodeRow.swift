import Bindings
import TrackcastCore
import TrackcastLibrary

/// One episode in a show's list: title, date, length or time left, and
/// whether it was played.
@MainActor
final class EpisodeRow: ListRowController {
    private let box = Box(.horizontal, spacing: 12)
    private let title = Label()
    private let details = Label()
    private let playedIcon = Image(iconName: "object-select-symbolic", pixelSize: 16)

    var root: Widget { box }

    init() {
        box.setMargins(top: 10, bottom: 10, start: 12, end: 12)
        let text = Box(.vertical, spacing: 4)
        text.expandHorizontally()
        title.alignStart()
        title.wrap(lines: 2)
        title.addCSSClass("heading")
        details.alignStart()
        details.ellipsize()
        details.addCSSClass("dim-label")
        details.addCSSClass("caption")
        details.useTabularNumbers()
        text.append(title)
        text.append(details)
        box.append(text)
        playedIcon.setAccessibleLabel(tr("Played"))
        playedIcon.setTooltip(tr("Played"))
        playedIcon.align(horizontal: .end, vertical: .center)
        box.append(playedIcon)
    }

    func bind(_ episode: EpisodeSummary) {
        title.text = episode.title ?? tr("Untitled episode")
        var parts: [String] = []
        if let published = episode.published { parts.append(TimeText.date(published)) }
        if let position = episode.resumePosition, !episode.isPlayed,
           let total = position.duration ?? episode.duration, total > position.position {
            parts.append(TimeText.remaining(total - position.position))
        } else if let duration = episode.duration, duration > 0 {
            parts.append(TimeText.length(duration))
        }
        if episode.isNew { parts.append(tr("New")) }
        details.text = parts.joined(separator: " · ")
        playedIcon.isVisible = episode.isPlayed
        box.setAccessibleLabel(episode.isPlayed
            ? String(format: tr("%@, played"), title.text) : title.text)
    }
}
