import CGLib

/// The user's languages as gettext looks for translations (LANGUAGE, then
/// the LC_ALL, LC_MESSAGES and LANG locale), best first, e.g. `de_DE`, `de`.
public enum Languages {
    public static var preferred: [String] {
        guard let names = g_get_language_names() else { return [] }
        var result: [String] = []
        var index = 0
        while let name = names[index] {
            result.append(String(cString: name))
            index += 1
        }
        return result
    }
}
