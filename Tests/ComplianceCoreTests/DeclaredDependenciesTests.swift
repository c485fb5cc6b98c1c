import Foundation
import Testing

/// Every module a target imports is one of its declared dependencies. A module reached only
/// through another target's dependencies builds when the build happens to order it first and
/// fails on a clean clone when it does not ("no such module 'ServiceLifecycle'", once in CI).
enum DeclaredDependencies {
    /// One target of Package.swift, as far as this check needs it.
    struct Target: Equatable {
        var name: String
        var directory: String
        var dependencies: Set<String>
        var excluded: [String]
        var sources: [String]?
    }

    /// Modules of the toolchain and the system, which no target declares.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Testing", "XCTest", "Glibc", "Musl", "Darwin",
        "Dispatch", "Synchronization", "os", "_Concurrency", "RegexBuilder", "_StringProcessing",
    ]

    /// The targets declared in a Package.swift text (`.target`, `.executableTarget`,
    /// `.testTarget`, `.systemLibrary`): name, directory (`path:` or the default), dependency
    /// names (bare names and `.product(name:)`), `exclude:` and `sources:`.
    static func targets(in manifest: String) -> [Target] {
        let kinds = [".target(": "Sources", ".executableTarget(": "Sources", ".testTarget(": "Tests", ".systemLibrary(": "Sources"]
        var found: [Target] = []
        var searchStart = manifest.startIndex
        while let (kind, range) = kinds.keys.compactMap({ key in manifest.range(of: key, range: searchStart..<manifest.endIndex).map { (key, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound })
        {
            let block = balanced(manifest, openingAt: manifest.index(before: range.upperBound), open: "(", close: ")")
            searchStart = block.endIndex
            let text = String(block)
            guard let name = strings(after: "name:", in: text).first else { continue }
            let dependencies = list(after: "dependencies:", in: text).map { list in
                Set(quoted(removingPackageNames(list)))
            } ?? []
            let path = strings(after: "path:", in: text).first ?? "\(kinds[kind]!)/\(name)"
            found.append(Target(
                name: name, directory: path, dependencies: dependencies,
                excluded: list(after: "exclude:", in: text).map(quoted) ?? [], sources: list(after: "sources:", in: text).map(quoted)))
        }
        return found
    }

    /// The imports of `target`'s sources under `root` that it does not declare, by file.
    static func undeclared(_ target: Target, root: URL) throws -> [String: [String]] {
        let directory = root.appendingPathComponent(target.directory)
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [:] }
        var result: [String: [String]] = [:]
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            if target.excluded.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            if let sources = target.sources, !sources.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
            let missing = Set(ImportRule.importedModules(text).map(String.init))
                .subtracting(target.dependencies).subtracting(system).subtracting([target.name])
                // A dependency on an executable target ("compliance-load") imports its module (compliance_load).
                .subtracting(target.dependencies.map { $0.replacingOccurrences(of: "-", with: "_") })
            if !missing.isEmpty { result["\(target.directory)/\(relative)"] = missing.sorted() }
        }
        return result
    }

    /// The text from `start` (an opening bracket) to its matching closing bracket, inclusive.
    private static func balanced(_ text: String, openingAt start: String.Index, open: Character, close: Character) -> Substring {
        var depth = 0
        var index = start
        var inString = false
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == open { depth += 1 }
                if character == close {
                    depth -= 1
                    if depth == 0 { return text[start...index] }
                }
            }
            index = text.index(after: index)
        }
        return text[start...]
    }

    /// The `[…]` list after `label`, if the text has one.
    private static func list(after label: String, in text: String) -> String? {
        guard let labelRange = text.range(of: label), let open = text[labelRange.upperBound...].firstIndex(where: { !$0.isWhitespace }),
            text[open] == "["
        else { return nil }
        return String(balanced(text, openingAt: open, open: "[", close: "]"))
    }

    /// The string literals right after each `label` (e.g. `name: "JSON"` → JSON).
    private static func strings(after label: String, in text: String) -> [String] {
        var values: [String] = []
        var rest = text[...]
        while let range = rest.range(of: label) {
            let after = rest[range.upperBound...].drop { $0.isWhitespace }
            if after.first == "\"", let end = after.dropFirst().firstIndex(of: "\"") { values.append(String(after[after.index(after: after.startIndex)..<end])) }
            rest = rest[range.upperBound...]
        }
        return values
    }

    /// Every string literal of `text`.
    private static func quoted(_ text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// `text` without the `package: "…"` arguments (package names are not modules).
    private static func removingPackageNames(_ text: String) -> String {
        text.replacingOccurrences(of: #"package:\s*"[^"]*""#, with: "", options: .regularExpression)
    }
}

@Suite struct DeclaredDependenciesTests {
    @Test func everyImportedModuleIsADeclaredDependency() throws {
        let manifest = try SourceTree.read(SourceTree.root.appendingPathComponent("Package.swift"))
        let targets = DeclaredDependencies.targets(in: manifest)
        #expect(targets.count >= 30, "\(targets.map(\.name))")
        #expect(targets.contains { $0.name == "MockAuth" && $0.directory == "mocks/MockAuth" })
        for target in targets {
            let missing = try DeclaredDependencies.undeclared(target, root: SourceTree.root)
            #expect(missing.isEmpty, "\(target.name) imports what it does not declare: \(missing)")
        }
    }

    /// The check on a manifest and a source that break the rule: it names the file and module.
    @Test func anUndeclaredImportIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("declared-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Sources/Engine/Parts"), withIntermediateDirectories: true)
        try "import Foundation\nimport Logging\n@preconcurrency import ServiceLifecycle\n".write(
            to: root.appendingPathComponent("Sources/Engine/Parts/Run.swift"), atomically: true, encoding: .utf8)
        let manifest = """
            .target(
                name: "Engine",
                dependencies: ["JSON", .product(name: "Logging", package: "swift-log")],
                exclude: ["README.md"]
            ),
            .testTarget(name: "EngineTests", dependencies: ["Engine"]),
            """
        let targets = DeclaredDependencies.targets(in: manifest)
        #expect(targets.map(\.name) == ["Engine", "EngineTests"])
        #expect(targets.first?.dependencies == ["JSON", "Logging"])
        #expect(targets.last?.directory == "Tests/EngineTests")
        let missing = try DeclaredDependencies.undeclared(try #require(targets.first), root: root)
        #expect(missing == ["Sources/Engine/Parts/Run.swift": ["ServiceLifecycle"]])
    }
}
