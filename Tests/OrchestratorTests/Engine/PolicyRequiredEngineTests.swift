import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// `MAMPolicyRequired` at the engine: while no policy is in force, tokens and managed data,
/// stored or read, are refused with `policy_required`; sign-in still runs.
@Suite struct PolicyRequiredEngineTests {
    @Test func dataWrittenUnderAPolicyCannotBeReadOnceNoPolicyIsInForce() async throws {
        try await EngineHarness.run(app: EngineHarness.appsDirectory + "/chatr-policy-required-Info.plist") { harness in
            try await harness.admin(.post, "users/bob@contoso.com/mam-policy", ["assigned": false])
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            await #expect(throws: EngineError.self) { _ = try await harness.engine.putData("bob@contoso.com", name: "a.txt", bytes: [1]) }
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            _ = try await harness.engine.putData("bob@contoso.com", name: "a.txt", bytes: [1])
            #expect(try await harness.engine.getData("bob@contoso.com", name: "a.txt") == [1])
            _ = try await harness.engine.deregister("alice@contoso.com", wipe: true)  // her policy leaves with her
            do {
                _ = try await harness.engine.getData("bob@contoso.com", name: "a.txt")
                Issue.record("bob's file was read while no policy is in force")
            } catch let error as EngineError {
                #expect(error.code == .policyRequired && error.message.contains("MAMPolicyRequired"), "\(error)")
            }
            let token = try? await harness.engine.acquireToken("bob@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(token == nil, "no token without a policy")
        }
    }
}
