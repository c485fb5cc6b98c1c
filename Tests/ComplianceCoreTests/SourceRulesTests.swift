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

    static func swiftFiles() throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: complianceCore.path)
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { complianceCore.appendingPathComponent($0) }
    }
}

@Suite struct SourceRulesTests {
    @Test func noFoundationGlibcOrDispatchImportInComplianceCore() throws {
        let files = try SourceTree.swiftFiles()
        #expect(files.count >= 15)
        let forbidden: Set<Substring> = ["Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch"]
        for file in files {
            for line in try SourceTree.read(file).split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let importIndex = words.firstIndex(of: "import") else { continue }
                // `import X`, `@testable import X`, `public import X`, `import struct X.Y`, `@preconcurrency import X`
                guard words[..<importIndex].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "private", "fileprivate", "package"].contains($0) }) else { continue }
                let module = words[words.index(before: words.endIndex)].split(separator: ".").first ?? ""
                #expect(!forbidden.contains(module), "\(file.lastPathComponent): \(line)")
                #expect(module == "JSON", "\(file.lastPathComponent) imports \(module); ComplianceCore may only import JSON")
            }
        }
    }

    @Test func theScannerWouldCatchAForbiddenImport() {
        // Guards against a scanner that can never fail: the same parsing applied to bad lines.
        let lines = ["import Foundation", "@preconcurrency import Dispatch", "public import Glibc", "import struct Foundation.Date"]
        for line in lines {
            let words = line.split(separator: " ")
            let module = words.last!.split(separator: ".").first!
            #expect(["Foundation", "Dispatch", "Glibc"].contains(module))
        }
    }
}
