import ComplianceCore
import Foundation
import JSON
import Orchestrator
import Testing

/// A store written by the versions before the composed machine (one row per sub-machine) is
/// converted whole at the first start: every account gets its machine record in one
/// transaction, so a later start, which reads only machine records, loses none of them.
@Suite struct StoreUpgradeTests {
    static let upns = ["alice@contoso.com", "bob@contoso.com", "carol@contoso.com"]

    /// Three signed-in accounts of the earlier layout: alice enrolled (100, check-in in 8 h),
    /// bob and carol only signed in (bob's last enrollment failed with 227, kept on the account
    /// row; alice's 100 only on the enrollment row, as the oldest layout kept it).
    static func writeEarlierLayout(_ directory: String) throws {
        let store = try OrchestratorStore(stateDirectory: directory, logger: quietLogger)
        let now = Instant(millisecondsSinceEpoch: OrchestratorStore.wallClock())
        try store.writeSync { transaction in
            let alice = try AccountID(upns[0])
            var machine = EnrollmentStateMachine(account: alice)
            _ = machine.remediationEnrolled(now: now)
            _ = try transaction.upsertAccount(alice, signedIn: true, managed: true)
            _ = try transaction.saveEnrollment(for: alice, state: machine.snapshot.json, lastStatus: 100, nextDueAt: nil)
            try transaction.saveRegistration(MAMRegistration(account: alice, enrollmentID: "enrollment-alice", policy: ["id": "policy-1", "version": "1", "appIds": [], "allowedAccounts": nil, "encryptData": true]))
            for upn in upns.dropFirst() {
                _ = try transaction.upsertAccount(try AccountID(upn), signedIn: true, managed: false)
            }
            _ = try transaction.saveEnrollment(
                for: try AccountID(upns[1]), state: EnrollmentStateMachine(account: try AccountID(upns[1])).snapshot.json, lastStatus: nil, nextDueAt: nil)
            try transaction.setLastEnrollmentStatus(227, for: try AccountID(upns[1]))
        }
    }

    @Test func theFirstStartWritesEveryAccountsRecordAndALaterStartKeepsThemAll() async throws {
        try await EngineHarness.run(prepare: Self.writeEarlierLayout) { harness in
            let records = try harness.parts.store.readSync { try $0.machineRecords() }
            #expect(records.count == 3, "every account has its record after the first start")
            #expect(try harness.parts.store.readSync { try $0.appState("machine") } != nil)
            // A step that commits one account only, then a restart: the others are still there.
            _ = try await harness.engine.deregister("carol@contoso.com", wipe: true)
            let restarted = try await harness.restarted()
            let alice = try await restarted.engine.account("alice@contoso.com")
            #expect(alice.enrollmentState == .enrolled && alice.lastEnrollmentStatus?.rawValue == 100 && alice.signedIn)
            let bob = try await restarted.engine.account("bob@contoso.com")
            #expect(bob.signedIn && bob.lastEnrollmentStatus?.rawValue == 227)
            #expect(try await restarted.engine.account("carol@contoso.com").signedIn == false)
            await restarted.running.stop()
        }
    }
}
