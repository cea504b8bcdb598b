import Foundation

/// An episode's chapters in time order, with what playback asks of them:
/// the chapter under the play head, where the next and previous start,
/// where the current one ends.
public struct ChapterList: Sendable, Equatable {
    /// Every chapter, listed or not, by start.
    public let chapters: [Chapter]

    public init(_ chapters: [Chapter]) {
        self.chapters = chapters.filter { $0.start.isFinite && $0.start >= 0 }.sorted { $0.start < $1.start }
    }

    /// Merges the sources by priority: the list of the best source that has
    /// any chapters wins (sources disagree on where chapters start, and a
    /// mix would double them); chapters of other sources starting within a
    /// second of one of its chapters lend it a missing title, link or image.
    public static func merged(_ sources: [[Chapter]]) -> ChapterList {
        let all = sources.flatMap { $0 }
        guard let best = all.map(\.source).max() else { return ChapterList([]) }
        let others = all.filter { $0.source != best }.sorted { $0.source > $1.source }
        return ChapterList(all.filter { $0.source == best }.map { chapter in
            var chapter = chapter
            for other in others where abs(other.start - chapter.start) < 1 {
                if chapter.title?.isEmpty ?? true { chapter.title = other.title }
                if chapter.url == nil { chapter.url = other.url }
                if chapter.image == nil { chapter.image = other.image }
            }
            return chapter
        })
    }

    public var isEmpty: Bool { chapters.isEmpty }

    /// The chapters to show in a list.
    public var listed: [Chapter] { chapters.filter(\.isListed) }

    /// The index of the last chapter whose start has been reached.
    public func index(at position: TimeInterval) -> Int? {
        chapters.lastIndex { $0.start <= position }
    }

    public func chapter(at position: TimeInterval) -> Chapter? {
        index(at: position).map { chapters[$0] }
    }

    /// Where the chapter playing at `position` ends: the next chapter's
    /// start, or `nil` if it runs to the end of the media.
    public func end(ofChapterAt position: TimeInterval) -> TimeInterval? {
        chapters.first { $0.start > position }?.start
    }

    /// The start of the next listed chapter after `position`.
    public func nextStart(after position: TimeInterval) -> TimeInterval? {
        listed.first { $0.start > position + 0.01 }?.start
    }

    /// The start of the listed chapter playing, or of the one before it if
    /// the current one began less than `grace` seconds ago (as a "previous
    /// track" button works).
    public func previousStart(before position: TimeInterval, grace: TimeInterval = 3) -> TimeInterval? {
        let started = listed.filter { $0.start <= position }
        guard let current = started.last else { return nil }
        if position - current.start >= grace { return current.start }
        return started.dropLast().last?.start ?? current.start
    }
}
