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

    /// Data is refused with the tokens while no policy is in force: alice's own files, kept
    /// when she deregistered without a wipe, are not read; a read there breaks invariant 14.
    @Test func fourteen_dataReadWhileNoPolicyIsInForce() throws {
        let log = ScriptRun(universe: Self.universe).run(2)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let last = try #require(log.transitions.last)
        #expect(last.transition.after.appPolicy == nil, "deregistered: no policy in force")
        #expect(last.facts.dataRead == nil, "the read was refused")
        var facts = last.facts
        let alice = try AccountID("alice@contoso.com")
        facts.dataRead = ComplianceInvariants.DataRead(owner: alice, fileIdentity: nil, processIdentityUnset: true, managed: false)
        #expect(broken(last.transition, facts) == [14])
        var allowed = last.transition
        allowed.after.configuration.launch.policyRequired = false
        #expect(broken(allowed, facts).isEmpty, "without MAMPolicyRequired an unmanaged read breaks nothing")
    }

    /// The events a transition committed.
    static func committed(_ transition: ComplianceInvariants.Transition) -> [ComplianceEvent] {
        transition.actions.flatMap { action -> [ComplianceEvent] in
            if case .persist(let changes) = action { changes.events } else { [] }
        }
    }

    /// A restart is a launch: with no policy in force it notes `policyAbsent`, as the Engine's
    /// start does (found by OneDriverDifferentialTests: the explorer's crash resumed the work
    /// but never finished the launch).
    @Test func aRestartWithoutPolicyNotesItsAbsenceAsALaunchDoes() {
        var state = ExploreState(universe: Self.universe)
        _ = state.apply(.choose(0, Self.universe.scripts[0].name), in: Self.universe)
        _ = state.apply(.command(.token("josé-nfc")), in: Self.universe)  // refused: no policy
        #expect(state.openTickets.isEmpty && state.pending.isEmpty)
        let (restart, facts) = state.apply(.crash, in: Self.universe)
        #expect(Self.committed(restart).contains(.policyAbsent(required: true)), "\(restart.actions)")
        #expect(broken(restart, facts).isEmpty)
    }

    /// A restart serves nothing until the work it resumed is done (as `Engine.start()` runs its
    /// start-up jobs before serving): no command is offered while josé's interrupted enrollment
    /// runs; its policy is then in force, so the launch notes no absence.
    @Test func aRestartServesNoCommandUntilTheResumedWorkIsDone() throws {
        var state = ExploreState(universe: Self.universe)
        _ = state.apply(.choose(0, Self.universe.scripts[0].name), in: Self.universe)
        _ = state.apply(.command(.token("josé-nfc")), in: Self.universe)
        _ = state.apply(.command(.signIn("josé-nfc")), in: Self.universe)
        // Answer until the enrollment is in flight.
        while let action = state.pending.first, let step = ExploreState.step(of: action) {
            if case .callMAM(_, .enroll, _) = action { break }
            _ = state.apply(.complete(step, .normal), in: Self.universe)
        }
        _ = state.apply(.crash, in: Self.universe)
        #expect(!state.pending.isEmpty, "the enrollment resumes")
        var events: [ComplianceEvent] = []
        while let action = state.pending.first, let step = ExploreState.step(of: action) {
            #expect(!state.events(in: Self.universe).contains { if case .command = $0 { true } else { false } }, "a command while launching")
            let (transition, _) = state.apply(.complete(step, .normal), in: Self.universe)
            events += Self.committed(transition)
        }
        #expect(state.machine.appPolicy != nil)
        #expect(!events.contains(.policyAbsent(required: true)), "\(events)")
        #expect(state.events(in: Self.universe).contains(.command(.token("josé-nfd"))))
    }
}
