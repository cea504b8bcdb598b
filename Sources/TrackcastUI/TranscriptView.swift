import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// An episode's transcript on its page: the cues in a list that binds only
/// the rows on screen; while the episode plays, the cue being spoken is
/// highlighted and, in follow mode, scrolled into view. Scrolling by hand
/// turns follow mode off (the reader is looking elsewhere), the follow
/// button back on. A search highlights matching cues and jumps between
/// them. Clicking a timed cue plays from it.
@MainActor
final class TranscriptView {
    struct CueItem {
        let index: Int
        let cue: TranscriptCue
        let isTimed: Bool
        var isCurrent = false
        var isMatch = false
    }

    let root = ViewStack()
    private let cues = ListStore<CueItem>()
    private let list: ListView
    private let search = SearchEntry(placeholder: tr("Search Transcript"))
    private let matchCount = Label()
    private let previousMatch = Button(iconName: "go-up-symbolic", tooltip: tr("Previous Match"))
    private let nextMatch = Button(iconName: "go-down-symbolic", tooltip: tr("Next Match"))
    private let follow = ToggleButton(iconName: "find-location-symbolic", tooltip: tr("Follow Playback"))
    private let failure = StatusPage(iconName: "dialog-warning-symbolic", title: tr("Cannot Load the Transcript"),
                                     description: "")
    private let spinner = Spinner()
    private var cursor: TranscriptCursor?
    private var currentIndex: Int?
    private var matches: [Int] = []
    private var matchPosition: Int?
    private var seek: @MainActor (TimeInterval) -> Void = { _ in }
    private var retry: @MainActor () -> Void = {}

    init() {
        list = ListView(model: cues, factory: ListItemFactory { TranscriptCueRow() })
        list.setAccessibleLabel(tr("Transcript"))
        list.onActivate { [weak self] position in self?.activate(position) }
        let scrolled = ScrolledWindow(child: list)
        scrolled.expandVertically()
        let userScroll = ScrollController()
        userScroll.onScroll { [weak self] in self?.setFollowing(false, why: "scrolled by hand") }
        scrolled.addController(userScroll)

        let bar = Box(.horizontal, spacing: 6)
        bar.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        search.expandHorizontally()
        bar.append(search)
        matchCount.addCSSClass("dim-label")
        matchCount.useTabularNumbers()
        bar.append(matchCount)
        for button in [previousMatch, nextMatch] {
            button.addCSSClass("flat")
            bar.append(button)
        }
        follow.addCSSClass("flat")
        follow.isActive = true
        bar.append(follow)
        let content = Box(.vertical)
        content.append(bar)
        content.append(scrolled)
        root.add(content, name: "cues")

        spinner.align(horizontal: .center, vertical: .center)
        root.add(spinner, name: "loading")
        root.add(StatusPage(iconName: "format-justify-left-symbolic", title: tr("No Transcript"),
                            description: tr("The podcast offers no transcript for this episode")), name: "none")
        let retryButton = Button(label: tr("_Retry"))
        retryButton.addCSSClass("pill")
        retryButton.align(horizontal: .center, vertical: .center)
        retryButton.onClicked { [weak self] in self?.retry() }
        failure.setChild(retryButton)
        root.add(failure, name: "failed")
        root.expandVertically()

        search.onSearchChanged { [weak self] in self?.searchChanged() }
        search.onNextMatch { [weak self] in self?.stepMatch(by: 1) }
        search.onPreviousMatch { [weak self] in self?.stepMatch(by: -1) }
        nextMatch.onClicked { [weak self] in self?.stepMatch(by: 1) }
        previousMatch.onClicked { [weak self] in self?.stepMatch(by: -1) }
        follow.onToggled { [weak self] in self?.followToggled() }
        renderMatches()
    }

    /// Plays the episode from a cue's start.
    func onSeek(_ handler: @escaping @MainActor (TimeInterval) -> Void) { seek = handler }

    /// Loads the transcript again after a failure.
    func onRetry(_ handler: @escaping @MainActor () -> Void) { retry = handler }

    func showLoading() {
        clear()
        spinner.isSpinning = true
        root.visibleChildName = "loading"
    }

    func showNone() {
        clear()
        root.visibleChildName = "none"
    }

    func showFailure(_ message: String) {
        clear()
        // The status page reads its description as markup; a server's message may hold "<".
        failure.setDescription(message)
        root.visibleChildName = "failed"
    }

    func show(_ transcript: Transcript) {
        clear()
        let cursor = TranscriptCursor(transcript)
        self.cursor = cursor
        cues.replaceAll(with: transcript.cues.enumerated().map {
            CueItem(index: $0.offset, cue: $0.element, isTimed: transcript.isTimed)
        })
        // Untimed paragraphs have no cue under the play head to follow.
        follow.isVisible = transcript.isTimed
        root.visibleChildName = "cues"
        if !search.text.isEmpty { searchChanged() }
    }

