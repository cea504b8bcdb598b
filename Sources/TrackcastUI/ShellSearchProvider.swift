import Bindings
import Foundation
import TrackcastCore
import TrackcastLibrary

/// GNOME Shell's search (`org.gnome.Shell.SearchProvider2`) at
/// `/org/trackcast/Trackcast/SearchProvider`, under the app's own bus name,
/// answered from the library's search index. Shell asks as the user types
/// in the overview, D-Bus-activating the app if need be: answering needs the
/// library only, never the window or GStreamer, which are made when a
/// result is activated.
///
/// A result is an episode, its identifier `EPISODE`, or
/// `EPISODE@chapter@SECONDS` / `EPISODE@transcript@SECONDS` when its best
/// match is a chapter or a transcript cue, so that activating it opens the
/// episode at that moment.
@MainActor
final class ShellSearchProvider: DBusObjectHandler {
    static let objectPath = "/org/trackcast/Trackcast/SearchProvider"
    static let interface = "org.gnome.Shell.SearchProvider2"

    static let introspection = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet">
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetSubsearchResultSet">
              <arg type="as" name="previous_results" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetResultMetas">
              <arg type="as" name="identifiers" direction="in"/>
              <arg type="aa{sv}" name="metas" direction="out"/>
            </method>
            <method name="ActivateResult">
              <arg type="s" name="identifier" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
            <method name="LaunchSearch">
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
          </interface>
        </node>
        """

    /// Shell shows a handful; more costs the lookups of their metas for nothing.
    static let resultLimit = 20

    private let library: LibraryModel
    /// Opens an episode in the window, at a place (`SearchPlace.name`) and moment if given.
    private let openEpisode: @MainActor (EpisodeID, String, TimeInterval?) -> Void
    /// Shows the window's results for the terms.
    private let showResults: @MainActor (String) -> Void
    private var dbusExport: DBusObjectExport?

    init(library: LibraryModel, openEpisode: @escaping @MainActor (EpisodeID, String, TimeInterval?) -> Void,
         showResults: @escaping @MainActor (String) -> Void) {
        self.library = library
        self.openEpisode = openEpisode
        self.showResults = showResults
    }

    /// Exports the provider on the connection GApplication will own its
    /// name on; before the application registers (see `DBusObjectExport`).
    func export() {
        do {
            let export = try DBusObjectExport(busName: AppIdentity.id, objectPath: Self.objectPath,
                                              introspectionXML: Self.introspection, handler: self)
            try export.exportOnSharedConnection()
            dbusExport = export
        } catch {
            // No session bus: nothing could ask.
            Log.debug("search provider not exported: \(error)")
        }
    }

    func handleCall(interface: String, method: String, parameters: Variant) -> DBusReply {
        let arguments = parameters.children
        Log.debug("search provider: \(method)")
        switch method {
        case "GetInitialResultSet":
            return .later { [self] in .value(Variant(tuple: [Variant(strings: await results(for: arguments[0])) ])) }
        case "GetSubsearchResultSet":
            // A narrower search is a new query: the index answers it as fast as filtering would.
            return .later { [self] in .value(Variant(tuple: [Variant(strings: await results(for: arguments[1]))])) }
        case "GetResultMetas":
            let identifiers = arguments[0].children.compactMap(\.string)
            return .later { [self] in
                let metas = await metas(for: identifiers)
                return .value(Variant(tuple: [Variant(array: metas, elementType: "a{sv}")]))
            }
        case "ActivateResult":
            guard let identifier = arguments[0].string, let (episode, place, time) = Self.parse(identifier) else {
                return .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no such result")
            }
            openEpisode(episode, place, time)
            return .value(nil)
        case "LaunchSearch":
            showResults(Self.text(of: arguments[0]))
            return .value(nil)
        default:
            return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No method \(interface).\(method)")
        }
    }

    func property(interface: String, name: String) -> Variant? { nil }

    func setProperty(interface: String, name: String, value: Variant) -> Bool { false }

    private func results(for terms: Variant) async -> [String] {
        let text = Self.text(of: terms)
        let results = await library.search(text)
        Log.debug("search provider: \(results.episodes.count) episodes for \(text.count) characters")
        return results.episodes.prefix(Self.resultLimit).map { Self.identifier(of: $0) }
    }

    /// Each term as a whole word: Shell sends what was typed split at spaces,
    /// and the last term may still be being typed.
    private static func text(of terms: Variant) -> String {
        terms.children.compactMap(\.string).joined(separator: " ")
    }

    private func metas(for identifiers: [String]) async -> [Variant] {
        let artwork = library.artworkFetcher()
        var metas: [Variant] = []
        for identifier in identifiers {
            guard let (id, _, _) = Self.parse(identifier), let episode = await library.episode(id) else { continue }
            let icon = await Task.detached {
                (episode.showImageURL ?? episode.imageURL).flatMap { artwork.cachedFile(for: $0)?.path }
            }.value
            metas.append(Variant(dictionary: [
                "id": Variant(identifier),
                "name": Variant(episode.title ?? tr("Untitled episode")),
                "description": Variant(episode.showTitle ?? ""),
                "gicon": Variant(icon ?? AppIdentity.id),
            ]))
        }
        return metas
    }

    static func identifier(of episode: SearchResults.Episode) -> String {
        let place = episode.best.place
        guard let time = place.time else { return String(episode.id.rawValue) }
        return "\(episode.id.rawValue)@\(place.name)@\(time)"
    }

    /// nil for an identifier this provider did not make: the caller is
    /// anyone on the session bus, so the time is range-checked too.
    static func parse(_ identifier: String) -> (EpisodeID, String, TimeInterval?)? {
        let parts = identifier.split(separator: "@", omittingEmptySubsequences: false)
        guard let first = parts.first, let id = Int64(first) else { return nil }
        guard parts.count == 3 else { return parts.count == 1 ? (EpisodeID(rawValue: id), "title", nil) : nil }
        guard ["chapter", "transcript"].contains(parts[1]), let time = TimeInterval(parts[2]), time.isFinite, time >= 0,
              time <= MediaTime.maximumSeconds
        else { return nil }
        return (EpisodeID(rawValue: id), String(parts[1]), time)
    }
}
