import ComplianceCore
import JSON
import Testing
@testable import Orchestrator

/// What the store still reads of the layout before the composed machine, for the one-time
/// conversion into machine records (`Engine.legacyRecords`): journals and enrollments.
@Suite struct StoreEarlierLayoutTests {
    @Test func journalsAreReadOldestFirstAcrossReopen() async throws {
        try await withTemporaryDirectory { root in
            let clock = ManualClock()
            do {
                let store = try openStore(root, clock: clock)
                try store.writeSync { try EarlierLayout.saveJournal($0, bob, kind: "remediation", step: "acquireMAMToken", state: ["attempt": 1]) }
                clock.advance(by: 10)
                try store.writeSync { try EarlierLayout.saveJournal($0, alice, kind: "wipe", step: "vault", state: ["done": []]) }
                clock.advance(by: 10)
                try store.writeSync {
                    try EarlierLayout.saveJournal($0, try! AccountID("ALICE@contoso.com"), kind: "wipe", step: "tokens", state: ["done": ["vault"]])
                }
                // Simulated kill -9: the store is dropped without any shutdown step.
            }
            let store = try openStore(root, clock: clock)
            let open = try store.readSync { try $0.openJournals() }
            #expect(open.map(\.kind) == [JournalKind("remediation"), .wipe])
            #expect(open.map(\.account.key) == ["bob@contoso.com", "alice@contoso.com"])
            #expect(open[1].step == "tokens" && open[1].account.upn == "ALICE@contoso.com")
            #expect(open[1].state == ["done": ["vault"]])
            #expect(open[1].updatedAt == open[1].createdAt + 10)
        }
    }

    @Test func aTransactionThatThrowsLeavesNothing() async throws {
        struct Crash: Error {}
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: true)
            await #expect(throws: Crash.self) {
                try await store.write { tx in
                    _ = try tx.appendEvent("signedIn", account: alice, payload: [:])
                    try tx.deleteTokens(for: alice)
                    try tx.deleteAccount(alice)
                    throw Crash()
                }
            }
            #expect(try await store.events(since: 0, limit: 10).isEmpty)
            #expect(try await store.account(alice) != nil)
        }
    }

    @Test func enrollmentsRoundTrip() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try await store.upsertAccount(alice, signedIn: true, managed: true)
            let state: JSONValue = ["phase": "retryWait", "failures": 2, "lastError": nil]
            try await store.saveEnrollment(for: alice, state: state, lastStatus: 205, nextDueAt: 86_400_000)
            let enrollment = try #require(try await store.enrollment(for: alice))
            #expect(enrollment.state == state && enrollment.lastStatus == 205 && enrollment.nextDueAt == 86_400_000)
            #expect(try await store.enrollments().map(\.account) == [alice])
        }
    }
}
