import Foundation
import TestSupport
import Testing

extension RunningAppTests {
    /// The action names in the first column of README.md's action table
    /// (the table whose header starts `| action |`), without their
    /// parameter types: `seek-to(d)` is `seek-to`.
    static func documentedActions() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| action |") }) else { return [] }
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        var names: Set<String> = []
        for row in rows {
            let firstCell = row.split(separator: "|", omittingEmptySubsequences: false)[1]
            for span in firstCell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where span.offset % 2 == 1 {
                names.insert(String(span.element.prefix { $0 != "(" }))
            }
        }
        return names
    }

    @Test("README.md's action table lists exactly the actions the app registers")
    func actionTableMatchesTheApp() async throws {
        let documented = try Self.documentedActions()
        try #require(documented.count > 10, "no action table found in README.md")
        let app = try await RunningApp.launch(library: RunningApp.temporaryLibrary(), until: .windowShown)
        let result = try await app.quitting { _ in
            let listed = try await RunningApp.gdbusCall(RunningApp.busName, "/org/trackcast/Trackcast", "org.gtk.Actions.List")
            try #require(listed.status == 0, "org.gtk.Actions.List: \(listed.standardError)")
            // gdbus prints `(['about', 'add-podcast', …],)`.
            let registered = Set(listed.standardOutput.split(separator: "'").enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) })
            #expect(documented.subtracting(registered).sorted() == [], "in README.md's table but not registered by the app")
            #expect(registered.subtracting(documented).sorted() == [], "registered by the app but missing from README.md's table")
        }
        #expect(result.status == 0 && !result.timedOut)
    }
}
