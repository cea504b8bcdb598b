import Foundation
import Testing
@testable import TrackcastLibrary

@Suite("feed date parser")
struct FeedDateParserTests {
    /// 2020-07-13 04:00:00 UTC, the instant most rows below spell differently.
    static let instant: TimeInterval = 1_594_612_800

    @Test("RFC 822 and its real-world deviations", arguments: [
        ("Mon, 13 Jul 2020 04:00:00 +0000", instant),
        ("Mon, 13 Jul 2020 04:00:00 -0000", instant),
        ("Mon, 13 Jul 2020 04:00:00 GMT", instant),
        ("Mon, 13 Jul 2020 04:00:00 UT", instant),
        ("Mon, 13 Jul 2020 04:00:00 UTC", instant),
        ("Mon, 13 Jul 2020 04:00:00 Z", instant),
        ("13 Jul 2020 04:00:00 +0000", instant),                 // no weekday
        ("Fri, 13 Jul 2020 04:00:00 +0000", instant),            // wrong weekday
        ("Monday, 13 July 2020 04:00:00 +0000", instant),        // full names
        ("Mon, 13 Jul 20 04:00:00 +0000", instant),              // two-digit year
        ("Mon, 13 Jul 2020 04:00 +0000", instant),               // no seconds
        ("Mon, 13 Jul 2020 04:00:00", instant),                  // no zone: UTC
        ("  Mon,   13  Jul  2020   04:00:00   +0000  ", instant), // extra spaces
        ("Mon,13 Jul 2020 04:00:00 +0000", instant),             // no space after comma
        ("mon, 13 jul 2020 04:00:00 gmt", instant),              // lower case
        ("Mon, 13 Jul 2020 00:00:00 EDT", instant),
        ("Mon, 13 Jul 2020 00:00:00 -0400", instant),
        ("Sun, 12 Jul 2020 21:00:00 PDT", instant),
        ("Sun, 12 Jul 2020 20:00:00 PST", instant),
        ("Sun, 12 Jul 2020 23:00:00 EST", instant),
        ("Sun, 12 Jul 2020 23:00:00 CDT", instant),
        ("Sun, 12 Jul 2020 22:00:00 MDT", instant),
        ("Mon, 13 Jul 2020 06:00:00 CEST", instant),
        ("Mon, 13 Jul 2020 05:30:00 +01:30", instant),           // offset with colon
        ("Mon, 13 Jul 2020 04:00:00 +0000 (UTC)", instant),      // trailing comment
        ("Mon, 13 Jul 2020 04:00:00 GMT+0000", instant),
        ("13-Jul-2020 04:00:00 +0000", instant),
        ("July 13, 2020 04:00:00 GMT", instant),                 // US order
        ("Mon Jul 13 04:00:00 2020", instant),                   // asctime
        ("Mon, 13 Jul 2020 4:00:00 AM GMT", instant),
        ("Mon, 13 Jul 2020 04:00:00.000 +0000", instant),
        ("Mon, 6 Jul 2020 04:00:00 -0000", 1_594_008_000),       // one-digit day
        ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400),          // leap day
        ("Wed, 31 Dec 1969 23:59:59 GMT", -1),                   // before the epoch
        ("Mon, 02 May 1960 09:05:01 +0100", -305_049_299),       // podcastparser's own doctest
        ("Fri, 21 Nov 1997 09:55:06 -0600", 880_127_706),
        ("Sun, 20 Jul 2014 12:00:00 PM GMT", 1_405_857_600),
    ] as [(String, TimeInterval)])
    func rfc822(_ text: String, _ expected: TimeInterval) {
        #expect(FeedDateParser.parse(text)?.timeIntervalSince1970 == expected, "\(text)")
    }

    @Test("ISO 8601", arguments: [
        ("2020-07-13T04:00:00Z", instant),
        ("2020-07-13T04:00:00z", instant),
        ("2020-07-13T04:00:00+00:00", instant),
        ("2020-07-13T06:00:00+02:00", instant),
        ("2020-07-13T06:00:00+0200", instant),
        ("2020-07-13T06:00:00+02", instant),
        ("2020-07-12T23:00:00-05:00", instant),
        ("2020-07-13T04:00:00.000Z", instant),
        ("2020-07-13T04:00:00.5Z", instant + 0.5),
        ("2020-07-13T04:00:00.123456+00:00", instant + 0.123456),
        ("2020-07-13T04:00:00", instant),                         // no zone: UTC
        ("2020-07-13T04:00Z", instant),                            // no seconds
        ("2020-07-13 04:00:00", instant),                          // space instead of T
        ("2020-07-13 04:00:00 UTC", instant),
        ("2020-07-13", instant - 4 * 3_600),                       // date only: midnight UTC
        ("2003-12-13T18:30:02Z", 1_071_340_202),
        ("2003-12-13T00:00:00+02:00", 1_071_266_400),
    ] as [(String, TimeInterval)])
    func iso8601(_ text: String, _ expected: TimeInterval) {
        let parsed = FeedDateParser.parse(text)?.timeIntervalSince1970
        #expect(parsed.map { abs($0 - expected) < 0.000_001 } == true, "\(text) → \(String(describing: parsed))")
    }

    @Test("garbage is nil", arguments: [
        "", "   ", "unknown", "sometime last week", "Mon, 13 Jul", "13 Foo 2020 04:00:00",
        "Mon, 32 Jul 2020 04:00:00 GMT", "Mon, 31 Jun 2020 04:00:00 GMT", "Thu, 29 Feb 2001 00:00:00 GMT",
        "Mon, 13 Jul 2020 25:00:00 GMT", "Mon, 13 Jul 2020 04:61:00 GMT", "Mon, 13 Jul 2020 04:00:00 +9999",
        "2020-13-01T00:00:00Z", "2020-07-13T04:00:00Q", "2020-07-13T04", "2020-07-13T04:00:00+25:00",
        "1594612800", "13/07/2020", "Mon, 13 Jul 99999 04:00:00 GMT", "Mon, 0 Jul 2020 04:00:00 GMT",
    ])
    func garbage(_ text: String) {
        #expect(FeedDateParser.parse(text) == nil, "\(text)")
    }

    /// The canonical form is read by a shortcut at fixed positions; on these,
    /// valid and not, near that form and in it, it must answer as the general reader does.
    @Test("the canonical RFC 822 shortcut agrees with the general reader", arguments: [
        "Mon, 13 Jul 2020 04:00:00 +0000", "Mon, 13 Jul 2020 04:00:00 -0000", "Mon, 13 Jul 2020 04:00:00 GMT",
        "MON, 13 JUL 2020 04:00:00 gmt", "Fri, 13 Jul 2020 04:00:00 +0000", "Mon, 13 Jul 2020 00:00:00 -0400",
        "Mon, 13 Jul 2020 05:30:00 +0130", "Sun, 12 Jul 2020 21:00:00 -0700", "Tue, 29 Feb 2000 00:00:00 GMT",
        "Wed, 31 Dec 1969 23:59:59 GMT", "Mon, 02 May 1960 09:05:01 +0100", "Mon, 13 Jul 2020 24:00:00 +0000",
        "Mon, 13 Jul 2020 23:59:60 +0000", "Mon, 13 Jul 2020 04:00:00 +1800", "Mon, 13 Jul 2020 04:00:00 +1900",
        "Mon, 13 Jul 2020 04:00:00 +0060", "Mon, 13 Jul 2020 04:00:00 +9999", "Mon, 32 Jul 2020 04:00:00 GMT",
        "Mon, 31 Jun 2020 04:00:00 GMT", "Thu, 29 Feb 2001 00:00:00 GMT", "Mon, 00 Jul 2020 04:00:00 GMT",
        "Mon, 13 Jul 0000 04:00:00 GMT", "Mon, 13 Jul 9999 23:59:59 -1800", "Mon, 13 Jul 2020 25:00:00 GMT",
        "Mon, 13 Jul 2020 04:61:00 GMT", "Mon, 13 Foo 2020 04:00:00 GMT", "Foo, 13 Jul 2020 04:00:00 GMT",
        "Mon, 13 Jul 2020 04:00:00 EST", "Mon, 13 Jul 2020 04:00:00 UTC", "Mon, 13 Jul 2020 04:00:00 *0000",
        "Mon; 13 Jul 2020 04:00:00 +0000", "Mon, 13 Jul 2020 04.00.00 +0000", "Mon, 1a Jul 2020 04:00:00 +0000",
        "M0n, 13 Jul 2020 04:00:00 +0000", "Mon, 13 J1l 2020 04:00:00 +0000", "Mon, 13 Jul 2020 04:00:00 +00:0",
        " Mon, 13 Jul 2020 04:00:00 GMT", "Mon, 13 Jul 2020 04:00:00 GMT ", "Mon, 13 Jul 2020 04:00:00 +000a",
        "Mon, 13 Jul 2020 04:00:00 G1T", "Mon, 13 Jul 2020 04:00:00 +0000\u{301}", "Mön, 13 Jul 2020 04:00:00 GMT",
    ])
    func canonicalShortcut(_ text: String) {
        #expect(FeedDateParser.parse(text) == FeedDateParser.parseWithoutShortcut(text), "\(text)")
    }
}
