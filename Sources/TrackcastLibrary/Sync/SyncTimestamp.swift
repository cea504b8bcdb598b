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
        guard day <= daysIn(month: month, year: year) else { return nil }
        let seconds = Double(daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
            + fraction
        guard (earliest...latest).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// As gpodder.net writes them: whole seconds, UTC, no zone. By
    /// arithmetic, not Calendar: a sync writes 20,000 of them, and Foundation's
    /// calendar on Linux costs tens of microseconds a call.
    public static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        write(date, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format`'s text appended as bytes, for the upload's JSON.
    static func write(_ date: Date, into out: inout [UInt8]) {
        let total = Int(min(max(date.timeIntervalSince1970, earliest), latest).rounded(.down))
        let days = total.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = civil(fromDays: days.quotient)
        let second = days.remainder
        digits(year, 4, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, 2, into: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, 2, into: &out)
        out.append(UInt8(ascii: "T"))
        digits(second / 3600, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        digits(second % 60, 2, into: &out)
    }

    /// `value`'s last `count` decimal digits, zero-padded.
    private static func digits(_ value: Int, _ count: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// A server's `timestamp` (an integer it hands back as the next `since`):
    /// nil unless it is a whole number of seconds from 0 to `latest`.
    public static func since(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double <= latest, double == double.rounded() else { return nil }
        return Int64(double)
    }

    // Howard Hinnant's days_from_civil and civil_from_days (proleptic
    // Gregorian, days since 1970-01-01), for years 1990…2200 only.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
