import Foundation
import TrackcastCore

/// Times and dates as the views write them.
enum TimeText {
    /// "4:05" or "1:02:03"; "0:00" for times before the start, and no more
    /// than `MediaTime.maximumSeconds` for any time, however it was come by.
    static func clock(_ duration: Duration) -> String {
        let total = Int(min(max(0, duration.components.seconds), Int64(MediaTime.maximumSeconds)))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, seconds)
            : String(format: "%d:%02d", minutes, seconds)
    }

    /// A number of seconds from a file or feed as a clock; "0:00" if it is not a number.
    static func clock(seconds: TimeInterval) -> String {
        clock(Duration(clampingSeconds: seconds) ?? .zero)
    }

    /// "40 s", "45 min" or "1 h 5 min", for an episode's length.
    static func length(_ seconds: TimeInterval) -> String {
        // Rounded to whole numbers below, which traps on NaN and past Int's range.
        let seconds = MediaTime.seconds(seconds) ?? 0
        if seconds < 60 { return String(format: tr("%d s"), Int(seconds.rounded())) }
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 60 { return String(format: trn("%d min", "%d min", minutes), minutes) }
        return String(format: tr("%d h %d min"), minutes / 60, minutes % 60)
    }

    /// "12 min left".
    static func remaining(_ seconds: TimeInterval) -> String {
        let seconds = MediaTime.seconds(seconds) ?? 0
        if seconds < 60 { return String(format: tr("%d s left"), max(1, Int(seconds.rounded()))) }
        let minutes = max(1, Int((seconds / 60).rounded()))
        return String(format: trn("%d min left", "%d min left", minutes), minutes)
    }

    @MainActor private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter
    }()

    @MainActor
    static func date(_ date: Date) -> String { dateFormatter.string(from: date) }
}
