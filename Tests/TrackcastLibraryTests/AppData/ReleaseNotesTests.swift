import Foundation
import Testing
import TrackcastLibrary

/// The About window's "What's New" comes from the metainfo: the repository's
/// own file, and one shaped as meson's merge with the translations installs it.
@Suite("Release notes from the metainfo")
struct ReleaseNotesTests {
    private static let metainfo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/org.trackcast.Trackcast.metainfo.xml.in")

    @Test("the repository's metainfo gives its newest release as About window markup")
    func repositoryMetainfo() throws {
        let notes = try #require(ReleaseNotes(metainfo: try Data(contentsOf: Self.metainfo), languages: ["C"]))
        #expect(notes.version == "0.1.0")
        #expect(notes.markup.hasPrefix("<p>The first release.</p><ul><li>Subscribe by address, from a podcast directory"))
        #expect(notes.markup.hasSuffix("through MPRIS</li></ul>"))
        #expect(!notes.markup.contains("\n") && !notes.markup.contains("  "), "the XML's layout was kept: \(notes.markup)")
    }

    private static let merged = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <component type="desktop-application">
          <description><p>Not a release.</p></description>
          <releases>
            <release version="0.2.0" date="2027-01-01">
              <description>
                <p>Faster &amp; <em>smaller</em>.</p>
                <p xml:lang="de">Schneller &amp; <em>kleiner</em>.</p>
                <p xml:lang="fr">Plus rapide.</p>
                <ul>
                  <li>One</li>
                  <li xml:lang="fr">Un</li>
                  <li>Two</li>
                  <li xml:lang="de">Zwei</li>
                </ul>
              </description>
            </release>
            <release version="0.1.0"><description><p>Old.</p></description></release>
          </releases>
        </component>
        """.utf8)

    @Test("the newest release in the user's first language that has each paragraph, else the original", arguments: [
        (["de_DE", "de", "C"], "<p>Schneller &amp; <em>kleiner</em>.</p><ul><li>One</li><li>Zwei</li></ul>"),
        (["fr", "de"], "<p>Plus rapide.</p><ul><li>Un</li><li>Zwei</li></ul>"),
        (["C"], "<p>Faster &amp; <em>smaller</em>.</p><ul><li>One</li><li>Two</li></ul>"),
    ])
    func translated(languages: [String], markup: String) throws {
        let notes = try #require(ReleaseNotes(metainfo: Self.merged, languages: languages))
        #expect(notes == ReleaseNotes(version: "0.2.0", markup: markup))
    }

    @Test("no releases, a release without a version, or no XML at all give no notes", arguments: [
        "<component><releases/></component>", #"<component><releases><release date="2027-01-01"/></releases></component>"#,
        "not xml", "",
    ])
    func none(metainfo: String) {
        #expect(ReleaseNotes(metainfo: Data(metainfo.utf8), languages: ["C"]) == nil)
    }
}
