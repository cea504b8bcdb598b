import CGLib
import CGStreamer

/// One entry of a container's table of contents: a chapter (Matroska), a
/// track (a FLAC cue sheet), or an edition that groups them.
public struct TocEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case edition, chapter, track, other }

    public let kind: Kind
    public let title: String?
    public let start: Duration?
    public let end: Duration?
    public let children: [TocEntry]

    public init(kind: Kind, title: String?, start: Duration?, end: Duration?, children: [TocEntry] = []) {
        self.kind = kind
        self.title = title
        self.start = start
        self.end = end
        self.children = children
    }

    static func entries(of toc: OpaquePointer) -> [TocEntry] {
        entries(in: gst_toc_get_entries(toc))
    }

    private static func entries(in list: UnsafeMutablePointer<GList>?) -> [TocEntry] {
        var result: [TocEntry] = []
        var node = list
        while let current = node {
            result.append(TocEntry(OpaquePointer(current.pointee.data)))
            node = current.pointee.next
        }
        return result
    }

    private init(_ entry: OpaquePointer) {
        switch gst_toc_entry_get_entry_type(entry) {
        case GST_TOC_ENTRY_TYPE_EDITION: kind = .edition
        case GST_TOC_ENTRY_TYPE_CHAPTER: kind = .chapter
        case GST_TOC_ENTRY_TYPE_TRACK: kind = .track
        default: kind = .other
        }
        var startTime: gint64 = -1
        var stopTime: gint64 = -1
        gst_toc_entry_get_start_stop_times(entry, &startTime, &stopTime)
        start = startTime >= 0 ? .nanoseconds(startTime) : nil
        end = stopTime >= 0 ? .nanoseconds(stopTime) : nil
        title = gst_toc_entry_get_tags(entry).flatMap { MediaTags($0).title }
        children = Self.entries(in: gst_toc_entry_get_sub_entries(entry))
    }

    /// The places to navigate to inside this entry and below (chapters and
    /// cue-sheet tracks), in order, itself included if it is one.
    public var chapters: [TocEntry] {
        (kind == .chapter || kind == .track ? [self] : []) + children.flatMap(\.chapters)
    }
}
