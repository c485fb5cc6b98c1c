import ComplianceCore
import Orchestrator
import Testing

/// A failed commit changes nothing a caller can observe, memory-only state included: the app's
/// process identity survives an unrelated call's failed commit, so a read refused a moment
/// earlier stays refused (issue 36, point 5).
/// The process identity is set to no user: reading the managed account's data is then refused.
@Suite struct FailedCommitIdentityTests {
    @Test func aFailedCommitLeavesTheIdentitiesAsTheyWere() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            _ = try await harness.engine.putData("alice@contoso.com", name: "plan.txt", bytes: Array("alice's plan".utf8))
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            try await harness.engine.setProcessIdentity("")  // no user
            let before = await harness.engine.identityView()
            await #expect(throws: EngineError.self) { _ = try await harness.engine.getData("alice@contoso.com", name: "plan.txt") }

            await harness.engine.failStorage(.commit, count: 1)
            await #expect(throws: EngineError.self) { _ = try await harness.signIn("carol@contoso.com") }

            #expect(await harness.engine.identityView() == before)
            do {
                _ = try await harness.engine.getData("alice@contoso.com", name: "plan.txt")
                Issue.record("alice's managed data was served under no user after a failed commit reset the identities")
            } catch let error as EngineError {
                #expect(error.code == .identityMismatch, "\(error)")
            }
        }
    }
}
