import Foundation
import Testing

/// The documents a newcomer reads must name what is there. docs/ARCHITECTURE.md
/// promises that each step of a flow names its file and type, so every path
/// and every backticked type (and `Type.member`) in it must exist in the
/// tree; the other documents' paths and test names must exist too. (That
/// the README's action table matches the actions the app registers is
/// checked against the running app, in TrackcastAppTests.)
@Suite("Documentation names what exists")
struct DocumentationTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The code the module map describes: the package's sources, its test
    /// support module and the bench.
    private static let codeFolders = ["Sources", "Tests/TestSupport", "Benchmarks"]

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// What `document` writes between backticks, outside code blocks.
    private func backticked(_ document: String) throws -> [String] {
        var inCodeBlock = false
        var spans: [String] = []
        let span = try Regex("`([^`]+)`")
        for line in try text(document).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCodeBlock.toggle(); continue }
            guard !inCodeBlock else { continue }
            spans += line.matches(of: span).map { String(line[$0.output[1].range!]) }
        }
        return spans
    }

    /// The files under `folders` whose names end in one of `extensions`, as (path, contents).
    private func files(under folders: [String], extensions: Set<String>) throws -> [(path: String, text: String)] {
        try folders.flatMap { folder in
            let url = root.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { extensions.contains($0.pathExtension) } ?? []
            return try found.map { ($0.path, try String(contentsOf: $0, encoding: .utf8)) }
        }
    }

    private static let otherDocuments = ["README.md", "docs/BENCHMARKS.md", "docs/RELIABILITY.md", "docs/HACKING.md", "docs/FEATURES.md"]

    private static let topFolders = ["Sources", "Tests", "Benchmarks", "Fuzz", "meson-helpers", "data", "po", "docs"]

    /// Paths written from the repository's root (`Sources/…`), and bare file names (`video-paintable.c`).
    private func missingPaths(in document: String) throws -> [String] {
        let fileName = try Regex(#"^[\w.+-]+\.(swift|c|h|py|md|json|sh)$"#)
        let allNames = Set(try files(under: Self.topFolders, extensions: ["swift", "c", "h", "py", "md", "json"])
            .map { URL(fileURLWithPath: $0.path).lastPathComponent })
        var missing: [String] = []
        for span in try backticked(document) {
            // `Fuzz/<name>/` is a pattern, not a path.
            guard !span.contains("<") else { continue }
            let isRooted = Self.topFolders.contains { span.hasPrefix($0 + "/") }
            if isRooted, !span.contains(" ") {
                if !FileManager.default.fileExists(atPath: root.appendingPathComponent(span).path) { missing.append(span) }
            } else if (try? fileName.wholeMatch(in: span)) != nil, !allNames.contains(span),
                      !FileManager.default.fileExists(atPath: root.appendingPathComponent(span).path) {
                missing.append(span)
            }
        }
        return missing
    }

    /// Type names (UpperCamelCase, with at least one lower-case letter) at
    /// the start of a backticked span, with the member that follows a dot.
    private func typeReferences(in document: String) throws -> [(type: String, member: String?)] {
        let reference = try Regex(#"^([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\.([a-z][A-Za-z0-9]*))?"#)
        let fileName = try Regex(#"^[\w.+-]+\.(swift|c|h|py|md|json|sh)$"#)
        let modules = try packageTargets()
        return try backticked(document).compactMap { span in
            // Paths and file names are checked as such; modules are Package.swift's.
            guard !span.contains("/"), (try? fileName.wholeMatch(in: span)) == nil,
                  let match = try reference.prefixMatch(in: span) else { return nil }
            let type = String(span[match.output[1].range!])
            guard !modules.contains(type) else { return nil }
            return (type, match.output[2].range.map { String(span[$0]) })
        }
    }

    /// The package's targets (modules), as Package.swift names them.
    private func packageTargets() throws -> Set<String> {
        let package = try text("Package.swift")
        let name = try Regex(#"\.(?:target|executableTarget|testTarget|systemLibrary)\(name: "([^"]+)""#)
        return Set(package.matches(of: name).map { String(package[$0.output[1].range!]) })
    }

    @Test("every path docs/ARCHITECTURE.md names exists")
    func architecturePathsExist() throws {
        let missing = try missingPaths(in: "docs/ARCHITECTURE.md")
        #expect(missing == [])
    }

    /// The first capture group of every match of `pattern` in `text`.
    private static func captures(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test("every type docs/ARCHITECTURE.md names is declared in the code, and every Type.member it names is a member")
    func architectureTypesExist() throws {
        // Each code file's declared types (Swift declarations and extensions;
        // GObject types declared in C) and members.
        let code = try files(under: Self.codeFolders, extensions: ["swift", "c", "h"]).map { file in
            (types: Set(Self.captures(#"\b(?:class|struct|enum|actor|protocol|typealias|extension)\s+([A-Z]\w*)"#, in: file.text)
                        + Self.captures(#"G_DECLARE_\w+_TYPE\s*\(\s*(\w+)"#, in: file.text)
                        + Self.captures(#"typedef\s+struct\s+\w+\s+(\w+)\s*;"#, in: file.text)),
             members: Set(Self.captures(#"\b(?:func|var|let|case)\s+(\w+)"#, in: file.text)))
        }
        var missing: [String] = []
        for (type, member) in try typeReferences(in: "docs/ARCHITECTURE.md") {
            let declaring = code.filter { $0.types.contains(type) }
            if declaring.isEmpty {
                missing.append(type)
            } else if let member, !declaring.contains(where: { $0.members.contains(member) }) {
                missing.append("\(type).\(member)")
            }
        }
        #expect(missing == [], "named in docs/ARCHITECTURE.md but not declared in \(Self.codeFolders)")
    }

    @Test("every path the README and the other documents name exists")
    func otherPathsExist() throws {
        for document in Self.otherDocuments {
            let missing = try missingPaths(in: document)
            #expect(missing == [], "in \(document)")
        }
    }

    @Test("every link and image between the documents leads to a file")
    func linksLead() throws {
        for document in Self.otherDocuments + ["docs/ARCHITECTURE.md"] {
            let folder = root.appendingPathComponent(document).deletingLastPathComponent()
            let targets = Self.captures(#"\]\(([^)#]+)(?:#[^)]*)?\)"#, in: try text(document))
            let broken = targets.filter { !$0.contains("://") }
                .filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            #expect(broken == [], "in \(document)")
        }
    }

    @Test("every test suite (and Suite/test) the documents name as proof exists")
    func namedTestsExist() throws {
        let tests = try files(under: ["Tests"], extensions: ["swift"]).map { file in
            (suites: Set(Self.captures(#"\b(?:struct|class|extension)\s+([A-Z]\w*Tests)\b"#, in: file.text)),
             functions: Set(Self.captures(#"\bfunc\s+(\w+)"#, in: file.text)))
        }
        let reference = try Regex(#"^([A-Z][A-Za-z0-9]*Tests)(?:/([a-z][A-Za-z0-9]*))?$"#)
        for document in Self.otherDocuments {
            var missing: [String] = []
            for span in try backticked(document) {
                guard let match = try reference.wholeMatch(in: span) else { continue }
                let declaring = tests.filter { $0.suites.contains(String(span[match.output[1].range!])) }
                let function = match.output[2].range.map { String(span[$0]) }
                if declaring.isEmpty || function.map({ name in !declaring.contains { $0.functions.contains(name) } }) == true {
                    missing.append(span)
                }
            }
            #expect(missing == [], "in \(document)")
        }
    }
}
