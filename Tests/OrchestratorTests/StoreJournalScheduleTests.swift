import ComplianceCore
import JSON
import Testing
@testable import Orchestrator

@Suite struct StoreJournalScheduleTests {
    @Test func journalsUpsertAndListForResumeAcrossReopen() async throws {
        try await withTemporaryDirectory { root in
            let clock = ManualClock()
            do {
                let store = try openStore(root, clock: clock)
                try await store.saveJournal(for: bob, kind: .remediation, step: "acquireMAMToken", state: ["attempt": 1])
                clock.advance(by: 10)
                let first = try await store.saveJournal(for: alice, kind: .wipe, step: "vault", state: ["done": []])
                clock.advance(by: 10)
                let second = try await store.saveJournal(for: try! AccountID("ALICE@contoso.com"), kind: .wipe, step: "tokens", state: ["done": ["vault"]])
                #expect(second.createdAt == first.createdAt && second.updatedAt == first.updatedAt + 10)
                // Simulated kill -9: the store is dropped without any shutdown step.
            }
            let store = try openStore(root, clock: clock)
            let open = try await store.openJournals()
            #expect(open.map(\.kind) == [.remediation, .wipe])
            #expect(open.map(\.account.key) == ["bob@contoso.com", "alice@contoso.com"])
            #expect(open[1].step == "tokens")
            #expect(open[1].state == ["done": ["vault"]])
            #expect(try await store.deleteJournal(for: alice, kind: .wipe))
            #expect(try await !store.deleteJournal(for: alice, kind: .wipe))
            #expect(try await store.openJournals().map(\.account) == [bob])
        }
    }

    @Test func journalAndSideEffectRecordCommitTogetherOrNotAtAll() async throws {
        struct Crash: Error {}
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: true)
            await #expect(throws: Crash.self) {
                try await store.write { tx in
                    try tx.saveJournal(for: alice, kind: .wipe, step: "tokens", state: [:])
                    try tx.deleteTokens(for: alice)
                    try tx.deleteAccount(alice)
                    throw Crash()
                }
            }
            #expect(try await store.openJournals().isEmpty)
            #expect(try await store.account(alice) != nil)
        }
    }

    @Test func dueSchedulesComeByDueTimeThenID() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: true)
            try await store.upsertAccount(bob, signedIn: true, managed: false)
            let late = try await store.schedule(.enrollmentRetry, account: bob, at: 3000)
            let tieA = try await store.schedule(.checkIn, account: alice, at: 2000, payload: ["policyVersion": "7"])
            let tieB = try await store.schedule(.remediationRetry, account: nil, at: 2000)
            let early = try await store.schedule(.checkIn, account: bob, at: 1000)
            _ = try await store.schedule(.remediationRetry, account: alice, at: 9000)

            #expect(try await store.dueSchedules(at: 999).isEmpty)
            #expect(try await store.dueSchedules(at: 2000).map(\.id) == [early.id, tieA.id, tieB.id])
            #expect(try await store.dueSchedules(at: 3000).map(\.id) == [early.id, tieA.id, tieB.id, late.id])
            #expect(try await store.nextScheduleDue() == 1000)
            #expect(try store.readSync { try $0.firstDueSchedule(at: 999) } == nil)
            #expect(try store.readSync { try $0.firstDueSchedule(at: 3000) }?.id == early.id)
            #expect(try store.readSync { try $0.scheduleDue(.checkIn, account: alice) } == 2000)
            #expect(try store.readSync { try $0.scheduleDue(.enrollmentRetry, account: alice) } == nil)
            let fetched = try await store.dueSchedules(at: 2000)
            #expect(fetched[1].account?.upn == "Alice@Contoso.com" && fetched[1].payload == ["policyVersion": "7"])
            #expect(fetched[2].account == nil)

            // Rescheduling the same kind for the same account replaces the timer.
            let moved = try await store.schedule(.checkIn, account: alice, at: 5000)
            #expect(try await store.schedules(for: alice).first?.id == moved.id)
            #expect(try await !store.dueSchedules(at: 9000).map(\.id).contains(tieA.id))
            #expect(try await store.schedules(for: alice).map(\.dueAt) == [5000, 9000])
            #expect(try await store.removeSchedule(id: early.id))
            #expect(try await !store.removeSchedule(id: early.id))
            #expect(try await store.dueSchedules(at: 4000).map(\.id) == [tieB.id, late.id])
        }
    }

    @Test func enrollmentsAndPoliciesRoundTrip() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: true)
            let state: JSONValue = ["phase": "retryWait", "failures": 2, "lastError": nil]
            try await store.saveEnrollment(for: alice, state: state, lastStatus: 205, nextDueAt: 86_400_000)
            let enrollment = try #require(try await store.enrollment(for: alice))
            #expect(enrollment.state == state && enrollment.lastStatus == 205 && enrollment.nextDueAt == 86_400_000)
            #expect(try await store.enrollments().map(\.account) == [alice])

            try await store.savePolicy(.app("com.contoso.app"), version: "3", policy: ["pinRequired": true], allowedAccounts: ["Alice@Contoso.com"])
            try await store.savePolicy(.account(alice), version: "4", policy: ["fileEncryptionRequired": true], allowedAccounts: nil)
            let app = try #require(try await store.policy(for: .app("com.contoso.app")))
            #expect(app.allowedAccounts == ["Alice@Contoso.com"] && app.version == "3")
            let own = try #require(try await store.policy(for: .account(try! AccountID("alice@CONTOSO.com"))))
            #expect(own.allowedAccounts == nil && own.policy == ["fileEncryptionRequired": true])
            #expect(own.scope == .account(alice))
            #expect(try await store.deletePolicy(for: .app("com.contoso.app")))
            #expect(try await store.policy(for: .app("com.contoso.app")) == nil)
        }
    }
}
