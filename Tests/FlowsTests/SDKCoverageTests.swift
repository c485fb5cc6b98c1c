import Foundation
import Testing

/// docs/sdk-coverage.md names the flows and tests that show each behaviour of the SDK guides:
/// every one it names must exist, and every row must say how it is covered (the format is at
/// the top of the document).
@Suite struct SDKCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let statuses: Set<String> = ["shown", "unit", "partial", "n/a"]

    /// The backticked references of `text`: `flows/…` and `Tests/…`.
    static func references(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && ($0.element.hasPrefix("flows/") || $0.element.hasPrefix("Tests/")) }
            .map { String($0.element) }
    }

    /// Why a reference does not hold, or nil.
    static func problem(_ reference: String, root: String) -> String? {
        let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
        let path = parts[0]
        if path.hasPrefix("flows/") {
            guard path.hasSuffix(".json"), parts.count == 1 else { return "\(reference): a flow is named flows/NAME.json" }
        } else if !path.hasSuffix(".swift") {
            return "\(reference): a test is named Tests/TARGET/FILE.swift or Tests/TARGET/FILE.swift#function"
        }
        guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { return "\(reference): \(path) does not exist" }
        if parts.count == 2 {
            let function = parts[1]
            guard !function.isEmpty, text.contains("func \(function)(") else { return "\(reference): \(path) declares no func \(function)(" }
        }
        return nil
    }

    /// Every table row's problems: a status outside the four, a reference that does not hold, a
    /// partial row without its reason, an n/a row without what stands in.
    static func problems(in document: String, root: String) -> [String] {
        var problems: [String] = []
        for (number, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0] != "behaviour (guide's words)" else { continue }
            let place = "docs/sdk-coverage.md:\(number + 1)"
            if !statuses.contains(cells[1]) { problems.append("\(place): status '\(cells[1])' is not one of \(statuses.sorted())") }
            if cells[1] == "partial", cells[3].isEmpty { problems.append("\(place): a partial row must say what is missing and why") }
            if ["shown", "unit", "n/a"].contains(cells[1]), references(in: cells[2]).isEmpty {
                problems.append("\(place): a \(cells[1]) row names the flow or test that shows it (or stands in)")
            }
            if cells[1] == "shown", !references(in: cells[2]).contains(where: { $0.hasPrefix("flows/") }) {
                problems.append("\(place): a shown row names a flow")
            }
            problems += references(in: String(line)).compactMap { problem($0, root: root) }.map { "\(place): \($0)" }
        }
        return problems
    }

    @Test func everyFlowAndTestTheMapNamesExists() throws {
        let document = try String(contentsOfFile: Self.root + "/docs/sdk-coverage.md", encoding: .utf8)
        #expect(Self.references(in: document).count > 50)
        #expect(Self.problems(in: document, root: Self.root) == [])
    }

    /// The check fails for a missing flow, a missing test function, a bad status and a partial
    /// row without its reason.
    @Test func theCheckFindsWhatIsMissing() {
        // Built, so that this file does not declare it by quoting it.
        let missing = ["noSuch", "Function"].joined()
        let document = """
            | behaviour (guide's words) | status | shown by | invariant or why none |
            |---|---|---|---|
            | a | shown | `flows/no-such-flow.json` | none |
            | b | unit | `Tests/FlowsTests/SDKCoverageTests.swift#\(missing)` | none |
            | c | mostly | `Tests/FlowsTests/SDKCoverageTests.swift#theCheckFindsWhatIsMissing` | none |
            | d | partial | `flows/seed-mam-ca-always-applied.json` | |
            | e | shown | `Tests/FlowsTests/SDKCoverageTests.swift` | none |
            """
        #expect(Self.problems(in: document, root: Self.root) == [
            "docs/sdk-coverage.md:3: flows/no-such-flow.json: flows/no-such-flow.json does not exist",
            "docs/sdk-coverage.md:4: Tests/FlowsTests/SDKCoverageTests.swift#\(missing): Tests/FlowsTests/SDKCoverageTests.swift declares no func \(missing)(",
            "docs/sdk-coverage.md:5: status 'mostly' is not one of [\"n/a\", \"partial\", \"shown\", \"unit\"]",
            "docs/sdk-coverage.md:6: a partial row must say what is missing and why",
            "docs/sdk-coverage.md:7: a shown row names a flow",
        ])
    }
}
