import Foundation
import TestSupport
import Testing
import TrackcastCore
import TrackcastPlayback

extension PlaybackEngine {
    /// Skip silence and voice boost, heard through a WAV file written by
    /// the player's audio sink and measured sample by sample.
    @Suite("Listening effects")
    @MainActor
    struct ListeningEffectsTests {
        /// Pauses of 1, 2.5 and 4 s, and one of 0.2 s that is too short to touch.
        static let talk = TalkLikeAudio(parts: [
            .talk(seconds: 2), .pause(seconds: 1), .talk(seconds: 1.5), .pause(seconds: 2.5),
            .talk(seconds: 1), .pause(seconds: 0.2), .talk(seconds: 1), .pause(seconds: 4), .talk(seconds: 1),
        ])

        enum Encoding: String, CaseIterable, Sendable { case wav, opus }

        @Test("Skip silence saves each pause's length beyond what it keeps, within 10 %, and the talk comes through whole",
              arguments: Encoding.allCases)
        func skipsSilence(_ encoding: Encoding) async throws {
            let folder = try Self.folder()
            let input = try Self.file(Self.talk, encoding, in: folder)
            let output = folder.appendingPathComponent("out-\(encoding).wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: false) }
            player.controller.setListeningEffects(ListeningEffects(skipsSilence: true))
            let id = player.controller.load(PlaybackItem(uri: input.absoluteString, kind: .audio))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(30)))

            let expected = Self.talk.silence(beyond: ListeningEffects.keptSilence.seconds)
            let saved = player.controller.timeSavedBySkippingSilence.seconds
            #expect(abs(saved - expected) <= expected * 0.1, "saved \(saved) s, expected \(expected) s")

