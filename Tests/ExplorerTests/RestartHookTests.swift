import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// `restartApplication` YES or NO (the app's restart hook): a restart the app owes holds the
/// app until the app reports it, across crashes (invariant 16), explored to exhaustion with its
/// own scripts; and the invariant, broken on purpose, names itself.
@Suite struct RestartHookTests {
    static let universe = Universe.withRestartHook

    static func refusals(_ log: ScriptRun.Log) -> [ComplianceMachine.Refusal.Code] {
        log.transitions.flatMap(\.transition.takenActions).compactMap { action in
            if case .reply(_, .refused(let refusal)) = action { refusal.code } else { nil }
        }
    }

    @Test func theWholeSpaceWithARestartHookBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 100).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted && report.states > 5_000, "\(report.states) states, exhausted \(report.exhausted)")
    }

    @Test func yesRefusesTheWaitingSignInAndTheReportFinishesTheRemediation() {
        let log = ScriptRun(universe: Self.universe).run(0)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let answered = log.lines.firstIndex { $0.hasPrefix("event: restartApplication YES") }
        let reported = log.lines.firstIndex(of: "> the app reports its restart")
        let compliant = log.lines.firstIndex(of: "reply: remediation(alice@contoso.com Compliant(0))")
        #expect(answered != nil && reported != nil && compliant != nil, "\(log.lines)")
        #expect(answered! < reported! && reported! < compliant!, "\(log.lines)")
        #expect(Self.refusals(log).first == .restartPending, "the sign-in waiting for the restart: \(log.lines)")
        #expect(!log.lines[..<reported!].contains { $0.hasPrefix("event: appRestarted") }, "only the app's report restarts it")
    }

    @Test func aCrashWhileTheAppOwesItsRestartKeepsTheDebt() throws {
        var state = ExploreState(universe: Self.universe)
        _ = state.apply(.choose(0, Self.universe.scripts[0].name), in: Self.universe)
        _ = state.apply(.command(.signIn("alice")), in: Self.universe)
        for _ in 0..<40 where state.restartAsked == nil {
            guard let step = state.pending.first.flatMap(ExploreState.step(of:)) else { break }
            _ = state.apply(.complete(step, .normal), in: Self.universe)
        }
        let alice = try AccountID("alice@contoso.com")
        #expect(state.restartAsked == alice)
        _ = state.apply(.restartAnswered(appHandlesRestart: true), in: Self.universe)
        #expect(state.machine.restartOwed == alice)
        let (transition, facts) = state.apply(.crash, in: Self.universe)
        #expect(broken(transition, facts).isEmpty)
        #expect(state.machine.restartOwed == alice, "the debt is stored")
        #expect(state.machine.view(of: alice)?.remediation == "awaitingRestart", "the remediation still waits for the app")
        #expect(!transition.events.contains { if case .appRestarted = $0 { true } else { false } })
    }

    @Test func sixteen_aTokenHandedOutWhileTheAppOwesItsRestart() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        let entry = try #require(log.transitions.first { entry in
            entry.transition.after.restartOwed != nil
                && entry.transition.takenActions.contains { if case .reply(_, .refused) = $0 { true } else { false } }
        })
        var transition = entry.transition
        #expect(broken(transition, entry.facts).isEmpty)
        let alice = try AccountID("alice@contoso.com")
        let tokens = TokenSet(accessToken: SecretToken("at"), expiresOn: Instant(millisecondsSinceEpoch: 1), scopes: [Self.universe.apiScope])
        let answer = ComplianceMachine.TokenAnswer(
            account: alice, scopes: [Self.universe.apiScope], status: .compliant, tokens: tokens, failure: nil, report: nil, remediated: false)
        transition.actions = transition.actions.map { action in
            if case .reply(let ticket, .refused) = action { return .reply(ticket, .token(answer)) }
            return action
        }
        #expect(broken(transition, entry.facts) == [16])
    }

    @Test func sixteen_theDebtEndsWithoutTheAppsReport() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        let entry = try #require(log.transitions.first { entry in
            entry.transition.before?.restartOwed != nil && entry.transition.after.restartOwed == nil
        })
        var transition = entry.transition
        #expect(broken(transition, entry.facts).isEmpty)
        transition.actions = transition.actions.map { action in
            guard case .persist(var changes) = action else { return action }
            changes.events.removeAll { if case .appRestarted = $0 { true } else { false } }
            return .persist(changes)
        }
        #expect(broken(transition, entry.facts).contains(16))
    }
}

/// Two first policies while the restart hook has not answered (found by the wide universe):
/// josé's first policy asks for the app's restart; dave's, arriving before the hook answers,
/// is put in force by that same restart (one restart at a time): invariant 7 holds.
@Suite struct OneRestartForTwoFirstPoliciesTests {
    @Test func aFirstPolicyWhileARestartIsAskedIsCoveredByThatRestart() {
        let universe = Universe.wide
        let index = universe.scripts.firstIndex { $0.name.hasPrefix("wide: josé signs in") }!
        var start = ExploreState(universe: universe)
        _ = start.apply(.choose(index, universe.scripts[index].name), in: universe)
        _ = start.apply(.command(.signIn("josé-nfc")), in: universe)
        _ = start.apply(.command(.signIn("dave")), in: universe)
        // Every order of normal answers, the restart hook not answering.
        var frontier = [start]
        var seen: Set<ExploreState> = [start]
        var covered = 0
        var broken: [String] = []
        while let state = frontier.popLast() {
            for event in state.events(in: universe) {
                guard case .complete(_, .normal) = event else { continue }
                var next = state
                let (transition, _) = next.apply(event, in: universe)
                let firstPolicies = transition.events.filter { if case .policyApplied(let account, _) = $0 { transition.before?.accounts[account]?.policy == nil } else { false } }
                if !firstPolicies.isEmpty, transition.before?.restartPending != nil { covered += 1 }
                broken += ComplianceInvariants.firstPolicyRestarts(transition).map { "\($0)" }
                if seen.insert(next).inserted { frontier.append(next) }
            }
        }
        #expect(covered > 0, "a first policy arrives while the other account's restart is asked")
        #expect(broken.isEmpty, "\(broken)")
    }
}
