import Foundation
import TestSupport
import Testing

/// URIs from other processes that name sources a podcast player must not
/// open (a camera, a network port, a file descriptor), handed over the two
/// ways the desktop hands the app anything: GApplication's
/// `org.freedesktop.Application.Open` and MPRIS `OpenUri`.
/// Part of "The running app", which runs one app at a time.
extension RunningAppTests {
    @Test("Application.Open and MPRIS OpenUri with v4l2://, udp:// or fd:// play nothing: a toast or a D-Bus error says why, and a file opened next plays")
    func refusedSchemes() async throws {
        let (library, media) = (RunningApp.temporaryLibrary(), try await Self.minuteOfAudio())
        defer { Self.remove(library, media) }
        let refused = ["v4l2:///dev/video0", "udp://0.0.0.0:5004", "fd://0"]
        let app = try await RunningApp.launch(library: library)
        let result = try await app.quitting { app in
            let open = { (uris: [String]) in
                try await RunningApp.gdbusCall(RunningApp.busName, "/org/trackcast/Trackcast", "org.freedesktop.Application.Open",
                                               "[" + uris.map { "'\($0)'" }.joined(separator: ", ") + "]", "{}")
            }
            // Something plays first: MPRIS is on the bus from then on, and the refusals must leave it playing.
            _ = try await open([media.absoluteString])
            try #require(await app.waitForLine("playing \(media.absoluteString)"), "\(app.standardOutput)")
            let mark = app.standardOutput.endIndex

            let opened = try await open(refused)
            #expect(opened.status == 0, "\(opened.standardError)")
            let mprisOpened = try await app.mpris("org.mpris.MediaPlayer2.Player.OpenUri", "'udp://0.0.0.0:5004'")
            #expect(mprisOpened.status != 0, "MPRIS accepted udp://")
            #expect(mprisOpened.standardError.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(mprisOpened.standardError)")

            // Opened after them, through the same door: once it plays again, they were handled.
            _ = try await open([media.absoluteString])
            try #require(await app.waitForLine("playing \(media.absoluteString)", after: mark), "\(app.standardOutput[mark...])")
            let output = app.standardOutput[mark...]
            for uri in refused {
                #expect(!output.contains("playing \(uri)"), "\(uri) was played: \(output)")
                #expect(output.split(separator: "\n").contains { $0.contains("toast: ") && $0.contains(uri) },
                        "no toast named \(uri): \(output)")
            }
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
