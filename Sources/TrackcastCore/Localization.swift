import CPlatform
import Foundation

/// Marks a user-visible string for translation and translates it. The
/// argument must be a plain literal: `po/update-pot` extracts `tr("…")` calls
/// with xgettext, which reads Swift with its C lexer (no interpolation inside).
public func tr(_ message: String) -> String {
    // gettext returns its argument when there is no translation, and a
    // bridged argument lives only for the call: read the result inside it.
    message.withCString { original in
        String(cString: dgettext(TRACKCAST_GETTEXT_PACKAGE, original))
    }
}

/// The plural form of a message for `count`, e.g. `trn("%d episode", "%d episodes", n)`.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { singularText in
        plural.withCString { pluralText in
            String(cString: dngettext(TRACKCAST_GETTEXT_PACKAGE, singularText, pluralText, UInt(max(count, 0))))
        }
    }
}

public enum Localization {
    /// Applies the user's locale and finds the translations: the installed
    /// locale folder, or `TRACKCAST_LOCALEDIR` for an uninstalled build.
    public static func setUp(environment: [String: String] = ProcessInfo.processInfo.environment) {
        setlocale(LC_ALL, "")
        let directory = environment["TRACKCAST_LOCALEDIR"] ?? TRACKCAST_LOCALEDIR
        if !directory.isEmpty {
            bindtextdomain(TRACKCAST_GETTEXT_PACKAGE, directory)
        }
        bind_textdomain_codeset(TRACKCAST_GETTEXT_PACKAGE, "UTF-8")
        textdomain(TRACKCAST_GETTEXT_PACKAGE)
    }
}
