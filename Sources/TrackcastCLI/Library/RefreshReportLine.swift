import Foundation
import TrackcastCore
import TrackcastLibrary

/// One line per refreshed show, as `refresh` and `import-opml` print them.
enum RefreshReportLine {
    static func text(_ report: ShowRefreshReport) -> String {
        let title = report.title ?? report.feedURL.absoluteString
        var line: String
        switch report.outcome {
        case .updated(let result) where result.inserted > 0 || result.updated > 0:
            line = String(format: tr("updated    %@: %d new, %d changed"), title, result.inserted, result.updated)
        case .updated, .notModified:
            line = String(format: tr("unchanged  %@"), title)
        case .failed(let failure):
            line = String(format: tr("failed     %@: %@"), title, failure.message)
        case .cancelled:
            line = String(format: tr("cancelled  %@"), title)
        case .unsubscribed:
            line = String(format: tr("removed    %@"), title)
        }
        if let old = report.movedFrom {
            line += " " + String(format: tr("(moved from %@ to %@)"), old.absoluteString, report.feedURL.absoluteString)
        }
        return line
    }
}
