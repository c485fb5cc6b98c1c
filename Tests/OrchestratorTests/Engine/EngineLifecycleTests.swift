import ComplianceCore
import Foundation
import JSON
import Orchestrator
import Testing

/// Enrollment, check-in, allowed accounts and selective wipe over virtual time.
@Suite struct EngineLifecycleTests {
    static let aliceFile: [UInt8] = Array("alice's notes".utf8)
    static let bobFile: [UInt8] = Array("bob's notes".utf8)

    /// alice remediated and managed, bob signed in (not managed: 227); both hold a file.
    static func twoAccountsWithData(_ harness: EngineHarness) async throws {
        #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
        #expect(try await harness.signIn("bob@contoso.com").signedIn)
        _ = try await harness.engine.putData("alice@contoso.com", name: "notes.txt", bytes: aliceFile)
        _ = try await harness.engine.putData("bob@contoso.com", name: "notes.txt", bytes: bobFile)
    }

    @Test func filesAreEncryptedWhenThePolicyRequiresIt() async throws {
        try await EngineHarness.run { harness in
            try await Self.twoAccountsWithData(harness)
            let files = try await harness.engine.listData("alice@contoso.com")
            #expect(files.map(\.name) == ["notes.txt"] && files.allSatisfy(\.encrypted))
            #expect(try await harness.engine.getData("alice@contoso.com", name: "notes.txt") == Self.aliceFile)
            await #expect(throws: EngineError.self) { try await harness.engine.putData("alice@contoso.com", name: "../escape", bytes: [1]) }
        }
    }

    @Test func theAllowedListShrinksBobIsSignedOutAndWipedAliceUntouched() async throws {
        try await EngineHarness.run { harness in
            try await Self.twoAccountsWithData(harness)
            try await harness.admin(.put, "policy/allowed-accounts", ["allowedAccounts": ["alice@contoso.com"]])
            try await harness.advance(hours: 8)  // alice's check-in brings the new policy (100)
            let bob = try await harness.engine.account("bob@contoso.com")
            #expect(!bob.signedIn && bob.dataFiles == 0)
            #expect(try await harness.engine.getData("alice@contoso.com", name: "notes.txt") == Self.aliceFile)
            let changed = try #require(try await harness.events().first { $0.kind == "allowedAccountsChanged" && $0.payload["removed"] == ["bob@contoso.com"] })
            #expect(changed.payload["new"] == ["alice@contoso.com"])
            let bobToken = try await harness.engine.acquireToken("bob@contoso.com", scopes: ["openid"], silent: true, remediate: true, user: nil)
            #expect(bobToken.tokens == nil)
            await #expect(throws: EngineError.self) { try await harness.signIn("bob@contoso.com") }
        }
    }

    @Test func anAdminWipeArrivesAtTheEightHourCheckIn() async throws {
        try await EngineHarness.run { harness in
            try await Self.twoAccountsWithData(harness)
            try await harness.admin(.post, "users/alice@contoso.com/wipe", [:])
            try await harness.advance(hours: 7)
            #expect(try await harness.engine.account("alice@contoso.com").dataFiles == 1)
            try await harness.advance(hours: 1)
            let alice = try await harness.engine.account("alice@contoso.com")
            #expect(alice.dataFiles == 0 && !alice.signedIn && alice.wipe == "done")
            #expect(try await harness.events().contains { $0.kind == "policy" && $0.payload["status"] == 102 })
            let token = try await harness.engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(token.status == .interactionRequired)  // tokens are gone
            #expect(try await harness.engine.getData("bob@contoso.com", name: "notes.txt") == Self.bobFile)
        }
    }

