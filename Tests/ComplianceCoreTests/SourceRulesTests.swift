import Foundation
import Testing
@testable import ComplianceCore

// The test target may use Foundation; only the ComplianceCore module is kept free of it.

/// Paths of the module's sources, found relative to this file.
enum SourceTree {
    static let root: URL = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let complianceCore = root.appendingPathComponent("Sources/ComplianceCore")

    static func read(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// Every `.swift` file under `directory`, in every subfolder (`WebContent/` among them).
    static func swiftFiles(under directory: URL = complianceCore) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

/// The rule ComplianceCore's sources follow: the module imports JSON and nothing else (no
/// Foundation, Glibc or Dispatch: no I/O, no clocks).
enum ImportRule {
    /// The modules a source text imports (`import X`, `@testable import X`, `public import X`,
    /// `import struct X.Y`, `@preconcurrency import X`).
    static func importedModules(_ text: String) -> [Substring] {
        var modules: [Substring] = []
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let importIndex = words.firstIndex(of: "import") else { continue }
            guard words[..<importIndex].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains($0) }) else { continue }
            guard importIndex < words.index(before: words.endIndex) else { continue }
            modules.append(words[words.index(before: words.endIndex)].split(separator: ".").first ?? "")
        }
        return modules
    }

    /// The imports of `text` that break the rule.
    static func violations(_ text: String) -> [Substring] {
        importedModules(text).filter { $0 != "JSON" }
    }
}

@Suite struct SourceRulesTests {
    @Test func complianceCoreImportsOnlyJSONInEveryFolder() throws {
        let files = try SourceTree.swiftFiles()
        #expect(files.count >= 15)
        #expect(files.contains { $0.path.contains("/WebContent/") }, "the scan reaches the subfolders")
        for file in files {
            let bad = ImportRule.violations(try SourceTree.read(file))
            #expect(bad.isEmpty, "\(file.path): ComplianceCore may only import JSON, found \(bad)")
        }
    }

    /// Guards against a scanner that can never fail: the scan itself, on a file that breaks the
    /// rule, in a subfolder like the real ones.
    @Test func theScanCatchesAForbiddenImportInASubfolder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("source-rules-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Nested"), withIntermediateDirectories: true)
        let bad = ["import Foundation", "@preconcurrency import Dispatch", "public import Glibc", "import struct FoundationEssentials.Date"]
        for (index, line) in bad.enumerated() {
            try "import JSON\n\(line)\n".write(to: directory.appendingPathComponent("Nested/File\(index).swift"), atomically: true, encoding: .utf8)
        }
        let files = try SourceTree.swiftFiles(under: directory)
        #expect(files.count == bad.count)
        let found = try files.flatMap { ImportRule.violations(try SourceTree.read($0)) }
        #expect(found == ["Foundation", "Dispatch", "Glibc", "FoundationEssentials"])
        #expect(ImportRule.violations("import JSON\n// the word import in a comment\n").isEmpty)
    }

    /// swift-corelibs-foundation's `NSString.deletingLastPathComponent` and
    /// `deletingPathExtension` trap on a one-character name ("f", "d/"): `compliancectl run f`
    /// crashed. Every source uses `URL(fileURLWithPath:)` instead.
    @Test func noSourceUsesNSStringsPathTrimming() throws {
        var found: [String] = []
        for folder in ["Sources", "mocks"] {
            for file in try SourceTree.swiftFiles(under: SourceTree.root.appendingPathComponent(folder)) {
                for (number, line) in try SourceTree.read(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("as NSString).deletingLastPathComponent") || line.contains("as NSString).deletingPathExtension") {
                    found.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