    private func clear() {
        spinner.isSpinning = false
        cursor = nil
        currentIndex = nil
        matches = []
        matchPosition = nil
        cues.replaceAll(with: [])
        renderMatches()
    }

    /// The play head of this episode, or nil while another item plays.
    func update(position: TimeInterval?) {
        let index = position.flatMap { cursor?.cueIndex(at: $0) }
        guard index != currentIndex else { return }
        let previous = currentIndex
        currentIndex = index
        for changed in [previous, index].compactMap({ $0 }) { refresh(changed) }
        Log.debug("transcript cue: \(index.map(String.init) ?? "none")")
        if let index, follow.isActive { list.scrollTo(index) }
    }

    /// Scrolls to the cue at `time` (a search's result), and stops
    /// following the play head, which would scroll away from it.
    func reveal(at time: TimeInterval) {
        guard let index = cursor?.cueIndex(at: time) else { return }
        setFollowing(false, why: "search result")
        list.scrollTo(index)
        Log.debug("transcript: revealed cue \(index)")
    }

    /// What a click on the row at `position` does: plays from a timed cue.
    func activate(_ position: Int) {
        guard let item = cues.payload(at: position), item.isTimed else { return }
        Log.debug("transcript: cue \(position) chosen")
        seek(item.cue.start)
    }

    /// Types `text` into the search entry, as a person would.
    func searchFor(_ text: String) { search.text = text }

    private func searchChanged() {
        let previous = matches
        matches = cursor?.search(search.text) ?? []
        matchPosition = matches.isEmpty ? nil : 0
        for index in Set(previous).symmetricDifference(matches) { refresh(index) }
        Log.debug("transcript search: \(matches.count) matches\(matches.first.map { ", first cue \($0)" } ?? "")")
        renderMatches()
        jumpToMatch()
    }

    private func stepMatch(by step: Int) {
        guard let matchPosition, !matches.isEmpty else { return }
        self.matchPosition = (matchPosition + step + matches.count) % matches.count
        renderMatches()
        jumpToMatch()
    }

    private func jumpToMatch() {
        guard let matchPosition else { return }
        // The reader is looking at a match now, not at the play head.
        setFollowing(false, why: "searching")
        list.scrollTo(matches[matchPosition])
    }

    private func renderMatches() {
        let searching = !search.text.trimmingCharacters(in: .whitespaces).isEmpty
        matchCount.isVisible = searching
        matchCount.text = matches.isEmpty ? tr("No matches")
            : String(format: tr("%d of %d"), (matchPosition ?? 0) + 1, matches.count)
        previousMatch.isVisible = searching
        nextMatch.isVisible = searching
        previousMatch.isSensitive = matches.count > 1
        nextMatch.isSensitive = matches.count > 1
    }

    private func setFollowing(_ following: Bool, why: String) {
        guard follow.isActive != following else { return }
        Log.debug("transcript follow: \(following ? "on" : "off") (\(why))")
        follow.isActive = following
    }

    private func followToggled() {
        if follow.isActive, let currentIndex { list.scrollTo(currentIndex) }
    }

    /// Rebinds one row with its current and match state.
    private func refresh(_ index: Int) {
        guard var item = cues.payload(at: index) else { return }
        item.isCurrent = index == currentIndex
        item.isMatch = matches.contains(index)
        cues.splice(at: index, removing: 1, inserting: [item])
    }
}

/// One cue: its time and speaker over its text.
@MainActor
final class TranscriptCueRow: ListRowController {
    private let box = Box(.vertical, spacing: 2)
    private let heading = Label()
    private let text = Label()

    var root: Widget { box }

    init() {
        box.addCSSClass("episode-page-row")
        box.setMargins(top: 2, bottom: 2, start: 4, end: 4)
        heading.alignStart()
        heading.addCSSClass("caption")
        heading.addCSSClass("dim-label")
        heading.useTabularNumbers()
        text.alignStart()
        text.wrap()
        box.append(heading)
        box.append(text)
    }

    func bind(_ item: TranscriptView.CueItem) {
        var parts: [String] = []
        if item.isTimed { parts.append(TimeText.clock(seconds: item.cue.start)) }
        if let speaker = item.cue.speaker, !speaker.isEmpty { parts.append(speaker) }
        heading.text = parts.joined(separator: " · ")
        heading.isVisible = !parts.isEmpty
        text.text = item.cue.text
        for (isOn, cssClass) in [(item.isCurrent, "current-cue"), (item.isMatch, "transcript-match")] {
            if isOn { box.addCSSClass(cssClass) } else { box.removeCSSClass(cssClass) }
        }
    }
}
