import Foundation
import Testing
import TrackcastLibrary

@Suite("duration parser")
struct FeedDurationParserTests {
    @Test("formats feeds use", arguments: [
        ("3600", 3600),
        ("0", 0),
        ("128", 128),
        ("61.5", 61.5),
        ("00:00", 0),
        ("00:20", 20),
        ("01:02", 62),
        ("61:08", 3668),
        ("1:00:00", 3600),
        ("01:00:00", 3600),
        ("00:00:20", 20),
        ("1:02:03", 3723),
        ("1:02:03.5", 3723.5),
        ("01:02:03.400", 3723.4),
        ("25:03:30", 90210),
        ("25:3:30", 90210),
        (" 03:02:01 ", 10921),
        ("\n 45:00\n", 2700),
    ] as [(String, TimeInterval)])
    func formats(_ text: String, _ expected: TimeInterval) {
        let seconds = FeedDurationParser.seconds(from: text)
        #expect(seconds.map { abs($0 - expected) < 0.000_001 } == true, "\(text) → \(String(describing: seconds))")
    }

    @Test("garbage is nil", arguments: [
        "", " ", "garbage", "45 min", "1h 2m", "PT1H", "-60", "1,5", "1:2:3:4", ":30", "1:", "1::2",
        "1:234", "1.5:30", "1.", ".5", "12345678901234567890", "1:02:03.5.6", "NaN", "inf",
    ])
    func garbage(_ text: String) {
        #expect(FeedDurationParser.seconds(from: text) == nil, "\(text)")
    }
}
