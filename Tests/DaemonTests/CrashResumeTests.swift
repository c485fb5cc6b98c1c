import Foundation
import JSON
import Orchestrator
import Testing
import LocalServers

/// `kill -9` right after every step a scenario commits, then a restart: the daemon resumes
/// journaled work before it serves, the app retries what failed, and the end state equals an
/// uninterrupted run's (statuses, tokens, vault files per account, no repeated Compliant).
@Suite(.serialized) struct CrashResumeTests {
    static let scenarios: [CrashScenario] = [
        CrashScenario(name: "alice signs in: 53005, remediation, first-policy restart", setup: [], trigger: [.signIn("alice@contoso.com")],
            points: ["allowedAccounts:tracking", "enrollment:enrolled", "enrollment:unregistered", "remediation:acquiringMAMToken", "remediation:awaitingRestart", "remediation:enrolling", "remediation:idle", "remediation:reportingCompliance", "remediation:retryingTokenRequest", "wipe:idle"]),
        CrashScenario(name: "bob signs in and registers", setup: [], trigger: [.signIn("bob@contoso.com")],
            points: ["allowedAccounts:tracking", "enrollment:enrolled", "enrollment:enrolling", "remediation:idle", "wipe:idle"]),
        CrashScenario(
            name: "a failed enrollment is retried after 24 h",
            setup: [.admin(.post, "faults", ["route": "mam.enroll", "status": 503, "count": 1])],
            trigger: [.signIn("bob@contoso.com"), .advance(hours: 24)],
            points: ["allowedAccounts:tracking", "enrollment:awaitingRetry", "enrollment:enrolled", "enrollment:enrolling", "remediation:idle", "wipe:idle"]),
        CrashScenario(
            name: "the 8 h check-in brings a new policy",
            setup: [.signIn("alice@contoso.com"), .admin(.patch, "policy", ["pinRequired": true])],
            trigger: [.advance(hours: 8)],
            points: ["enrollment:enrolled", "wipe:idle"]),
        CrashScenario(
            name: "an admin wipe arrives at the check-in",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.post, "users/alice@contoso.com/wipe", [:]),
            ],
            trigger: [.advance(hours: 8)],
            points: ["allowedAccounts:tracking", "enrollment:awaitingRetry", "enrollment:enrolled", "enrollment:removed", "enrollment:wiping", "remediation:idle", "wipe:done", "wipe:idle", "wipe:intentRecorded", "wipe:tokensRemoved"]),
        CrashScenario(
            name: "deregister with wipe",
            setup: [.signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b")],
            trigger: [.deregister("alice@contoso.com", wipe: true)],
            points: ["allowedAccounts:tracking", "enrollment:acquiringUnenrollToken", "enrollment:awaitingRetry", "enrollment:removed", "enrollment:wiping", "remediation:idle", "wipe:done", "wipe:idle", "wipe:intentRecorded", "wipe:tokensRemoved"]),
        CrashScenario(
            name: "the allowed list shrinks: bob is signed out and wiped",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.put, "policy/allowed-accounts", ["allowedAccounts": ["alice@contoso.com"]]),
            ],
            trigger: [.advance(hours: 8)],
            points: ["allowedAccounts:removing", "allowedAccounts:tracking", "enrollment:enrolled", "enrollment:removed", "enrollment:wiping", "remediation:idle", "wipe:done", "wipe:idle", "wipe:intentRecorded", "wipe:tokensRemoved"]),
        CrashScenario(
            name: "a failed remediation wipes the account's managed data",
            setup: [
                .signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b"),
                .admin(.post, "users/alice@contoso.com/mam-policy", ["assigned": false]),
                .admin(.post, "users/alice@contoso.com/compliance/reset", [:]), .advance(hours: 2),
            ],
            trigger: [.token("alice@contoso.com")],
            points: ["allowedAccounts:tracking", "enrollment:awaitingRetry", "enrollment:enrolled", "enrollment:removed", "enrollment:wiping", "remediation:acquiringMAMToken", "remediation:enrolling", "remediation:idle", "remediation:wipingManagedData", "wipe:done", "wipe:idle", "wipe:intentRecorded", "wipe:tokensRemoved"]),
        CrashScenario(
            name: "bob signs in while alice is managed: his registration waits for the slot",
            setup: [.signIn("alice@contoso.com")],
            trigger: [.signIn("bob@contoso.com")],
            points: ["allowedAccounts:tracking", "enrollment:waitingForSlot", "remediation:idle", "wipe:idle"]),
        CrashScenario(
            name: "deregister with wipe, the app's hook leaving the files to the daemon",
            setup: [.signIn("alice@contoso.com"), .signIn("bob@contoso.com"), .putData("alice@contoso.com", "a"), .putData("bob@contoso.com", "b")],
            trigger: [.deregister("alice@contoso.com", wipe: true)],
            points: ["allowedAccounts:tracking", "enrollment:acquiringUnenrollToken", "enrollment:awaitingRetry", "enrollment:removed", "enrollment:wiping",
                     "remediation:idle", "wipe:appHookFinished", "wipe:done", "wipe:idle", "wipe:intentRecorded", "wipe:tokensRemoved"],
            daemonArguments: ["--wipe-hook", "exit 1"]),
    ]

    /// Points no scenario reaches against mockauth: its enroll answer always carries the
    /// policy, so a remediation never waits for one (`awaitingPolicy` is stored only when a
    /// MAM service enrolls without a policy).
    static let unreachableWithTheMock: Set<String> = ["remediation:awaitingPolicy"]

    /// One scenario a test case: its reference run, then a crash at every point it commits.
    /// Each failure names the scenario and the point; a run that throws is recorded and the
    /// next point still runs.
    @Test(arguments: scenarios)
    func everyCommittedStepIsACrashPointThatConverges(_ scenario: CrashScenario) async throws {
        try await InProcessMockAuth.run { mock in
            let reference = try await scenario.reference(mock: mock)
            #expect(reference.points == scenario.points.sorted(), "\(scenario.name): the points its trigger commits changed")
            for point in reference.points {
                do {
                    let outcome = try await scenario.crash(at: point, mock: mock)
                    #expect(outcome.death == .atArmedPoint, "\(scenario.name), crash at \(point): the daemon \(outcome.death)")
                    #expect(outcome.state == reference.state, "\(scenario.name), crash at \(point): the end state differs")
                } catch {
                    Issue.record("\(scenario.name), crash at \(point): \(error)")
                }
            }
        }
    }

    /// The scenarios together reach every crash point the daemon has.
    @Test func theScenariosCoverEveryCrashPoint() {
        let covered = Set(Self.scenarios.flatMap(\.points))
        let all = Set(Engine.crashPoints).subtracting(Self.unreachableWithTheMock)
        #expect(covered == all, "never exercised: \(all.subtracting(covered).sorted()); not a crash point: \(covered.subtracting(all).sorted())")
    }

    static func withStateDirectory<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }
}
