import Daemon
import Foundation
import LocalServers
import Orchestrator
import Testing

/// Refusal codes and their HTTP statuses live in one table (`EngineError.Code.httpStatus`,
/// exhaustive, no default 500), and the control API's document answers each code under its
/// status (issue 37).
@Suite struct RefusalStatusTableTests {
    static let document: String = {
        let path = InProcessMockAuth.packageRoot.appendingPathComponent("docs/openapi/control-api.yaml").path
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    @Test func everyCodeHasItsStatusAndTheDocumentAnswersItThere() throws {
        let documented = OpenAPIErrorAnswers.pairs(in: Self.document)
        #expect(documented.count > 20, "the scan finds the document's error answers")
        #expect(Set(EngineError.Code.all.map(\.description)).count == EngineError.Code.all.count, "each code listed once")
        for code in EngineError.Code.all {
            let error = ControlError(EngineError(code, "why"))
            #expect(error.status.code == code.httpStatus && error.code == code.description)
            #expect(code == .internalError ? code.httpStatus == 500 : code.httpStatus != 500, "\(code) falls through to 500")
            #expect(
                documented.contains(.init(status: code.httpStatus, code: code.description)),
                "docs/openapi/control-api.yaml documents no \(code.httpStatus) answer naming `\(code)`")
        }
        #expect(EngineError.Code.storageUnavailable.httpStatus == 503 && EngineError.Code.keyGone.httpStatus == 410)
    }

    /// The scan reads both forms the document uses, and only a code in backticks counts.
    @Test func theScanReadsReferencedAndInlineAnswers() {
        let text = """
            paths:
              /v1/x:
                post:
                  responses:
                    "404": { $ref: "#/components/responses/NotFound" }
                    "422":
                      description: "`account_required`: no account named."
            components:
              responses:
                NotFound:
                  description: "`unknown_account`, `not_found` (a vault file), not conflict."
                Unused:
                  description: "`key_gone`"
            """
        #expect(OpenAPIErrorAnswers.pairs(in: text) == [
            .init(status: 404, code: "unknown_account"), .init(status: 404, code: "not_found"), .init(status: 422, code: "account_required"),
        ])
    }
}

/// The (status, code) answers an OpenAPI document of the control API describes: a path's
/// `"NNN": { $ref: "#/components/responses/Name" }` with the codes in backticks in that
/// response's description, or a `"NNN":` whose own `description:` names them.
enum OpenAPIErrorAnswers {
    struct Pair: Hashable, CustomStringConvertible {
        var status: Int
        var code: String
        var description: String { "\(status) \(code)" }
    }

    static func pairs(in document: String) -> Set<Pair> {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var components: [String: String] = [:]  // response name → description
        if let start = lines.firstIndex(of: "  responses:") {
            for index in lines.indices where index > start && lines[index].hasPrefix("    ") && !lines[index].hasPrefix("     ") {
                let name = lines[index].trimmingCharacters(in: .whitespaces).dropLast()
                if index + 1 < lines.count, let text = description(lines[index + 1]) { components[String(name)] = text }
            }
        }
        var found: Set<Pair> = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.count >= 6, trimmed.hasPrefix("\""), let status = Int(trimmed.dropFirst().prefix(3)), trimmed.dropFirst(4).hasPrefix("\":") else { continue }
            var text: String?
            if let reference = trimmed.range(of: "#/components/responses/") {
                text = components[String(trimmed[reference.upperBound...].prefix { $0 != "\"" })]
            } else if index + 1 < lines.count {
                text = description(lines[index + 1])
            }
            for code in codes(in: text ?? "") { found.insert(Pair(status: status, code: code)) }
        }
        return found
    }

    static func description(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("description:") ? String(trimmed.dropFirst("description:".count)) : nil
    }

    /// Every `` `code` `` of lower-case letters and underscores.
    static func codes(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            index % 2 == 1 && !part.isEmpty && part.allSatisfy({ $0.isLowercase || $0 == "_" }) ? String(part) : nil
        }
    }
}