    @Test func checkInsReportUnchangedThenNewPolicies() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            try await harness.advance(hours: 8)
            try await harness.admin(.patch, "policy", ["pinRequired": true])
            try await harness.advance(hours: 8)
            let statuses = try await harness.events().filter { $0.kind == "policy" }.compactMap { $0.payload["status"]?.intValue }
            #expect(statuses == [101, 100])
        }
    }

    @Test func aFailedEnrollmentIsRetriedAfterTwentyFourHours() async throws {
        try await EngineHarness.run { harness in
            try await harness.admin(.post, "faults", ["route": "mam.enroll", "status": 503, "count": 1])
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            #expect(try await harness.engine.account("bob@contoso.com").enrollmentState == .awaitingRetry)
            try await harness.advance(hours: 23)
            #expect(try await harness.engine.account("bob@contoso.com").enrollmentState == .awaitingRetry)
            try await harness.advance(hours: 1)
            let bob = try await harness.engine.account("bob@contoso.com")
            #expect(bob.enrollmentState == .enrolled && bob.lastEnrollmentStatus == .newPoliciesReceived)
            let statuses = try await harness.events().filter { $0.kind == "enrollment" }.compactMap { $0.payload["status"]?.intValue }
            #expect(statuses == [201, 100])
        }
    }

    @Test func deregisterWithWipeRemovesOnlyThatAccount() async throws {
        try await EngineHarness.run { harness in
            try await Self.twoAccountsWithData(harness)
            let outcome = try await harness.engine.deregister("alice@contoso.com", wipe: true)
            #expect(outcome.enrollmentStatus == .unenrollmentSuccess && outcome.wiped)
            let alice = try await harness.engine.account("alice@contoso.com")
            #expect(alice.dataFiles == 0 && !alice.signedIn && alice.enrollmentState == .removed)
            // Unenrolled, she is no longer known compliant (the service forgot it too), also after a restart.
            #expect(alice.compliance == nil)
            #expect(try await harness.engine.getData("bob@contoso.com", name: "notes.txt") == Self.bobFile)
            let bob = try await harness.engine.account("bob@contoso.com")
            #expect(bob.signedIn)
            #expect(try await harness.restarted().engine.account("alice@contoso.com").compliance == nil)
        }
    }

    @Test func deregisterWithoutWipeForgetsTheCompliance() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            #expect(try await harness.engine.account("alice@contoso.com").compliance == .compliant)
            let outcome = try await harness.engine.deregister("alice@contoso.com", wipe: false)
            #expect(outcome.enrollmentStatus == .unenrollmentSuccess && !outcome.wiped)
            let alice = try await harness.engine.account("alice@contoso.com")
            #expect(alice.compliance == nil && alice.signedIn && !alice.managed)
            // The service forgot it as well: alice is no longer compliant there.
            let users = try await harness.admin(.get, "state")["users"]?.arrayValue ?? []
            let mockAlice = try #require(users.first { $0["upn"] == "alice@contoso.com" })
            #expect(mockAlice["compliantApps"] == [], "\(mockAlice)")
        }
    }

    @Test func aFailedRemediationOfAnAccountHoldingManagedDataWipesIt() async throws {
        try await EngineHarness.run { harness in
            try await Self.twoAccountsWithData(harness)
            try await harness.admin(.post, "users/alice@contoso.com/mam-policy", ["assigned": false])
            try await harness.admin(.post, "users/alice@contoso.com/compliance/reset", [:])
            try await harness.advance(hours: 2)  // the cached access token expires: the refresh grant meets CA again
            let outcome = try await harness.engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
            #expect(outcome.remediated && outcome.status == .notCompliant)
            let alice = try await harness.engine.account("alice@contoso.com")
            #expect(alice.dataFiles == 0)
            #expect(try await harness.events().contains { $0.kind == "wipeStarted" && $0.payload["reason"] == "remediationFailed" })
            #expect(try await harness.engine.getData("bob@contoso.com", name: "notes.txt") == Self.bobFile)
        }
    }

    @Test func aSecondManagedAccountIsRefusedWith227() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            try await harness.admin(.post, "users/bob@contoso.com/ca", ["targeted": true])
            let bob = try await harness.signIn("bob@contoso.com")
            #expect(bob.token.status == .notCompliant && bob.token.report?.enrollmentStatus == .singleManagedAccountMode)
            // In the log, bob's remediation starts before it reports.
            let bobs = try await harness.events().filter { $0.account == "bob@contoso.com" }.map(\.kind)
            #expect(bobs.filter { ["remediationStarted", "compliance"].contains($0) } == ["remediationStarted", "compliance"], "\(bobs)")
        }
    }

    @Test func aRefusedSecondEnrollmentKeepsItsStatusAcrossARestart() async throws {
        try await EngineHarness.run { harness in
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            // bob is not targeted for CA: he signs in, and his enrollment is refused (227).
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            let before = try await harness.engine.account("bob@contoso.com")
            #expect(before.lastEnrollmentStatus == .singleManagedAccountMode && before.enrollmentState == .waitingForSlot)
            let alice = try await harness.engine.account("alice@contoso.com")

            let restarted = try await harness.restarted()
            let after = try await restarted.engine.account("bob@contoso.com")
            #expect(after.lastEnrollmentStatus == .singleManagedAccountMode)
            #expect(after.enrollmentState == before.enrollmentState && after.managed == before.managed && after.signedIn)
            let aliceAfter = try await restarted.engine.account("alice@contoso.com")
            #expect(aliceAfter.lastEnrollmentStatus == alice.lastEnrollmentStatus && aliceAfter.lastEnrollmentStatus != nil)
        }
    }
}
