import Foundation
import Testing
@testable import TrackcastLibrary

/// The decisions taken about interstitials while a stream plays: when one
/// starts, where the primary resumes, whether a seek goes where it was asked.
@Suite("Interstitial schedule")
struct InterstitialScheduleTests {
    static let asset = URL(string: "https://example.org/ad.m3u8")!
    /// At 4 s, resuming 3 s on; and a locked one at 12 s with no offset.
    static let first = HLSInterstitial(id: "first", start: 4, duration: 3, assetURI: asset, resumeOffset: 3)
    static let locked = HLSInterstitial(id: "locked", start: 12, duration: 2, assetURI: asset,
                                        forbidsSkip: true, forbidsJump: true)
    static let listed = HLSInterstitial(id: "listed", start: 8, assetList: URL(string: "https://example.org/l.json"))

    @Test("each plays when playback crosses its start, once: played ones are not due again")
    func dueOnce() {
        var schedule = InterstitialSchedule([Self.locked, Self.first])
        #expect(schedule.pendingStarts == [4, 12])
        #expect(schedule.due(at: 4) == Self.first)
        #expect(schedule.due(at: 5) == nil)
        schedule.markPlayed(Self.first)
        #expect(schedule.due(at: 4) == nil)
        #expect(schedule.pendingStarts == [12])
    }

    @Test("read with playback at or just past an unplayed one's start (a pre-roll), that one plays at once")
    func dueOnArrival() {
        let preroll = HLSInterstitial(id: "pre", start: 0, assetURI: Self.asset, resumeOffset: 0)
        var schedule = InterstitialSchedule([preroll, Self.first])
        #expect(schedule.dueOnArrival(at: 0) == preroll)
        #expect(schedule.dueOnArrival(at: 0.3) == preroll)
        #expect(schedule.dueOnArrival(at: 1) == nil)
        #expect(schedule.dueOnArrival(at: 3.9) == nil)
        #expect(schedule.dueOnArrival(at: 4.2) == Self.first)
        schedule.markPlayed(preroll)
        #expect(schedule.dueOnArrival(at: 0) == nil)
    }

    @Test("an asset list is marked but not played")
    func assetListNotPlayed() {
        let schedule = InterstitialSchedule([Self.listed])
        #expect(schedule.pendingStarts == [])
        #expect(schedule.due(at: 8) == nil)
    }

    @Test("the primary resumes at the start plus the resume offset, else plus the asset's length")
    func resumePosition() {
        #expect(InterstitialSchedule.resumePosition(after: Self.first, assetDuration: 2) == 7)
        #expect(InterstitialSchedule.resumePosition(after: Self.locked, assetDuration: 2.5) == 14.5)
        // Neither offset nor the asset's length: the date range's duration.
        #expect(InterstitialSchedule.resumePosition(after: Self.locked, assetDuration: nil) == 14)
        let zero = HLSInterstitial(id: "z", start: 10, assetURI: Self.asset, resumeOffset: 0)
        #expect(InterstitialSchedule.resumePosition(after: zero, assetDuration: 30) == 10)
    }

    @Test("a forward seek over an unplayed JUMP-restricted one plays it first; back, or over a free one, goes straight")
    func seekOverRestricted() {
        var schedule = InterstitialSchedule([Self.first, Self.locked])
        #expect(schedule.seek(from: 0, to: 10) == .go)
        #expect(schedule.seek(from: 0, to: 15) == .playFirst(Self.locked))
        #expect(schedule.seek(from: 12, to: 13) == .playFirst(Self.locked))
        #expect(schedule.seek(from: 15, to: 0) == .go)
        schedule.markPlayed(Self.locked)
        #expect(schedule.seek(from: 0, to: 15) == .go)
    }

    @Test("a seek while a SKIP-restricted one plays is refused; in a free one it goes")
    func seekDuring() {
        #expect(InterstitialSchedule.seek(during: Self.locked) == .refused)
        #expect(InterstitialSchedule.seek(during: Self.first) == .go)
    }
}
