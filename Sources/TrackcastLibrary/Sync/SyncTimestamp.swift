import Foundation

/// Episode actions' timestamps: UTC ISO 8601 without a zone ("2009-12-12T09:00:00",
/// as gpodder.net documents them), with a "Z" or fractional seconds from
/// some servers. Read from an untrusted answer: a date outside 1990…2200 is
/// not a time any device recorded and is refused, never clamped into one.
public enum SyncTimestamp {
    public static let earliest: TimeInterval = 631_152_000     // 1990-01-01
    public static let latest: TimeInterval = 7_258_118_400     // 2200-01-01

    public static func parse(_ text: String) -> Date? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasSuffix("Z") || body.hasSuffix("z") { body = body.dropLast() }
        if body.hasSuffix("+00:00") { body = body.dropLast(6) }
        var fraction = 0.0
        if let dot = body.firstIndex(of: ".") {
            let digits = body[body.index(after: dot)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ ("0"..."9").contains($0) }),
                  let value = Double("0." + digits) else { return nil }
            fraction = value
            body = body[..<dot]
        }
        let parts = body.split(whereSeparator: { "-T:".contains($0) }).map { Int($0) }
        guard parts.count == 6, body.count == 19, let year = parts[0], let month = parts[1], let day = parts[2],
              let hour = parts[3], let minute = parts[4], let second = parts[5],
              (1..<13).contains(month), (1..<32).contains(day), (0..<24).contains(hour), (0..<60).contains(minute),
              (0..<61).contains(second), (1990...2200).contains(year)
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        guard let date = calendar.date(from: components) else { return nil }
        let seconds = date.timeIntervalSince1970 + fraction
        guard (earliest...latest).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// As gpodder.net writes them: whole seconds, UTC, no zone.
    public static func format(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1,
                      c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// A server's `timestamp` (an integer it hands back as the next `since`):
    /// nil unless it is a whole number of seconds from 0 to `latest`.
    public static func since(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double <= latest, double == double.rounded() else { return nil }
        return Int64(double)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
