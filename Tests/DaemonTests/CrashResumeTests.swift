import Foundation
import JSON
import Orchestrator
import Testing
import TestSupport

/// `kill -9` right after every step a scenario commits, then a restart: the daemon resumes
/// journaled work before it serves, the app retries what failed, and the end state equals an
/// uninterrupted run's (statuses, tokens, vault files per account, no repeated Compliant).
@Suite(.serialized) struct CrashResumeTests {
    static let scenarios: [CrashScenario] = [
        CrashScenario(name: "alice signs in: 53005, remediation, first-policy restart", setup: [], trigger: [.signIn("alice@contoso.com")]),
        CrashScenario(name: "bob signs in and registers", setup: [], trigger: [.signIn("bob@contoso.com")]),
        CrashScenario(
            name: "a failed enrollment is retried after 24 h",
            setup: [.admin(.post, "faults", ["route": "mam.enroll", "status": 503, "count": 1])],
            trigger: [.signIn("bob@contoso.com"), .advance(hours: 24)]),
        CrashScenario(
            name: "the 8 h check-in brings a new policy",
            setup: [.signIn("alice@contoso.com"), .admin(.patch, "policy", ["pinRequired": true])],
            trigger: [.advance(hours: 8)]),
        CrashScenario(
            name: "an admin wipe arrives at the check-in",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.post, "users/alice@contoso.com/wipe", [:]),
            ],
            trigger: [.advance(hours: 8)]),
        CrashScenario(
            name: "deregister with wipe",
            setup: [.signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b")],
            trigger: [.deregister("alice@contoso.com", wipe: true)]),
        CrashScenario(
            name: "the allowed list shrinks: bob is signed out and wiped",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.put, "policy/allowed-accounts", ["allowedAccounts": ["alice@contoso.com"]]),
            ],
            trigger: [.advance(hours: 8)]),
        CrashScenario(
            name: "a failed remediation wipes the account's managed data",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.post, "users/alice@contoso.com/mam-policy", ["assigned": false]),
                .admin(.post, "users/alice@contoso.com/compliance/reset", [:]), .advance(hours: 2),
            ],
            trigger: [.token("alice@contoso.com")]),
    ]

    @Test func everyCommittedStepOfEveryScenarioIsACrashPointThatConverges() async throws {
        try await InProcessMockAuth.run { mock in
            var exercised: Set<String> = []
            var runs = 0
            for scenario in Self.scenarios {
                let reference = try await scenario.reference(mock: mock)
                #expect(!reference.points.isEmpty, "\(scenario.name) commits nothing")
                for point in reference.points {
                    let outcome = try await scenario.crash(at: point, mock: mock)
                    runs += 1
                    #expect(outcome.died, "\(scenario.name): the daemon did not stop at \(point)")
                    #expect(outcome.state == reference.state, "\(scenario.name): after a crash at \(point)")
                    if outcome.died { exercised.insert(point) }
                }
            }
            let all = Set(Engine.crashPoints)
            print("crash points exercised: \(exercised.count) of \(all.count) in \(runs) crash runs; never reached: \(all.subtracting(exercised).sorted().joined(separator: ", "))")
            #expect(exercised == all, "crash points never exercised: \(all.subtracting(exercised).sorted())")
        }
    }

    static func withStateDirectory<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }
}
