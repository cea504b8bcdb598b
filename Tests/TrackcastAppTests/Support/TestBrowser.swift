import Foundation

/// The desktop's handler for web links, for an app launched with its
/// `environment`: a script that notes each address it is asked to open.
struct TestBrowser {
    let environment: [String: String]
    private let log: URL

    init(in folder: URL) throws {
        log = folder.appendingPathComponent("opened.txt")
        let script = folder.appendingPathComponent("browser.sh")
        try "#!/bin/sh\necho \"$1\" >> '\(log.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let applications = folder.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Browser\nExec=\(script.path) %u\nMimeType=x-scheme-handler/https;\n"
            .write(to: applications.appendingPathComponent("test-browser.desktop"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[Default Applications]\nx-scheme-handler/https=test-browser.desktop\n"
            .write(to: config.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
        environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "XDG_CONFIG_HOME": config.path]
    }

    /// What it was asked to open so far, one address a line.
    var opened: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
