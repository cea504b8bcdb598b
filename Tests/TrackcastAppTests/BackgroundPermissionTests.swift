import Bindings
import Foundation
import TestSupport
import Testing
import TrackcastCore
@testable import TrackcastUI

/// Asking the Background portal before playing on windowless, as a sandboxed
/// Trackcast does. No real portal runs outside Flatpak, so a stand-in
/// (`fake-background-portal`, a real GDBus service in a process of its own)
/// answers on the test's session bus under a name of its own, and prints
/// the arguments it was given. The sandbox is a marker file the test makes.
@Suite("The Background portal, asked when sandboxed")
@MainActor
struct BackgroundPermissionTests {
    private let portalName = "org.trackcast.TestPortal.p\(getpid())x\(UInt32.random(in: 0...UInt32.max))"

    /// A marker file that exists, as /.flatpak-info does in a sandbox.
    private func sandboxMarker() throws -> URL {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-flatpak-info-\(UUID())")
        try Data("[Application]\nname=org.trackcast.Trackcast\n".utf8).write(to: marker)
        return marker
    }

    private func startPortal(_ mode: String) async throws -> ChildProcess {
        let portal = try ChildProcess(BuiltProducts.executable("fake-background-portal"), arguments: [portalName, mode])
        let ready = await portal.waitFor(timeout: .seconds(10)) { $0.standardOutput.contains("ready\n") }
        try #require(ready, "the stand-in portal did not start: \(portal.standardError)")
        return portal
    }

    @Test("sandboxed: the request names why and asks for no autostart, and a yes lets playback go on windowless")
    func allowed() async throws {
        GLibPump.start()
        let marker = try sandboxMarker()
        defer { try? FileManager.default.removeItem(at: marker) }
        let portal = try await startPortal("allow")
        defer { portal.terminate() }
        let permission = BackgroundPermission(sandboxMarker: marker, portalBusName: portalName)
        #expect(permission.isSandboxed)
        #expect(await permission.request() == .allowed)
        let request = try #require(portal.standardOutput.split(separator: "\n").first { $0.hasPrefix("request ") })
        #expect(request.contains("reason=\(tr("Trackcast keeps playing after its window is closed")) "), "\(request)")
        #expect(request.contains("autostart=false"), "\(request)")
        #expect(request.contains("parent= "), "\(request)")
        #expect(request.contains("handle_token=trackcast"), "\(request)")
        // A yes is kept: the next close asks nothing.
        #expect(await permission.request() == nil)
    }

    @Test("sandboxed: a no is reported, with a message saying the window stays open")
    func denied() async throws {
        GLibPump.start()
        let marker = try sandboxMarker()
        defer { try? FileManager.default.removeItem(at: marker) }
        let portal = try await startPortal("deny")
        defer { portal.terminate() }
        let permission = BackgroundPermission(sandboxMarker: marker, portalBusName: portalName)
        let answer = await permission.request()
        #expect(answer == .denied)
        #expect(BackgroundPermission.refusal(.denied)?.contains("window stays open") == true)
    }

    @Test("sandboxed with no portal on the bus: a failure that says why, not a wait")
    func noPortal() async throws {
        GLibPump.start()
        let marker = try sandboxMarker()
        defer { try? FileManager.default.removeItem(at: marker) }
        let answer = await BackgroundPermission(sandboxMarker: marker, portalBusName: portalName).request()
        guard case .failed(let reason) = answer else {
            Issue.record("no portal answered \(String(describing: answer))")
            return
        }
        #expect(!reason.isEmpty)
        #expect(BackgroundPermission.refusal(answer!)?.contains(reason) == true)
    }

    @Test("not sandboxed: nothing is asked")
    func notSandboxed() async throws {
        GLibPump.start()
        let portal = try await startPortal("deny")
        defer { portal.terminate() }
        let absent = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-no-sandbox-\(UUID())")
        let permission = BackgroundPermission(sandboxMarker: absent, portalBusName: portalName)
        #expect(!permission.isSandboxed)
        #expect(await permission.request() == nil)
        #expect(!portal.standardOutput.contains("request "), "the portal was asked: \(portal.standardOutput)")
    }
}
