import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// Credentials are never ignored: a silent request that carries them is refused (a wrong
/// password would otherwise pass while the cache answers) (issue 36, point 3).
@Suite struct SilentCredentialsTests {
    @Test func aSilentRequestCarryingCredentialsIsRefused() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            let wrong = InteractiveUser.signIn(password: "Wr0ng")
            for call in 0..<3 {
                do {
                    switch call {
                    case 0: _ = try await harness.engine.acquireToken("bob@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: wrong)
                    case 1: _ = try await harness.engine.signIn("bob@contoso.com", scopes: EngineHarness.chatRead, silent: true, user: wrong)
                    default: _ = try await harness.engine.remediate("bob@contoso.com", silent: true, user: wrong)
                    }
                    Issue.record("a silent request with a (wrong) password was answered")
                } catch let error as EngineError {
                    #expect(error.code == .badRequest && error.message.contains("silent request carries no credentials"), "\(error)")
                }
            }
        }
    }
}
