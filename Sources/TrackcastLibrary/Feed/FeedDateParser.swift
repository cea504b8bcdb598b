import Foundation

/// Reads the dates feeds really contain: RFC 822/1123 as written by hand and by
/// broken generators, and ISO 8601 (Atom, and RSS feeds that use it anyway).
///
/// A hand-written scanner rather than `DateFormatter`: formatters are slow to
/// build, depend on locale and time-zone settings, and each accepts one exact
/// pattern, while feeds mix missing weekdays, wrong weekdays, one-digit days,
/// two-digit years, named zones, missing seconds and missing zones.
/// Interpretation never depends on the machine's locale or time zone: a date
/// without a zone is taken as UTC.
public enum FeedDateParser {
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            var scanner = ByteScanner(bytes: bytes)
            scanner.skipWhitespace()
            if scanner.startsWithISODate {
                return parseISO8601(&scanner)
            }
            return parseCanonicalRFC822(bytes) ?? parseRFC822(bytes)
        }
    }

    /// `parse` without the canonical RFC 822 shortcut, for tests to hold the two to the same answers.
    static func parseWithoutShortcut(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            var scanner = ByteScanner(bytes: bytes)
            scanner.skipWhitespace()
            return scanner.startsWithISODate ? parseISO8601(&scanner) : parseRFC822(bytes)
        }
    }

    // MARK: ISO 8601

    private static func parseISO8601(_ s: inout ByteScanner) -> Date? {
        guard let year = s.number(digits: 4...4), s.consume(UInt8(ascii: "-")),
              let month = s.number(digits: 1...2), s.consume(UInt8(ascii: "-")),
              let day = s.number(digits: 1...2)
        else { return nil }
        var time = TimeOfDay()
        var offset = 0
        if s.consume(UInt8(ascii: "T")) || s.consume(UInt8(ascii: "t")) || (s.peek == UInt8(ascii: " ") && s.peek(at: 1).map(isDigit) == true) {
            if s.peek == UInt8(ascii: " ") { s.advance() }
            guard let parsed = s.timeOfDay() else { return nil }
            time = parsed
            s.skipWhitespace()
            if !s.isAtEnd {
                guard let zone = s.zoneOffset() else { return nil }
                offset = zone
            }
        }
        s.skipWhitespace()
        guard s.isAtEnd else { return nil }
        return makeDate(year: year, month: month, day: day, time: time, offset: offset)
    }

    // MARK: RFC 822 and its real-world relatives

    /// Splits into words and classifies each, so the order of day, month and year
    /// may vary ("13 Jul 2020", "July 13, 2020", "Mon Jul 13 04:00:00 2020").
    private static func parseRFC822(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var month: Int?
        var numbers: [(value: Int, digits: Int)] = []
        var time: TimeOfDay?
        var offset: Int?
        var isPM: Bool?

        var s = ByteScanner(bytes: bytes)
        while true {
            s.skipSeparators()
            if s.isAtEnd { break }
            guard let c = s.peek else { break }
            if c == UInt8(ascii: "(") {
                break // "+0000 (UTC)": a trailing comment
            }
            if isDigit(c) {
                let mark = s.position
                guard let value = s.number(digits: 1...4) else { return nil }
                if s.peek == UInt8(ascii: ":") {
                    s.position = mark
                    guard time == nil, let parsed = s.timeOfDay() else { return nil }
                    time = parsed
                } else {
                    numbers.append((value, s.position - mark))
                }
                continue
            }
            if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                guard offset == nil, let zone = s.zoneOffset() else { return nil }
                offset = zone
                continue
            }
            guard isLetter(c) else { return nil }
            let word = s.word()
            if let m = monthNumber(word) {
                guard month == nil else { return nil }
                month = m
            } else if let zone = namedZoneOffset(word) {
                guard offset == nil else { return nil }
                offset = zone
                if s.peek == UInt8(ascii: "+") || s.peek == UInt8(ascii: "-") {
                    // "GMT+0200"
                    guard let extra = s.zoneOffset() else { return nil }
                    offset = zone + extra
                }
            } else if word == "am" || word == "pm" {
                isPM = word == "pm"
            } else if !isWeekday(word) && time == nil {
                return nil
            }
            // Unknown words after the time are zone names we do not know: read as UTC.
        }

        guard let month, numbers.count == 2 else { return nil }
        var day: Int
        var year: Int
        var yearDigits: Int
        if numbers[0].digits >= 3 {
            (year, yearDigits, day) = (numbers[0].value, numbers[0].digits, numbers[1].value)
        } else {
            (day, year, yearDigits) = (numbers[0].value, numbers[1].value, numbers[1].digits)
        }
        if yearDigits <= 2 {
            // RFC 2822 §4.3: 00–49 are 2000–2049, 50–99 are 1950–1999.
            year += year < 50 ? 2000 : 1900
        } else if yearDigits == 3 {
            year += 1900 // RFC 2822 §4.3, for years written by "year - 1900" bugs
        }
        guard day >= 1 else { return nil }
        var clock = time ?? TimeOfDay()
        if let isPM {
            guard (1...12).contains(clock.hour) else { return nil }
            clock.hour = clock.hour % 12 + (isPM ? 12 : 0)
        }
        return makeDate(year: year, month: month, day: day, time: clock, offset: offset ?? 0)
    }

    /// The form nearly every feed writes, "Mon, 13 Jul 2020 04:00:00 +0000" (or
    /// "GMT" for the offset), read at fixed byte positions: the general reader
    /// below splits it into words and Strings, several times the work on a feed
    /// of thousands of episodes. `nil` for anything else, valid or not, which
    /// then goes to the general reader; whatever this accepts, that reads alike.
    private static func parseCanonicalRFC822(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count == 31 || b.count == 29,
              weekdayAbbreviations.contains(lowercasedLetters(b, 0)),
              b[3] == UInt8(ascii: ","), b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20,
              b[19] == UInt8(ascii: ":"), b[22] == UInt8(ascii: ":"), b[25] == 0x20,
              let day = digits(b, 5, 2), let monthIndex = monthAbbreviations.firstIndex(of: lowercasedLetters(b, 8)),
              let year = digits(b, 12, 4), let hour = digits(b, 17, 2), let minute = digits(b, 20, 2),
              let second = digits(b, 23, 2), day >= 1
        else { return nil }
        let offset: Int
        if b.count == 29 {
            guard lowercasedLetters(b, 26) == "gmt" else { return nil }
            offset = 0
        } else {
            guard b[26] == UInt8(ascii: "+") || b[26] == UInt8(ascii: "-"),
                  let hours = digits(b, 27, 2), let minutes = digits(b, 29, 2), hours <= 18, minutes < 60
            else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (b[26] == UInt8(ascii: "-") ? -1 : 1)
        }
        let time = TimeOfDay(hour: hour, minute: minute, second: second)
        return makeDate(year: year, month: monthIndex + 1, day: day, time: time, offset: offset)
    }

    private static let weekdayAbbreviations: [ThreeLetters] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let monthAbbreviations: [ThreeLetters] = ["jan", "feb", "mar", "apr", "may", "jun",
                                                              "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Three lower-cased ASCII letters, as a value compared without making a String.
    fileprivate struct ThreeLetters: Equatable, ExpressibleByStringLiteral {
        let a: UInt8, b: UInt8, c: UInt8

        init(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
            (self.a, self.b, self.c) = (a, b, c)
        }

        init(stringLiteral value: StaticString) {
            let bytes = UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)
            precondition(bytes.count == 3)
            self.init(bytes[0], bytes[1], bytes[2])
        }
    }

    /// The three bytes at `start` lower-cased, or a value no table holds if any is not a letter.
    private static func lowercasedLetters(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> ThreeLetters {
        let (x, y, z) = (b[start], b[start + 1], b[start + 2])
        guard isLetter(x), isLetter(y), isLetter(z) else { return ThreeLetters(0, 0, 0) }
        return ThreeLetters(x | 0x20, y | 0x20, z | 0x20)
    }

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard isDigit(b[index]) else { return nil }
            value = value * 10 + Int(b[index] - 0x30)
        }
        return value
    }

    // MARK: Shared

    struct TimeOfDay {
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
    }

    private static func makeDate(year: Int, month: Int, day: Int, time: TimeOfDay, offset: Int) -> Date? {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...daysInMonth(month, year: year)).contains(day),
              (0...23).contains(time.hour) || (time.hour == 24 && time.minute == 0 && time.second == 0),
              (0...59).contains(time.minute), (0...60).contains(time.second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + time.fraction)
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Full names and abbreviations, including the "Sept" and "June" seen in the wild.
    private static func monthNumber(_ word: String) -> Int? {
        switch word {
        case "jan", "january": return 1
        case "feb", "february": return 2
        case "mar", "march": return 3
        case "apr", "april": return 4
        case "may": return 5
        case "jun", "june": return 6
        case "jul", "july": return 7
        case "aug", "august": return 8
        case "sep", "sept", "september": return 9
        case "oct", "october": return 10
        case "nov", "november": return 11
        case "dec", "december": return 12
        default: return nil
        }
    }

    /// Weekdays are skipped, never checked: feeds often get them wrong.
    private static func isWeekday(_ word: String) -> Bool {
        switch word {
        case "mon", "monday", "tue", "tues", "tuesday", "wed", "weds", "wednesday",
             "thu", "thur", "thurs", "thursday", "fri", "friday", "sat", "saturday",
             "sun", "sunday":
            return true
        default:
            return false
        }
    }

    /// The RFC 822 zones plus the abbreviations feeds commonly use instead of offsets.
    /// Ambiguous ones (IST, CST as China) are read the RFC/US way.
    private static func namedZoneOffset(_ word: String) -> Int? {
        let hours: Double
        switch word {
        case "z", "ut", "utc", "gmt", "wet": hours = 0
        case "est": hours = -5
        case "edt": hours = -4
        case "cst": hours = -6
        case "cdt": hours = -5
        case "mst": hours = -7
        case "mdt": hours = -6
        case "pst": hours = -8
        case "pdt": hours = -7
        case "ast": hours = -4
        case "adt": hours = -3
        case "akst": hours = -9
        case "akdt": hours = -8
        case "hst": hours = -10
        case "bst", "cet", "met", "west": hours = 1
        case "cest", "mest", "eet": hours = 2
        case "eest", "msk": hours = 3
        case "awst": hours = 8
        case "jst", "kst": hours = 9
        case "acst": hours = 9.5
        case "aest": hours = 10
        case "acdt": hours = 10.5
        case "aedt": hours = 11
        case "nzst": hours = 12
        case "nzdt": hours = 13
        default: return nil
        }
        return Int(hours * 3_600)
    }

    fileprivate static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    fileprivate static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// A cursor over UTF-8 bytes; everything it reads is ASCII.
    fileprivate struct ByteScanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }
        var peek: UInt8? { peek(at: 0) }
        func peek(at offset: Int) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }
        mutating func advance() { position += 1 }

        mutating func consume(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            position += 1
            return true
        }

        var startsWithISODate: Bool {
            var i = 0
            while i < 4 {
                guard let c = peek(at: i), isDigit(c) else { return false }
                i += 1
            }
            return peek(at: 4) == UInt8(ascii: "-")
        }

        mutating func skipWhitespace() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { position += 1 }
        }

        /// Whitespace, commas, dots after words ("Jul. 13") and the dashes of "13-Jul-2020".
        mutating func skipSeparators() {
            while let c = peek {
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ",") || c == UInt8(ascii: ".") {
                    position += 1
                } else if c == UInt8(ascii: "-"), position > 0,
                          isLetter(bytes[position - 1]) || (isDigit(bytes[position - 1]) && peek(at: 1).map(isLetter) == true) {
                    position += 1
                } else {
                    return
                }
            }
        }

        mutating func number(digits allowed: ClosedRange<Int>) -> Int? {
            var value = 0
            var count = 0
            while let c = peek, isDigit(c) {
                count += 1
                guard count <= allowed.upperBound else { return nil }
                value = value * 10 + Int(c - 0x30)
                position += 1
            }
            return count >= allowed.lowerBound ? value : nil
        }

        /// Lower-cased run of letters.
        mutating func word() -> String {
            let start = position
            while let c = peek, isLetter(c) { position += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self).lowercased()
        }

        /// hh:mm, hh:mm:ss, hh:mm:ss.fraction
        mutating func timeOfDay() -> TimeOfDay? {
            guard let hour = number(digits: 1...2), consume(UInt8(ascii: ":")),
                  let minute = number(digits: 2...2)
            else { return nil }
            var time = TimeOfDay(hour: hour, minute: minute)
            if consume(UInt8(ascii: ":")) {
                guard let second = number(digits: 2...2) else { return nil }
                time.second = second
                if peek == UInt8(ascii: ".") || peek == UInt8(ascii: ",") {
                    position += 1
                    var scale = 0.1
                    var fraction = 0.0
                    var count = 0
                    while let c = peek, isDigit(c) {
                        if count < 9 { fraction += Double(c - 0x30) * scale; scale /= 10 }
                        count += 1
                        position += 1
                    }
                    guard count > 0 else { return nil }
                    time.fraction = fraction
                }
            }
            return time
        }

        /// "Z", "+hhmm", "-hh:mm", "+hh", and the named zones; seconds east of UTC.
        mutating func zoneOffset() -> Int? {
            guard let sign = peek else { return nil }
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                position += 1
                return 0
            }
            if isLetter(sign) {
                return namedZoneOffset(word())
            }
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            position += 1
            let start = position
            guard let first = number(digits: 1...4) else { return nil }
            let digitCount = position - start
            var hours: Int
            var minutes = 0
            switch digitCount {
            case 1, 2:
                hours = first
                if consume(UInt8(ascii: ":")) {
                    guard let m = number(digits: 2...2) else { return nil }
                    minutes = m
                }
            case 3, 4:
                hours = first / 100
                minutes = first % 100
            default:
                return nil
            }
            guard hours <= 18, minutes < 60 else { return nil }
            let seconds = hours * 3_600 + minutes * 60
            return sign == UInt8(ascii: "-") ? -seconds : seconds
        }
    }
}
