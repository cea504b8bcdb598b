import Bindings
import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastLibrary
import TrackcastMPRIS
import TrackcastPlayback
@testable import TrackcastUI

/// The owner of what plays, in this process, against a model of what its
/// commands mean: random sequences of the window's commands and MPRIS calls
/// (through the service's own handler, without the bus), quickly one after
/// another and now and then while a play is still being prepared. After
/// each sequence the owner, the real player (GStreamer, into a fakesink)
/// and MPRIS must come to what the model says: the item last asked for,
/// playing, paused or stopped as the last command said. Faster than the
/// app-level interleavings, so many more sequences.
///
/// TRACKCAST_MODEL_SEQUENCES sets how many (1,000 by default);
/// TRACKCAST_MODEL_SEED replays a failure (the seed is in every failure message).
@Suite("The owner of what plays, against a model")
@MainActor
struct NowPlayingModelTests {
    /// What the last commands mean for the listener.
    private enum Intent: String {
        case playing, paused, stopped
    }

    private struct Model {
        var title: String?
        var intent = Intent.stopped

        mutating func played(_ newTitle: String) {
            title = newTitle
            intent = .playing
        }

        mutating func play() { if title != nil { intent = .playing } }
        mutating func pause() { if intent == .playing { intent = .paused } }
        mutating func toggle() { intent == .playing ? pause() : play() }
        mutating func stop() { if title != nil { intent = .stopped } }
    }

    /// Plays what MPRIS asks through the owner, as the app does; the queue is empty.
    @MainActor
    private final class Host: MPRISHost {
        unowned let owner: NowPlaying
        init(owner: NowPlaying) { self.owner = owner }
        func play() { owner.play() }
        func pause() { owner.pause() }
        func playPause() { owner.togglePlayPause() }
        func stop() { owner.stop() }
        func seek(to position: Duration) { owner.seek(to: position) }
        func setRate(_ rate: Double) { owner.setRate(rate) }
        func setVolume(_ volume: Double) { owner.setVolume(volume) }
        var canRaise: Bool { false }
        func raise() {}
        func quit() {}
        var canGoNext: Bool { false }
        var hasPrevious: Bool { false }
        func next() {}
        func previous() {}
        func open(uri: String) {}
        func libraryMetadata(forURI uri: String) -> MPRISLibraryMetadata? { owner.metadata(forURI: uri) }
    }

    @Test("random commands from the window and MPRIS: the owner, the player and MPRIS always come to what the model says")
    func randomCommandsAgainstTheModel() async throws {
        GLibPump.start()
        let environment = ProcessInfo.processInfo.environment
        let count = environment["TRACKCAST_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 1000
        let seed = SplitMix64.seed(fromEnvironment: "TRACKCAST_MODEL_SEED")
        var random = SplitMix64(seed: seed)
        let replay = "seed \(seed) (TRACKCAST_MODEL_SEED=\(seed) to replay)"

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-model-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [try await RunningAppTests.minuteOfAudio(), try await RunningAppTests.minuteOfAudio()]
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        // MPRIS off the bus: its handler is called directly, and thousands of
        // PropertiesChanged would crowd the bus the other suites' playerctl uses.
        let owner = try await NowPlaying.inProcess(libraryIn: folder)
        let host = Host(owner: owner)
        owner.mprisHost = host
        var model = Model()
        var commandsSent = 0
        for sequence in 0..<count {
            var sent: [String] = []
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                sent.append(send(Int.random(in: 0..<12, using: &random), to: owner, model: &model, files: files, using: &random))
                // Now and then a turn of the main loop, so a play being prepared may or may not be loaded yet.
                if Bool.random(using: &random) { await Task.yield() }
            }
            commandsSent += sent.count
            let context = "sequence \(sequence) of \(replay): \(sent.joined(separator: "; "))"
            let disagreement = await settle(owner, to: model)
            try #require(disagreement == nil, "\(disagreement ?? ""); model: \(model.title ?? "-") \(model.intent) after \(context)")
            // Room for the suites running beside it on the same main actor.
            try await Task.sleep(for: .milliseconds(2))
        }
        print("model: \(count) sequences, \(commandsSent) commands, \(replay)")
        owner.stop()
        owner.mpris?.stop()
    }

