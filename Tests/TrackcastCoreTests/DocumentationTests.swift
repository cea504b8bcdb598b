import Foundation
import Testing

/// The documents a newcomer reads must name what is there. docs/ARCHITECTURE.md
/// promises that each step of a flow names its file and type, so every path
/// and every backticked type (and `Type.member`) in it must exist in the
/// tree; the other documents' paths, links and named tests must exist too.
/// (That the README's action table matches the actions the app registers is
/// checked against the running app: `RunningAppTests/actionTableMatchesTheApp`.)
@Suite("Documentation names what exists")
struct DocumentationTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static let architecture = "docs/ARCHITECTURE.md"
    private static let otherDocuments = ["README.md", "docs/BENCHMARKS.md", "docs/RELIABILITY.md", "docs/HACKING.md",
                                         "docs/FEATURES.md"]
    /// The code the module map describes: the package's sources, its test
    /// support module and the bench.
    private static let codeFolders = ["Sources", "Tests/TestSupport", "Benchmarks"]
    /// Where a path written from the repository's root starts.
    private static let topFolders = ["Sources", "Tests", "Benchmarks", "Fuzz", "meson-helpers", "data", "po", "docs"]
    private static let fileName = #"^[\w.+-]+\.(swift|c|h|py|md|json|sh)$"#

    // MARK: Reading

    /// The first capture group of every match of `pattern` in `text`.
    private static func captures(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// What `document` writes between backticks, outside code blocks.
    private func backticked(_ document: String) throws -> [String] {
        var inCodeBlock = false
        var spans: [String] = []
        for line in try text(document).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCodeBlock.toggle(); continue }
            if !inCodeBlock { spans += Self.captures("`([^`]+)`", in: String(line)) }
        }
        return spans
    }

    /// The files under `folders` whose names end in one of `extensions`.
    private func files(under folders: [String], extensions: Set<String>) throws -> [(name: String, text: String)] {
        try folders.flatMap { folder in
            let found = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { extensions.contains($0.pathExtension) } ?? []
            return try found.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
        }
    }

    /// Backticked paths written from the repository's root (`Sources/…`),
    /// and bare file names (`video-paintable.c`), that are not in the tree.
    private func missingPaths(in document: String) throws -> [String] {
        let names = Set(try files(under: Self.topFolders, extensions: ["swift", "c", "h", "py", "md", "json"]).map(\.name))
        return try backticked(document).filter { span in
            // `Fuzz/<name>/` is a pattern, not a path.
            guard !span.contains("<"), !span.contains(" ") else { return false }
            if Self.topFolders.contains(where: { span.hasPrefix($0 + "/") }) { return !exists(span) }
            return Self.matches(Self.fileName, span) && !names.contains(span) && !exists(span)
        }
    }

    /// Type names (UpperCamelCase, with at least one lower-case letter) at
    /// the start of a backticked span, with the member that follows a dot.
    /// Package.swift's modules are not types.
    private func typeReferences(in document: String) throws -> [(type: String, member: String?)] {
        let package = try text("Package.swift")
        let modules = Set(Self.captures(#"\.(?:target|executableTarget|testTarget|systemLibrary)\(name: "([^"]+)""#, in: package))
        let reference = try NSRegularExpression(pattern: #"^([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\.([a-z][A-Za-z0-9]*))?"#)
        return try backticked(document).compactMap { span in
            guard !span.contains("/"), !Self.matches(Self.fileName, span),
                  let match = reference.firstMatch(in: span, range: NSRange(span.startIndex..., in: span)),
                  let type = Range(match.range(at: 1), in: span).map({ String(span[$0]) }),
                  !modules.contains(type) else { return nil }
            return (type, Range(match.range(at: 2), in: span).map { String(span[$0]) })
        }
    }

    // MARK: docs/ARCHITECTURE.md

    @Test("every path docs/ARCHITECTURE.md names exists")
    func architecturePathsExist() throws {
        let missing = try missingPaths(in: Self.architecture)
        #expect(missing == [])
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
        for (type, member) in try typeReferences(in: Self.architecture) {
            let declaring = code.filter { $0.types.contains(type) }
            if declaring.isEmpty {
                missing.append(type)
            } else if let member, !declaring.contains(where: { $0.members.contains(member) }) {
                missing.append("\(type).\(member)")
            }
        }
        #expect(missing == [], "named in docs/ARCHITECTURE.md but not declared in \(Self.codeFolders)")
    }

    // MARK: Every document

    @Test("every path the README and the other documents name exists")
    func otherPathsExist() throws {
        for document in Self.otherDocuments {
            let missing = try missingPaths(in: document)
            #expect(missing == [], "in \(document)")
        }
    }

    @Test("every link and image between the documents leads to a file")
    func linksLead() throws {
        for document in Self.otherDocuments + [Self.architecture] {
            let folder = root.appendingPathComponent(document).deletingLastPathComponent()
            let broken = Self.captures(#"\]\(([^)#]+)(?:#[^)]*)?\)"#, in: try text(document))
                .filter { !$0.contains("://") && !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            #expect(broken == [], "in \(document)")
        }
    }

    @Test("every test suite (and Suite/test) the documents name as proof exists")
    func namedTestsExist() throws {
        let tests = try files(under: ["Tests"], extensions: ["swift"]).map { file in
            (suites: Set(Self.captures(#"\b(?:struct|class|extension)\s+([A-Z]\w*Tests)\b"#, in: file.text)),
             functions: Set(Self.captures(#"\bfunc\s+(\w+)"#, in: file.text)))
        }
        for document in Self.otherDocuments {
            let missing = try backticked(document).filter { span in
                guard Self.matches(#"^[A-Z][A-Za-z0-9]*Tests(/[a-z][A-Za-z0-9]*)?$"#, span) else { return false }
                let parts = span.split(separator: "/").map(String.init)
                let declaring = tests.filter { $0.suites.contains(parts[0]) }
                guard parts.count == 2 else { return declaring.isEmpty }
                return !declaring.contains { $0.functions.contains(parts[1]) }
            }
            #expect(missing == [], "in \(document)")
        }
    }

    @Test("every screenshot the metainfo names is a file of the repository, at the release's tag")
    func metainfoScreenshotsExist() throws {
        let metainfo = try text("data/org.trackcast.Trackcast.metainfo.xml.in")
        let images = Self.captures("<image>([^<]+)</image>", in: metainfo)
        #expect(!images.isEmpty)
        let tagged = "https://raw.githubusercontent.com/trackcast/trackcast/v@VERSION@/"
        for image in images {
            #expect(image.hasPrefix(tagged), "\(image) is not the repository's file at the release's tag")
            #expect(exists(String(image.dropFirst(tagged.count))), "\(image) names no file of the repository")
        }
    }
}
