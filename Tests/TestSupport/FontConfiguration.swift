import Foundation

/// A fontconfig configuration for a process whose text widths a test
/// measures: DejaVu Sans for every family asked for, whatever fonts the
/// machine has (Cantarell, GNOME's font, lays out narrower; a machine with
/// only Liberation wider). Handed over as FONTCONFIG_FILE.
public enum FontConfiguration {
    /// Writes the configuration, with a cache folder of its own, into a new
    /// temporary folder and returns the file; the caller removes the folder.
    public static func dejaVuOnly() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trackcast-fonts-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("fonts.conf")
        let fontFolder = MachineCapabilities.dejaVuSans.deletingLastPathComponent().path
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <dir>\(fontFolder)</dir>
          <cachedir>\(folder.appendingPathComponent("cache").path)</cachedir>
          <match target="pattern">
            <edit name="family" mode="assign_replace"><string>DejaVu Sans</string></edit>
          </match>
        </fontconfig>
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
