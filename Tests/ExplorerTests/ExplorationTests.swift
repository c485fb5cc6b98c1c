import ChildProcess
import Flows
import Foundation
import Testing
import LocalServers
@testable import ComplianceCore
@testable import Explorer

/// The explorer: every reachable state to a depth, every invariant after every transition;
/// it finds (and reports the shortest path to) a property that does not hold.
@Suite struct ExplorationTests {
    @Test func aShallowExplorationFindsNoViolation() async {
        let report = await offThePool { Explorer(maxDepth: 8).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.states > 5_000)
        #expect(report.statesPerScript.count == universe.scripts.count, "every script is reached: \(report.statesPerScript.keys.sorted())")
    }

    /// The explorer tells states apart without the committed records (``World``'s hash leaves
    /// them out): sound only if they follow from the rest. Explored with them in the key, no
    /// two states that differ only in their committed records are met.
    @Test func theCommittedRecordsFollowFromTheRestOfTheState() async {
        let (seenCount, clashes) = await offThePool { Self.exploreWithRecordsInTheKey() }
        #expect(seenCount > 1_000)
        #expect(clashes.isEmpty, "\(clashes)")
    }

    static func exploreWithRecordsInTheKey() -> (Int, [String]) {
        var durableOf: [Int: ComplianceMachine.Stored] = [:]
        var seen: Set<Int> = []
        var frontier = [ExploreState(universe: universe)]
        var clashes: [String] = []
        for _ in 0..<7 {
            var next: [ExploreState] = []
            for state in frontier {
                for event in state.events(in: universe) {
                    var successor = state
                    _ = successor.apply(event, in: universe)
                    let durable = successor.world.durable
                    var hasher = Hasher()
                    hasher.combine(successor)
                    hasher.combine(durable)
                    guard seen.insert(hasher.finalize()).inserted else { continue }
                    if let other = durableOf[successor.hashValue], other != durable, clashes.count < 3 {
                        clashes.append("after \(event): \(other) ≠ \(durable)")
                    }
                    durableOf[successor.hashValue] = durable
                    next.append(successor)
                }
            }
            frontier = next
        }
        return (seen.count, clashes)
    }

    /// A property the machine does not keep (nobody is ever told 227) is found, with the
    /// shortest trace to it, and that trace is written as a flow compliancectl reads.
    @Test func aPropertyThatDoesNotHoldIsFoundWithItsShortestTrace() async throws {
        let explorer = Explorer(maxDepth: 12) { transition, _ in
            let told227 = transition.actions.contains { action in
                guard case .persist(let changes) = action else { return false }
                return changes.events.contains { if case .enrollment(let report) = $0 { report.status == .singleManagedAccountMode } else { false } }
            }
            return told227 ? [ComplianceInvariants.Violation(.atMostOneManagedAccount, "told 227")] : []
        }
        let report = await offThePool { explorer.run() }
        let violation = try #require(report.violation)
        let signIns = violation.trace.filter { if case .command(.signIn) = $0 { true } else { false } }
        #expect(signIns.count == 2, "two accounts sign in, one meets the other's slot: \(violation.trace)")
        // Shortest: no trace of fewer transitions breaks it (breadth-first).
        #expect(violation.trace.count == report.depth)
        let text = FlowEmitter(universe: universe).flow(for: violation.trace, violations: violation.violations)
        let flow = try FlowParser.parse(Array(text.utf8), file: InProcessMockAuth.packageRoot.appendingPathComponent("flows/explored.json").path)
        #expect(flow.steps.filter { if case .signIn = $0.action { true } else { false } }.count == 2, "\(text)")
        #expect(text.contains("told 227"))
    }

    /// `--emit-flow` to a place it cannot write is a usage error before any exploring.
    @Test func anUnwritableEmitFlowPathIsRefusedAtOnce() async throws {
        for (path, message) in [("/nonexistent-folder/x.json", "the folder /nonexistent-folder does not exist"), ("/etc/hostname/x.json", "/etc/hostname is not a folder"), ("/tmp", "Is a directory"), ("d/", "a folder path")] {
            let result = try await ChildProcess.run(ChildServer.executable("compliance-explore"), ["--emit-flow", path], timeout: .seconds(60))
            #expect(result.status == 64 && result.standardError.contains(message), "\(result.standardError)")
        }
        // A one-character name in the working folder is a file path like any other (it trapped
        // in Foundation's NSString path trimming).
        let short = try await ChildProcess.run(ChildServer.executable("compliance-explore"), ["--emit-flow", "x", "--list"], timeout: .seconds(60))
        #expect(short.status == 0, "\(short.standardError)")
    }

    /// The executable as the test command runs it: its last line says how much it explored.
    /// Depth 10 reaches 68,748 states in some 33 s of CPU of a debug build (its frontier
    /// collapsed: about 1.4 times full states' CPU there, BENCHMARKS.md); the limit only stops
    /// a hung run: at a load average of 27 the run took more than 300 s.
    @Test func complianceExploreReportsNoViolationOverFiftyThousandStates() async throws {
        let result = try await ChildProcess.run(ChildServer.executable("compliance-explore"), ["--depth", "10"], timeout: .seconds(900))
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let last = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("explored ") && last.hasSuffix(": 0 violations"), "\(last)")
        let states = Int(last.split(separator: " ").dropFirst().first ?? "") ?? 0
        #expect(states >= 50_000, "\(last)")
    }
}

/// The app without a MAM service (an OpenID Connect issuer and no `--mam-url`), explored to
/// exhaustion: invariant 12 (and every other) holds on every path.
@Suite struct NoMAMServiceExplorationTests {
    @Test func theWholeSpaceWithoutAMAMServiceBreaksNothing() async {
        let report = await offThePool { Explorer(universe: .withoutMAMService, maxDepth: 100).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted && report.states > 500, "\(report.states) states, exhausted \(report.exhausted)")
    }

    @Test func alicesAnswer53005IsHerSignInsFailureAndARemediationSaysWhy() {
        let log = ScriptRun(universe: .withoutMAMService).run(script("deregister, then remediate again"))
        #expect(log.lines.contains("reply: signIn(alice@contoso.com signedIn false NotCompliant(1))"), "\(log.lines)")
        #expect(log.lines.contains("reply: remediation(alice@contoso.com NotCompliant(1))"), "\(log.lines)")
        #expect(!log.lines.contains { $0.hasPrefix("event: remediationStarted") || $0.hasPrefix("event: enrollment") }, "\(log.lines)")
        guard case .remediation(let report, nil)? = log.transitions.lazy.flatMap(\.transition.actions).compactMap({ action -> ComplianceMachine.Reply? in
            if case .reply(_, let reply) = action, case .remediation = reply { return reply }
            return nil
        }).first else {
            Issue.record("a remediation reply without tokens")
            return
        }
        #expect(report.message.contains("No MAM service is configured"), "\(report.message)")
    }

    @Test func josésSignInIsNotRegistered() {
        let log = ScriptRun(universe: .withoutMAMService).run(script("josé signs in under one spelling"))
        #expect(log.lines.contains { $0.hasPrefix("event: signedIn jos") }, "\(log.lines)")
        let calls = log.transitions.flatMap(\.transition.actions).filter { if case .callMAM = $0 { true } else { false } }
        #expect(calls.isEmpty, "\(calls)")
    }
}