            let original = Self.talk.samples()
            let played = try TalkLikeAudio.readWAV(output)
            let playedSeconds = Double(played.samples.count) / Double(played.rate)
            let originalSeconds = Double(original.count) / Double(TalkLikeAudio.rate)
            #expect(abs(originalSeconds - playedSeconds - expected) <= expected * 0.1,
                    "played \(playedSeconds) s of \(originalSeconds) s")
            // Every 10 ms of talk is there, at its own level.
            let talk = TalkLikeAudio.talkSeconds(original, rate: TalkLikeAudio.rate)
            let playedTalk = TalkLikeAudio.talkSeconds(played.samples, rate: played.rate)
            #expect(abs(playedTalk - talk) <= talk * 0.01, "talk \(playedTalk) s of \(talk) s")
            let energy = TalkLikeAudio.talkEnergy(original, rate: TalkLikeAudio.rate)
            let playedEnergy = TalkLikeAudio.talkEnergy(played.samples, rate: played.rate)
            #expect(abs(playedEnergy - energy) <= energy * 0.03, "talk energy \(playedEnergy) of \(energy)")
        }

        @Test("Skip silence switched on between items applies to the next one, whose chain was made before")
        func skipsSilenceOnNextItem() async throws {
            let folder = try Self.folder()
            let input = try Self.file(Self.talk, .wav, in: folder)
            let output = folder.appendingPathComponent("out-next-item.wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: false) }
            // Playing, the player makes the next item's chain, with the effects off.
            let first = player.controller.load(PlaybackItem(uri: input.absoluteString, kind: .audio))
            #expect(await player.recorder.waitFor(.playing, of: first))
            player.controller.setListeningEffects(ListeningEffects(skipsSilence: true))
            let id = player.controller.load(PlaybackItem(uri: input.absoluteString, kind: .audio))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(30)))

            let expected = Self.talk.silence(beyond: ListeningEffects.keptSilence.seconds)
            let saved = player.controller.timeSavedBySkippingSilence.seconds
            #expect(abs(saved - expected) <= expected * 0.1, "saved \(saved) s, expected \(expected) s")
        }

        @Test("Skip silence switched on while playing cuts the pauses after that, with no state change, and positions stay the media's")
        func skipsSilenceLive() async throws {
            let talk = TalkLikeAudio(parts: [
                .talk(seconds: 1), .pause(seconds: 2), .talk(seconds: 1), .pause(seconds: 2), .talk(seconds: 1.5),
            ])
            let folder = try Self.folder()
            let input = try Self.file(talk, .wav, in: folder)
            let output = folder.appendingPathComponent("out-live-skip.wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: true) }
            let id = try await player.play(input.absoluteString)
            let ticks = Self.collectPositions(of: id, from: player.controller)
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .milliseconds(1500) })
            #expect(player.controller.timeSavedBySkippingSilence == .zero)
            player.controller.setListeningEffects(ListeningEffects(skipsSilence: true))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(20)))

            // At least the whole second pause less what is kept; at most both.
            let saved = player.controller.timeSavedBySkippingSilence.seconds
            #expect(saved >= 1.7 * 0.9 && saved <= 3.4, "saved \(saved) s")
            let states = player.recorder.states(of: id)
            let afterPlaying = states.drop { $0 != .playing }.dropFirst()
            #expect(Array(afterPlaying) == [.ended], "states \(states)")
            // The sink heard the talk once, nothing replayed or lost.
            let played = try TalkLikeAudio.readWAV(output)
            let talkSeconds = TalkLikeAudio.talkSeconds(talk.samples(), rate: TalkLikeAudio.rate)
            #expect(abs(TalkLikeAudio.talkSeconds(played.samples, rate: played.rate) - talkSeconds) <= talkSeconds * 0.01)
            // Positions are the media's: the last ones reach the end of the
            // 7.5 s file, not 7.5 s less what was cut.
            ticks.cancel()
            let positions = await ticks.value
            #expect((positions.max() ?? .zero) >= .seconds(6), "positions \(positions)")
            #expect(positions == positions.sorted(), "positions went back: \(positions)")
        }

        @Test("Voice boost raises quiet talk by more than 8 dB and keeps loud talk within 6 dB of where it was")
        func boostsVoice() async throws {
            let talk = TalkLikeAudio(parts: [.talk(seconds: 2, peakDB: -6), .talk(seconds: 2, peakDB: -40)])
            let folder = try Self.folder()
            let input = try Self.file(talk, .wav, in: folder)
            let output = folder.appendingPathComponent("out-boost.wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: false) }
            player.controller.setListeningEffects(ListeningEffects(boostsVoice: true))
            let id = player.controller.load(PlaybackItem(uri: input.absoluteString, kind: .audio))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(20)))

            let original = talk.samples()
            let played = try TalkLikeAudio.readWAV(output)
            #expect(played.samples.count == original.count)
            let loud = Self.level(original, 0.3..<1.8), boostedLoud = Self.level(played.samples, 0.3..<1.8)
            let quiet = Self.level(original, 2.3..<3.8), boostedQuiet = Self.level(played.samples, 2.3..<3.8)
            #expect(boostedQuiet - quiet > 8, "quiet talk \(quiet) → \(boostedQuiet) dBFS")
            #expect(abs(boostedLoud - loud) < 6, "loud talk \(loud) → \(boostedLoud) dBFS")
            #expect(played.samples.allSatisfy { abs($0) < 0.99 }, "clipped")
        }

        @Test("Voice boost switched on while playing raises what follows, with no state change, the position advancing")
        func boostsVoiceLive() async throws {
            let talk = TalkLikeAudio(parts: [.talk(seconds: 5, peakDB: -40)])
            let folder = try Self.folder()
            let input = try Self.file(talk, .wav, in: folder)
            let output = folder.appendingPathComponent("out-live-boost.wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: true) }
            let id = try await player.play(input.absoluteString)
            let ticks = Self.collectPositions(of: id, from: player.controller)
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .milliseconds(1500) })
            player.controller.setListeningEffects(ListeningEffects(boostsVoice: true))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(20)))

            let states = player.recorder.states(of: id)
            #expect(Array(states.drop { $0 != .playing }.dropFirst()) == [.ended], "states \(states)")
            let original = talk.samples()
            let played = try TalkLikeAudio.readWAV(output)
            #expect(played.samples.count == original.count, "the whole file once, nothing replayed")
            let before = Self.level(played.samples, 0.2..<1.2), after = Self.level(played.samples, 3.5..<4.8)
            #expect(abs(before - Self.level(original, 0.2..<1.2)) < 0.5, "untouched before the switch")
            #expect(after - Self.level(original, 3.5..<4.8) > 8, "boosted after the switch")
            ticks.cancel()
            let positions = await ticks.value
            #expect(positions.count >= 4 && positions == positions.sorted(), "positions \(positions)")
        }

        /// An item starts without the time-stretcher when it plays at 1×; a
        /// rate set while it plays puts it in, from the streaming thread.
        @Test("a rate set while playing goes through the time-stretcher: the rest takes half the time")
        func rateWhilePlaying() async throws {
            let talk = TalkLikeAudio(parts: [.talk(seconds: 5, peakDB: -12)])
            let folder = try Self.folder()
            let input = try Self.file(talk, .wav, in: folder)
            let output = folder.appendingPathComponent("out-live-rate.wav")
            let player = try await TestPlayer { $0.audioSink = Self.wavSink(output, sync: true) }
            defer { player.controller.setRate(.normal) }
            let id = try await player.play(input.absoluteString)
            #expect(await player.waitUntil { (player.controller.position ?? .zero) >= .seconds(1) })
            let switchedAt = (player.controller.position ?? .zero).seconds
            player.controller.setRate(PlaybackRate(2.0))
            #expect(await player.recorder.waitFor(.ended, of: id, timeout: .seconds(20)))

            // The rate changes with a flushing seek, at which wavenc starts
            // its file again: it holds what was played after the switch.
            let played = try TalkLikeAudio.readWAV(output)
            let playedSeconds = Double(played.samples.count) / Double(played.rate)
            let expected = (5 - switchedAt) / 2
            #expect(abs(playedSeconds - expected) < 0.3,
                    "\(playedSeconds) s written, \(expected) s expected after a switch at \(switchedAt) s")
            let states = player.recorder.states(of: id)
            #expect(Array(states.drop { $0 != .playing }.dropFirst()).last == .ended, "states \(states)")
        }

        // MARK: Helpers

        /// A wavenc file sink; `sync` plays in real time (for live switches), otherwise as fast as it can.
        static func wavSink(_ url: URL, sync: Bool) -> String {
            "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink sync=\(sync) location=\(url.path)"
        }

        static func folder() throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-listening-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }

        static func file(_ talk: TalkLikeAudio, _ encoding: Encoding, in folder: URL) throws -> URL {
            let file = folder.appendingPathComponent("talk-\(UUID().uuidString).\(encoding.rawValue)")
            try encoding == .opus ? talk.writeOpus(to: file) : talk.writeWAV(to: file)
            return file
        }

        static func level(_ samples: [Float], _ seconds: Range<Double>) -> Double {
            let rate = Double(TalkLikeAudio.rate)
            return TalkLikeAudio.level(samples[Int(seconds.lowerBound * rate)..<min(samples.count, Int(seconds.upperBound * rate))])
        }

        /// Every position tick of item `id` until the task is cancelled.
        static func collectPositions(of id: PlaybackItemID, from controller: PlayerController) -> Task<[Duration], Never> {
            let stream = controller.positionTicks(of: id)
            return Task {
                var positions: [Duration] = []
                for await tick in stream { positions.append(tick.position) }
                return positions
            }
        }
    }
}
