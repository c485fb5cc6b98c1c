import Daemon
import Foundation
import LocalServers
import Orchestrator
import Testing

/// Refusal codes and their HTTP statuses live in one table (`EngineError.Code.httpStatus`,
/// exhaustive, no default 500), and the control API's document names every code (issue 37).
@Suite struct RefusalStatusTableTests {
    @Test func everyCodeHasItsStatusAndTheDocumentNamesIt() throws {
        let document = try String(
            contentsOfFile: InProcessMockAuth.packageRoot.appendingPathComponent("docs/openapi/control-api.yaml").path, encoding: .utf8)
        #expect(Set(EngineError.Code.all.map(\.description)).count == EngineError.Code.all.count, "each code listed once")
        for code in EngineError.Code.all {
            let error = ControlError(EngineError(code, "why"))
            #expect(error.status.code == code.httpStatus && error.code == code.description)
            #expect(code == .internalError ? code.httpStatus == 500 : code.httpStatus != 500, "\(code) falls through to 500")
            #expect(document.contains(code.description), "docs/openapi/control-api.yaml does not name \(code)")
            #expect(document.contains("\"\(code.httpStatus)\":"), "no \(code.httpStatus) answer is documented for \(code)")
        }
        #expect(EngineError.Code.storageUnavailable.httpStatus == 503 && EngineError.Code.keyGone.httpStatus == 410)
    }
}
