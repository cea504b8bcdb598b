import Bindings
import Foundation
import TrackcastCore

/// Plays one URI to the end without a display, reporting on a terminal:
/// what `trackcast play` runs. It prints each state change and, while
/// playing, the position twice a second; Ctrl-C (SIGINT) or SIGTERM stops
/// playback cleanly. Needs the GLib main loop running the main thread.
@MainActor
public final class TerminalPlayer {
    /// Exit statuses: 0 played to the end, 1 failed, 130 interrupted (128 + SIGINT, as shells do).
    public enum Status {
        public static let ended: Int32 = 0
        public static let failed: Int32 = 1
        public static let interrupted: Int32 = 130
    }

    private let configuration: PlayerConfiguration
    private let print: @Sendable (String) -> Void
    private let printError: @Sendable (String) -> Void

    /// `configuration` is used as given except that video is never decoded
    /// and nothing is probed for details: a terminal shows no cover art or codecs.
    public init(configuration: PlayerConfiguration = .fromEnvironment(),
                print: @escaping @Sendable (String) -> Void,
                printError: @escaping @Sendable (String) -> Void) {
        var headless = configuration
        headless.decodesVideo = false
        headless.probesAssets = false
        self.configuration = headless
        self.print = print
        self.printError = printError
    }

    /// Plays `uri` from `start` at `rate` with `effects`; returns the exit
    /// status. With skip silence on, the last line says how much listening
    /// time it saved: "saved 5.100 s by skipping silence".
    public func play(_ uri: String, startingAt start: Duration? = nil, rate: PlaybackRate = .normal,
                     effects: ListeningEffects = ListeningEffects()) async -> Int32 {
        let controller: PlayerController
        do {
            controller = try PlayerController(configuration: configuration)
        } catch {
            printError("cannot set up playback: \(error)")
            return Status.failed
        }
        controller.setRate(rate)
        controller.setListeningEffects(effects)
        let id = controller.load(PlaybackItem(uri: uri, kind: .audio), startingAt: start)

        let (outcomes, outcome) = AsyncStream.makeStream(of: Int32.self)
        let signals = [SIGINT, SIGTERM].map { signal in
            UnixSignalWatch(signal: signal) { outcome.yield(Status.interrupted) }
        }
        // Unbounded: a terminal log should show every state, not just the latest.
        let states = await controller.store.updates(bufferingPolicy: .unbounded)
        let stateTask = Task { [print, printError] in
            for await state in states where state.itemID == id {
                print("state \(state.phase)")
                switch state.phase {
                case .ended:
                    outcome.yield(Status.ended)
                case .failed(let error):
                    printError("cannot play \(uri): \(error.message) [\(error.code)]")
                    outcome.yield(Status.failed)
                default:
                    break
                }
            }
        }
        let tickTask = Task { [print] in
            for await tick in controller.positionTicks(of: id) {
                // An HTTP file's length can be unknown for its first tick; only a live stream is "live".
                let length = tick.duration.map(Self.clock) ?? (controller.asset?.isLive == true ? "live" : "--:--")
                print("position \(Self.clock(tick.position)) / \(length)")
            }
        }

        var status = Status.failed
        for await first in outcomes {
            status = first
            break
        }
        if status == Status.interrupted { print("interrupted") }
        if effects.skipsSilence {
            let seconds = Double(controller.timeSavedBySkippingSilence / .milliseconds(1)) / 1000
            print("saved \(String(format: "%.3f", seconds)) s by skipping silence")
        }
        controller.stop()
        stateTask.cancel()
        tickTask.cancel()
        for watch in signals { watch.cancel() }
        return status
    }

    /// "1:02:03.4", "2:03.4".
    nonisolated static func clock(_ duration: Duration) -> String {
        let tenths = Int(duration / .milliseconds(100))
        let seconds = tenths / 10
        let (hours, minutes, secondsPart) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let tail = String(format: "%02d.%d", secondsPart, tenths % 10)
        return hours > 0 ? String(format: "%d:%02d:", hours, minutes) + tail : "\(minutes):\(tail)"
    }
}
