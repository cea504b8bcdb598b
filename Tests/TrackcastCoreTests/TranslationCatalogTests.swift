import Foundation
import Testing

/// Every string the sources mark with `tr("…")` must reach translators: be in
/// po/trackcast.pot (so po/POTFILES lists its file and xgettext could read the
/// call) and be translated in every catalog in po/LINGUAS.
@Suite("Translation catalogs")
struct TranslationCatalogTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func markedStrings() throws -> [(file: String, message: String)] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let call = try Regex(#"\btr\("((?:[^"\\]|\\.)*)"\)"#)
        var found: [(String, String)] = []
        for file in files {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            for line in code {
                for match in line.matches(of: call) {
                    let literal = String(line[match.output[1].range!])
                    found.append((file.lastPathComponent, literal.replacingOccurrences(of: #"\n"#, with: "\n")))
                }
            }
        }
        return found
    }

    /// msgid → msgstr of a .po or .pot file (single- and multi-line entries).
    private func catalog(_ name: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("po/\(name)"), encoding: .utf8)
        var entries: [String: String] = [:]
        var id: String?
        var current: String?
        var field = ""
        func unquote(_ line: Substring) -> String {
            String(line.dropFirst().dropLast()).replacingOccurrences(of: #"\n"#, with: "\n")
                .replacingOccurrences(of: #"\""#, with: "\"")
        }
        func finish() {
            if field == "msgstr", let id { entries[id] = current }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("msgid ") {
                finish(); field = "msgid"; current = unquote(line.dropFirst(6)); id = nil
            } else if line.hasPrefix("msgstr ") {
                id = current; field = "msgstr"; current = unquote(line.dropFirst(7))
            } else if line.hasPrefix("\"") {
                current = (current ?? "") + unquote(line[...])
            } else if line.isEmpty {
                finish(); field = ""
            }
        }
        finish()
        return entries
    }

    @Test("the sources mark strings, and the template holds every one")
    func templateIsComplete() throws {
        let marked = try markedStrings()
        #expect(marked.count > 10)
        let template = try catalog("trackcast.pot")
        for (file, message) in marked {
            #expect(template[message] != nil, "\(file): \"\(message)\" is not in po/trackcast.pot; run po/update-pot")
        }
    }

    @Test("every language translates every marked string")
    func translationsAreComplete() throws {
        let languages = try String(contentsOf: root.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(languages.contains("de"))
        for language in languages {
            let translations = try catalog("\(language).po")
            for (file, message) in try markedStrings() {
                let translated = translations[message] ?? ""
                #expect(!translated.isEmpty, "\(language): \(file): \"\(message)\" is untranslated")
            }
        }
    }
}
