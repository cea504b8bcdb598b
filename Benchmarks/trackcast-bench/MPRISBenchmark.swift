import Bindings
import Foundation
import Synchronization
import TrackcastCore
import TrackcastMPRIS
import TrackcastPlayback

/// How soon a desktop shell hears of a change: from the player changing
/// (a new item, a pause) to `PropertiesChanged` with the new Metadata or
/// PlaybackStatus reaching another process on the session bus
/// (`dbus-monitor`, which stamps each message as it arrives). The floor is a
/// bare GDBus `PropertiesChanged` emitted on the same bus in the same run:
/// the bus's own latency, without the state store, the coalescing and the
/// snapshot.
@MainActor
struct MPRISBenchmark {
    var runs = 21

    private static let floorPath = "/org/trackcast/BenchFloor"

    func run() async throws -> [BenchRow] {
        GStreamer.initialize()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-bench-mpris-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tone = folder.appendingPathComponent("tone.opus")
        try PlaybackBenchmark.makeTone(at: tone, encoder: ["opusenc", "!", "oggmux"])

        var configuration = PlayerConfiguration()
        configuration.audioSink = "fakesink sync=true"
        configuration.decodesVideo = false
        let player = try PlayerController(configuration: configuration)
        let service = try MPRISService(player: player, host: nil, instance: "bench\(getpid())")
        let floor = FloorEmitter()
        let floorExport = try DBusObjectExport(busName: "org.trackcast.BenchFloor\(getpid())", objectPath: Self.floorPath,
                                               introspectionXML: FloorEmitter.introspection, handler: floor)
        service.start()
        floorExport.start()
        defer {
            service.stop()
            floorExport.stop()
        }
        let monitor = try BusMonitor(matching: "type='signal',member='PropertiesChanged'")
        defer { monitor.stop() }
        // The monitor is listening once it hears the floor's first signal.
        var warmUp = 0.0
        let listening = try await monitor.waitForSignal(after: Date().timeIntervalSince1970, containing: Self.floorPath) {
            warmUp += 1
            floorExport.emitPropertiesChanged(interface: FloorEmitter.interface, changed: ["Count": Variant(warmUp)])
        }
        guard listening != nil else { throw BenchFailure("dbus-monitor never heard a signal") }

        var itemChanges: [Double] = []
        var pauses: [Double] = []
        var floors: [Double] = []
        for run in 0...runs {
            let loadStart = Date().timeIntervalSince1970
            let id = player.load(PlaybackItem(uri: tone.absoluteString, kind: .audio))
            let trackID = "\(AppIdentity.objectPath)/Track/\(id.rawValue)"
            guard let loaded = try await monitor.waitForSignal(after: loadStart, containing: "object path \"\(trackID)\"")
            else { throw BenchFailure("no PropertiesChanged with the new item's Metadata") }
            guard await Self.plays(id, store: player.store) else { throw BenchFailure("the tone never played") }

            let pauseStart = Date().timeIntervalSince1970
            player.pause()
            guard let paused = try await monitor.waitForSignal(after: pauseStart, containing: "string \"Paused\"")
            else { throw BenchFailure("no PropertiesChanged with PlaybackStatus Paused") }

            let floorStart = Date().timeIntervalSince1970
            floorExport.emitPropertiesChanged(interface: FloorEmitter.interface, changed: ["Count": Variant(Double(run))])
            guard let floorHeard = try await monitor.waitForSignal(after: floorStart, containing: Self.floorPath)
            else { throw BenchFailure("the floor's signal never arrived") }
            // The first round warms up the pipeline, the bus and the monitor.
            if run > 0 {
                itemChanges.append((loaded - loadStart) * 1000)
                pauses.append((paused - pauseStart) * 1000)
                floors.append((floorHeard - floorStart) * 1000)
            }
        }
        player.stop()
        let floorMedian = Self.median(floors)
        return [
            BenchRow(measured: "MPRIS PropertiesChanged after an item change, Metadata (median of \(runs); max \(Self.format(itemChanges.max())))",
                     unit: "ms", trackcast: Self.median(itemChanges),
                     peerName: "bare GDBus PropertiesChanged (floor)", peer: floorMedian),
            BenchRow(measured: "MPRIS PropertiesChanged after a pause, PlaybackStatus (median of \(runs); max \(Self.format(pauses.max())))",
                     unit: "ms", trackcast: Self.median(pauses),
                     peerName: "bare GDBus PropertiesChanged (floor)", peer: floorMedian),
        ]
    }

    /// Whether item `id` reaches `playing` within 10 s.
    private static func plays(_ id: PlaybackItemID, store: PlaybackStateStore) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in await store.updates() where state.itemID == id && state.phase == .playing { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    private static func format(_ milliseconds: Double?) -> String {
        String(format: "%.1f ms", milliseconds ?? .nan)
    }
}

/// The floor's object: one property, announced by hand.
@MainActor
private final class FloorEmitter: DBusObjectHandler {
    static let interface = "org.trackcast.BenchFloor"
    static let introspection = """
        <node><interface name="\(interface)"><property name="Count" type="d" access="read"/></interface></node>
        """

    func handleCall(interface: String, method: String, parameters: Variant) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: method)
    }

    func property(interface: String, name: String) -> Variant? { nil }
    func setProperty(interface: String, name: String, value: Variant) -> Bool { false }
}

/// `dbus-monitor` on the session bus: every matching message, stamped with
/// the wall-clock time it arrived (`time=…`), with its body.
private final class BusMonitor: Sendable {
    private let process = Process()
    private let output = Transcript()

    init(matching rule: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        process.arguments = ["--session", rule]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.append(text)
        }
        try process.run()
    }

    /// Not waited for: Foundation's Process can miss a child's exit once
    /// GStreamer has run in the process, and the wait would never end.
    func stop() {
        process.terminate()
    }

    /// The arrival time of the first signal stamped after `start` whose text
    /// contains `marker`; `poke` runs every 100 ms while none has come.
    /// Nil after 10 s.
    @MainActor
    func waitForSignal(after start: TimeInterval, containing marker: String,
                       poke: () -> Void = {}) async throws -> TimeInterval? {
        let deadline = ContinuousClock.now + .seconds(10)
        var nextPoke = ContinuousClock.now
        while ContinuousClock.now < deadline {
            if let arrival = signals().first(where: { $0.time >= start && $0.text.contains(marker) })?.time {
                return arrival
            }
            if ContinuousClock.now >= nextPoke {
                poke()
                nextPoke = .now + .milliseconds(100)
            }
            try await Task.sleep(for: .microseconds(250))
        }
        return nil
    }

    /// Messages so far: each starts with a line like
    /// `signal time=1764460000.123456 sender=:1.5 -> … member=PropertiesChanged`.
    private func signals() -> [(time: TimeInterval, text: Substring)] {
        let text = output.text
        return text.split(separator: "\nsignal ").compactMap { message in
            guard let stamp = message.range(of: "time=") else { return nil }
            let digits = message[stamp.upperBound...].prefix { $0.isNumber || $0 == "." }
            return TimeInterval(digits).map { ($0, message) }
        }
    }
}

/// What the monitor has printed so far, appended on Foundation's reading thread.
private final class Transcript: Sendable {
    private let printed = Mutex("")

    func append(_ text: String) { printed.withLock { $0 += text } }
    var text: String { printed.withLock { $0 } }
}