    /// Sends command `kind` and moves the model as it means; returns what was sent, for failure messages.
    private func send(_ kind: Int, to owner: NowPlaying, model: inout Model, files: [URL],
                      using random: inout SplitMix64) -> String {
        let mpris = owner.mpris
        func call(_ method: String, _ arguments: [Variant] = []) {
            _ = mpris?.handleCall(interface: "org.mpris.MediaPlayer2.Player", method: method,
                                  parameters: Variant(tuple: arguments))
        }
        switch kind {
        case 0, 1:
            let file = files.randomElement(using: &random)!
            owner.play(NowPlaying.Item(uri: file.absoluteString, title: file.lastPathComponent, showTitle: nil, kind: .audio,
                                       episode: nil, show: nil))
            model.played(file.lastPathComponent)
            return "play \(file.lastPathComponent)"
        case 2:
            owner.togglePlayPause()
            model.toggle()
            return "play-pause"
        case 3:
            owner.stop()
            model.stop()
            return "stop"
        case 4:
            let target = Duration.seconds(Int.random(in: 0...30, using: &random))
            owner.seek(to: target)
            return "seek \(target)"
        case 5:
            guard mpris != nil else { return "MPRIS not yet published" }
            call("Play")
            model.play()
            return "MPRIS Play"
        case 6:
            guard mpris != nil else { return "MPRIS not yet published" }
            call("Pause")
            model.pause()
            return "MPRIS Pause"
        case 7:
            guard mpris != nil else { return "MPRIS not yet published" }
            call("PlayPause")
            model.toggle()
            return "MPRIS PlayPause"
        case 8:
            guard mpris != nil else { return "MPRIS not yet published" }
            call("Stop")
            model.stop()
            return "MPRIS Stop"
        case 9:
            guard mpris != nil else { return "MPRIS not yet published" }
            let offset = Int64.random(in: -5...5, using: &random) * 1_000_000
            call("Seek", [Variant(offset)])
            return "MPRIS Seek \(offset)"
        case 10:
            owner.pause()
            model.pause()
            return "pause"
        default:
            owner.play()
            model.play()
            return "play"
        }
    }

    /// Waits (up to 20 s: the whole suite may be running beside it) for the owner, the player and MPRIS to agree with
    /// the model; what still disagrees then, or nil.
    private func settle(_ owner: NowPlaying, to model: Model) async -> String? {
        let deadline = ContinuousClock.now + .seconds(20)
        var found = await disagreement(owner, model)
        while found != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            found = await disagreement(owner, model)
        }
        return found
    }

    private func disagreement(_ owner: NowPlaying, _ model: Model) async -> String? {
        guard let title = model.title else { return owner.item == nil ? nil : "an item shows with none asked for" }
        guard owner.item?.title == title else { return "the owner shows \(owner.item?.title ?? "nothing")" }
        let mpris = owner.mpris?.property(interface: "org.mpris.MediaPlayer2.Player", name: "PlaybackStatus")?.string
        let track = owner.mpris?.property(interface: "org.mpris.MediaPlayer2.Player", name: "Metadata")
        guard model.intent != .stopped else {
            // Asked for and stopped before it was ready, it may never have been loaded: no player yet, no MPRIS.
            guard owner.player?.currentItemID == nil, owner.phase == .idle else {
                return "not stopped: the owner \(owner.phase), the player on \(String(describing: owner.player?.currentItemID))"
            }
            return mpris == nil || mpris == "Stopped" ? nil : "MPRIS says \(mpris ?? "") while stopped"
        }
        guard let player = owner.player else { return "no player" }
        let state = await player.store.state
        switch model.intent {
        case .stopped:
            break
        case .playing, .paused:
            guard let loaded = player.currentItemID, state.itemID == loaded else {
                return "the player's store is on \(state), not its item \(String(describing: player.currentItemID))"
            }
            guard player.currentItem?.title == title else { return "the player plays \(player.currentItem?.title ?? "nothing")" }
            let expected: (phases: [PlaybackPhase], status: String) = model.intent == .playing
                ? ([.playing], "Playing") : ([.paused, .ready(isLive: false)], "Paused")
            guard expected.phases.contains(state.phase), expected.phases.contains(owner.phase) else {
                return "the player is \(state.phase), the owner \(owner.phase)"
            }
            guard mpris == expected.status else { return "MPRIS says \(mpris ?? "nothing")" }
            guard "\(track.map { "\($0)" } ?? "")".contains("/Track/\(loaded.rawValue)'") else {
                return "MPRIS names another track: \(track.map { "\($0)" } ?? "none")"
            }
        }
        return nil
    }
}
