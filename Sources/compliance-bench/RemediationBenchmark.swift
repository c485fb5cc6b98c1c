import ComplianceCore
import Foundation
import HTTPClient
import JSON
import MockAuth
import Orchestrator

/// Issue 9: one remediation end to end (a silent token request answered 53005 → Compliant)
/// through the in-process Orchestrator engine against a loopback mockauth, against the sum of
/// the raw libcurl round trips of the same requests on one reused handle, same run.
///
/// Steady state: the account is enrolled and its policy applied, so the remediation does not
/// restart the app (only the first policy does; that run happens once, unmeasured, in the
/// sign-in that sets the state up).
enum RemediationBenchmark {
    static let alice = "alice@contoso.com"

    static func run(iterations: Int, rounds: Int) async throws {
        try await BenchMock.run { mock in
            try await BenchEngine.run("remediation", mock: mock) { bench in
                let first = try await bench.engine.signIn(alice, scopes: BenchEngine.chatRead, silent: false, user: BenchEngine.password)
                precondition(first.token.status == .compliant, "the first sign-in did not remediate: \(first.token.status)")
                let restartsBefore = try restarts(bench)
                // One remediation to learn which requests it sends.
                try await prepare(bench, mock)
                mock.state.clearRequestLog()
                _ = try await remediate(bench)
                let log = mock.state.requestLogEntries()
                let replay = try FloorRequests(bench: bench, mock: mock, log: log)
                print("remediation end to end (53005 → Compliant, steady state: no app restart), \(rounds) rounds × \(iterations)")
                print("  requests per remediation: " + log.map { "\($0.route ?? $0.path)\($0.grantType.map { "(\($0))" } ?? "") \($0.status)" }.joined(separator: ", "))

                for _ in 0..<max(1, iterations / 4) {  // warm-up
                    try await prepare(bench, mock)
                    _ = try await remediate(bench)
                    _ = try await replay.measure(mock)
                }
                var engine = Samples()
                var floor = Samples()
                for _ in 0..<rounds {
                    for _ in 0..<iterations {
                        try await prepare(bench, mock)
                        engine.append(try await remediate(bench))
                    }
                    for _ in 0..<iterations { floor.append(try await replay.measure(mock)) }
                }
                let restartsDuring = try restarts(bench) - restartsBefore
                print("  engine (in-process, HTTPClient) : median \(micros(engine.median)), p99 \(micros(engine.percentile(0.99))), mean \(micros(engine.mean))")
                print("  raw libcurl, same requests      : median \(micros(floor.median)), p99 \(micros(floor.percentile(0.99))), mean \(micros(floor.mean))")
                print("  app restarts during the measured remediations: \(restartsDuring)")
                print("  ratio engine / raw libcurl: median \(ratio(engine.median, floor.median)), mean \(ratio(engine.mean, floor.mean))  (goal ≤ 1.5)")
            }
        }
    }

    /// Untimed: the mock forgets alice's compliance, the engine her API access token (so the
    /// next request reaches the issuer), while her MAM token stays cached.
    private static func prepare(_ bench: BenchEngine, _ mock: BenchMock.Running) async throws {
        mock.state.resetCompliance(AccountApp(upn: alice, appId: BenchEngine.clientID))
        let account = try AccountID(alice)
        let partition = bench.engine.tokenPartition()
        try await bench.store.write { try $0.deleteAccessTokens(for: account, clientID: partition) }
        await bench.engine.forgetRememberedTokens()  // the engine answers cache hits from memory
        let mam = try await bench.engine.acquireToken(alice, scopes: [MAMClient.scope], silent: true, remediate: false, user: nil)
        precondition(mam.status == .compliant, "no MAM token: \(mam.status)")
    }

    /// Timed: the silent request that meets 53005 and remediates.
    private static func remediate(_ bench: BenchEngine) async throws -> Duration {
        let start = ContinuousClock.now
        let outcome = try await bench.engine.acquireToken(alice, scopes: BenchEngine.chatRead, silent: true, remediate: true, user: nil)
        let elapsed = ContinuousClock.now - start
        precondition(outcome.remediated && outcome.status == .compliant, "the remediation ended \(outcome.status), remediated \(outcome.remediated)")
        return elapsed
    }

    private static func restarts(_ bench: BenchEngine) throws -> Int {
        try bench.store.readSync { try $0.events(since: 0, limit: 1_000_000) }.filter { $0.kind == ComplianceEvent.Kind.appRestarted.rawValue }.count
    }
}
