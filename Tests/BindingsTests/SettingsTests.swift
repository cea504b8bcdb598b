import Bindings
import Foundation
import TestSupport
import Testing

/// The schema exists only for these tests; it is compiled into a temporary
/// directory and used with in-memory storage, so nothing touches the user's
/// settings, and the process environment (which the app tests' child
/// processes inherit) stays as it was.
private let schemaID = "org.trackcast.BindingsTest"

private let schemaDirectory: Result<URL, Error> = Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-schemas-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <schemalist>
      <schema id="\(schemaID)" path="/org/trackcast/BindingsTest/">
        <key name="skip-forward-seconds" type="i">
          <range min="1" max="300"/>
          <default>30</default>
          <summary>Skip forward</summary>
        </key>
        <key name="background-playback" type="b">
          <default>true</default>
          <summary>Keep playing when the window closes</summary>
        </key>
        <key name="downloads-folder" type="s">
          <default>''</default>
          <summary>Downloads folder</summary>
        </key>
      </schema>
    </schemalist>
    """.write(to: directory.appendingPathComponent("\(schemaID).gschema.xml"), atomically: true, encoding: .utf8)
    let compiled = try ChildProcess.runSynchronously(URL(fileURLWithPath: "/usr/bin/glib-compile-schemas"),
                                                     arguments: ["--strict", directory.path])
    guard compiled.termination == .exited(0) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: compiled.standardError])
    }
    return directory
}

@MainActor
@Suite("GSettings access")
struct SettingsTests {
    private func open() throws -> Settings {
        try Settings(schemaID: schemaID, source: .directory(schemaDirectory.get().path), storage: .memory)
    }

    @Test("defaults, writes and change notifications")
    func readWrite() throws {
        let settings = try open()
        #expect(try settings.int(forKey: "skip-forward-seconds") == 30)
        #expect(try settings.bool(forKey: "background-playback"))
        var changes = 0
        try settings.onChange("skip-forward-seconds") { changes += 1 }
        #expect(try settings.setValue(Variant(Int32(45)), forKey: "skip-forward-seconds"))
        #expect(try settings.int(forKey: "skip-forward-seconds") == 45)
        #expect(try settings.value(forKey: "skip-forward-seconds").int32 == 45)
        #expect(changes == 1)
        #expect(try settings.setValue(Variant("/tmp/downloads"), forKey: "downloads-folder"))
        #expect(try settings.string(forKey: "downloads-folder") == "/tmp/downloads")
    }

    @Test("values outside the schema's range or type are refused and change nothing")
    func refusesBadValues() throws {
        let settings = try open()
        let before = try settings.int(forKey: "skip-forward-seconds")
        #expect(try settings.setValue(Variant(Int32(0)), forKey: "skip-forward-seconds") == false)
        #expect(try settings.setValue(Variant("ten"), forKey: "skip-forward-seconds") == false)
        #expect(try settings.int(forKey: "skip-forward-seconds") == before)
    }

    @Test("a missing schema or key is an error, not an abort")
    func missing() throws {
        #expect(throws: Settings.LookupError.schemaNotInstalled("org.trackcast.NoSuchSchema")) {
            try Settings(schemaID: "org.trackcast.NoSuchSchema")
        }
        #expect(throws: Settings.LookupError.schemaNotInstalled("org.trackcast.NoSuchSchema")) {
            try Settings(schemaID: "org.trackcast.NoSuchSchema", source: .directory(schemaDirectory.get().path))
        }
        #expect(throws: GLibError.self) { try Settings(schemaID: schemaID, source: .directory("/nonexistent")) }
        let settings = try open()
        #expect(throws: Settings.LookupError.noSuchKey(schema: schemaID, key: "volume")) {
            try settings.double(forKey: "volume")
        }
    }
}
