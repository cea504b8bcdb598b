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

    @Test("each plays when playback crosses its start; once played it is not due again (until a seek goes back before it)")
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

    @Test("one with an asset list plays like one with an asset")
    func assetListPlays() {
        var schedule = InterstitialSchedule([Self.listed])
        #expect(schedule.pendingStarts == [8])
        #expect(schedule.due(at: 8) == Self.listed)
        schedule.markPlayed(Self.listed)
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

    @Test("after an asset list without a resume offset, the primary resumes at the start plus the assets' summed lengths")
    func resumeAfterList() {
        let listed = HLSInterstitial(id: "l", start: 20, duration: 10, assetList: URL(string: "https://example.org/l.json"))
        #expect(InterstitialSchedule.resumption(after: listed, assetDuration: 4, leftAt: 20.3, isLive: false) == .at(24))
        // None played: the date range's duration.
        #expect(InterstitialSchedule.resumption(after: listed, assetDuration: nil, leftAt: 20.3, isLive: false) == .at(30))
    }

    @Test("PRE plays on arrival wherever playback starts, then hands on to where the primary was to start")
    func preroll() {
        let pre = HLSInterstitial(id: "pre", start: 30, assetURI: Self.asset, resumeOffset: 5, cue: [.pre])
        var schedule = InterstitialSchedule([Self.first, pre])
        // Not on the timeline: never crossed, never played first by a seek.
        #expect(schedule.pendingStarts == [4])
        #expect(schedule.due(at: 30) == nil)
        #expect(schedule.seek(from: 0, to: 40) == .go)
        #expect(schedule.dueOnArrival(at: 0) == pre)
        #expect(schedule.dueOnArrival(at: 4.2) == pre)
        #expect(InterstitialSchedule.resumption(after: pre, assetDuration: 2, leftAt: 12, isLive: false) == .at(12))
        schedule.markPlayed(pre)
        #expect(schedule.dueOnArrival(at: 0) == nil)
        #expect(schedule.dueOnArrival(at: 4.2) == Self.first)
        // A seek back does not bring it back.
        schedule.sought(to: 0)
        #expect(schedule.dueOnArrival(at: 0) == nil)
    }

    @Test("POST plays once the primary has ended, once, and the primary stays ended after it")
    func postroll() {
        let post = HLSInterstitial(id: "post", start: 2, assetURI: Self.asset, cue: [.post])
        var schedule = InterstitialSchedule([post, Self.first])
        #expect(schedule.pendingStarts == [4])
        #expect(schedule.dueOnArrival(at: 2) == nil)
        #expect(schedule.dueAtEnd == post)
        #expect(InterstitialSchedule.resumption(after: post, assetDuration: 2, leftAt: 60, isLive: false) == .ended)
        schedule.markPlayed(post)
        #expect(schedule.dueAtEnd == nil)
        schedule.sought(to: 0)
        #expect(schedule.dueAtEnd == nil)
    }

    @Test("without ONCE, a seek back before a played one makes it due again; with ONCE, never; resuming at its start does not")
    func onceAndAgain() {
        let once = HLSInterstitial(id: "once", start: 12, assetURI: Self.asset, resumeOffset: 0, cue: [.once])
        let again = HLSInterstitial(id: "again", start: 4, assetURI: Self.asset, resumeOffset: 0)
        var schedule = InterstitialSchedule([once, again])
        schedule.markPlayed(again)
        schedule.markPlayed(once)
        // Resumed at its start (an offset of 0), or sought past it: not again.
        let atStart = schedule.sought(to: 4), past = schedule.sought(to: 20)
        #expect(!atStart && !past)
        #expect(schedule.pendingStarts == [])
        let before = schedule.sought(to: 1)
        #expect(before)
        #expect(schedule.pendingStarts == [4])
        #expect(schedule.due(at: 4) == again)
        #expect(schedule.due(at: 12) == nil)
    }

    @Test("a live stream goes back to its edge after one on its timeline")
    func liveResumption() {
        #expect(InterstitialSchedule.resumption(after: Self.first, assetDuration: 2, leftAt: 4, isLive: true) == .liveEdge)
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

    @Test("a live playlist read again: a new one is scheduled, one still to come that is gone is dropped, one slid out of the window or played is kept")
    func reloaded() {
        let early = HLSInterstitial(id: "early", start: 2, assetURI: Self.asset)
        let withdrawn = HLSInterstitial(id: "withdrawn", start: 30, assetURI: Self.asset)
        let played = HLSInterstitial(id: "played", start: 20, assetURI: Self.asset)
        var schedule = InterstitialSchedule([early, withdrawn, played, Self.first])
        schedule.markPlayed(played)
        // Unchanged: nothing to do.
        let unchanged = schedule.reloaded([early, withdrawn, played, Self.first], windowStart: 0)
        #expect(!unchanged)
        // The window now starts at 10 s: "early" and "first" slid out with their segments, "played" is gone
        // after playing, "withdrawn" is gone before its time; "late" and a PRE one are new.
        let late = HLSInterstitial(id: "late", start: 40, assetURI: Self.asset)
        let pre = HLSInterstitial(id: "pre", start: 0, assetURI: Self.asset, cue: [.pre])
        let changed = schedule.reloaded([late, pre], windowStart: 10)
        #expect(changed)
        #expect(schedule.interstitials.map(\.id) == ["pre", "early", "first", "played", "late"])
        #expect(schedule.pendingStarts == [2, 4, 40])
        // The item has started: a PRE one that comes later does not play.
        #expect(schedule.dueOnArrival(at: 0) == nil)
        #expect(schedule.dueOnArrival(at: 2.2) == early)
        #expect(schedule.played == ["played", "pre"])
    }
}
