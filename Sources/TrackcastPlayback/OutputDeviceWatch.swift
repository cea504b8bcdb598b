import Bindings
import Foundation
import Synchronization
import TrackcastCore

/// Notices when the output the current item plays on goes away (headphones
/// on a USB or Bluetooth sink unplugged), so the controller can pause as
/// phones do, rather than play on from the speakers.
///
/// pulsesink posts nothing on the bus for it. PulseAudio (and PipeWire's
/// pulse server) removes the sink, then moves its streams to the default
/// sink; pulsesink only notifies `current-device` from its streaming
/// thread after any change to its stream. So each notification reads the
/// device, and when it changed asks the server, afresh, whether the sink it
/// left still exists: a sink left behind by a move the listener made stays.
/// (When no sink is left at all, the server kills the stream instead and
/// pulsesink fails with "Disconnected"; that is not handled here.)
final class OutputDeviceWatch: Sendable {
    private struct State {
        var itemID: PlaybackItemID?
        /// The sink the item's stream was last seen on.
        var device: String?
    }

    private let state = Mutex(State())
    private let lost: @Sendable (PlaybackItemID) -> Void

    /// `lost` is called, on some thread, with the item whose output went away.
    init(lost: @escaping @Sendable (PlaybackItemID) -> Void) {
        self.lost = lost
    }

    /// A new item: its stream's device is not known yet. Called with the
    /// pipeline at NULL, so no notification of the last item's can follow.
    func begin(_ id: PlaybackItemID) {
        state.withLock { $0 = State(itemID: id) }
    }

    /// Watches `element` if it is a PulseAudio sink; for playbin's `element-setup`.
    func watch(_ element: Element) {
        guard element.factoryName == "pulsesink", element.markFirstTime("trackcast-output-watch") else { return }
        element.onPropertyChangeFromAnyThread("current-device") { [weak self] sink in self?.deviceMayHaveChanged(sink) }
    }

    /// On the streaming thread, before pulsesink takes its server's lock, so
    /// the property may be read (a round trip to the server, after a change
    /// to the stream only).
    private func deviceMayHaveChanged(_ sink: Element) {
        guard let device = try? sink.property("current-device", as: String.self), !device.isEmpty else { return }
        let change: (left: String, itemID: PlaybackItemID)? = state.withLock { state in
            defer { state.device = device }
            guard let left = state.device, left != device, let itemID = state.itemID else { return nil }
            return (left, itemID)
        }
        guard let change else { return }
        Log.debug("playback \(change.itemID): output moved from \(change.left) to \(device)")
        let server = try? sink.property("server", as: String.self)
        // Off the streaming thread: the query opens a connection of its own.
        DispatchQueue.global().async { [lost] in
            guard let sinks = AudioSinks.names(from: "pulsedeviceprovider", server: server),
                  !sinks.contains(change.left) else { return }
            lost(change.itemID)
        }
    }
}
