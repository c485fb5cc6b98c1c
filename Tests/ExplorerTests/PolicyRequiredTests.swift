import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// `MAMPolicyRequired` (LaunchSettings): the app's token requests get no token while no policy
/// is in force (invariant 14), explored to exhaustion with its own scripts; and the invariant,
/// broken on purpose, names itself.
@Suite struct PolicyRequiredTests {
    static let universe = Universe.withPolicyRequired

    @Test func theWholeSpaceWithPolicyRequiredBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 100).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted && report.states > 5_000, "\(report.states) states, exhausted \(report.exhausted)")
    }

    @Test func aTokenBeforeAnyPolicyIsRefusedThenServedOnceHisPolicyArrived() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let refusals = log.transitions.flatMap(\.transition.takenActions).compactMap { action -> ComplianceMachine.Refusal? in
            if case .reply(_, .refused(let refusal)) = action { refusal } else { nil }
        }
        #expect(refusals.map(\.code) == [.policyRequired], "josé's first token request, before any policy")
        let served = log.transitions.flatMap(\.transition.takenActions).contains { action in
            if case .reply(_, .token(let answer)) = action { answer.tokens != nil } else { false }
        }
        #expect(served, "josé's second request, under the policy his enrollment brought, gets a token")
    }

    @Test func fourteen_aTokenHandedOutBeforeAnyPolicy() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        let entry = try #require(log.transitions.first { entry in
            entry.transition.takenActions.contains { if case .reply(_, .refused) = $0 { true } else { false } }
        })
        var transition = entry.transition
        #expect(broken(transition, entry.facts).isEmpty)
        let josé = try AccountID("jos\u{E9}@contoso.com")
        let tokens = TokenSet(accessToken: SecretToken("at"), expiresOn: Instant(millisecondsSinceEpoch: 1), scopes: [Self.universe.apiScope])
        let answer = ComplianceMachine.TokenAnswer(
            account: josé, scopes: [Self.universe.apiScope], status: .compliant, tokens: tokens, failure: nil, report: nil, remediated: false)
        transition.actions = transition.actions.map { action in
            if case .reply(let ticket, .refused) = action { return .reply(ticket, .token(answer)) }
            return action
        }
        #expect(broken(transition, entry.facts) == [14])
        // The same transition in an app without the setting breaks nothing.
        transition.after.configuration.launch.policyRequired = false
        #expect(broken(transition, entry.facts).isEmpty)
    }
}
