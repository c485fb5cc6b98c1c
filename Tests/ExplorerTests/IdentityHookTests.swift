import Testing
@testable import ComplianceCore
@testable import Explorer

/// The app's answers to the SDK's identity questions (`identitySwitchRequired`, `addIdentity`,
/// ComplianceMachine+AppQuestions.swift): Success and Failed decide (invariant 23), explored to
/// exhaustion with their own scripts; and the invariant, broken on purpose, names itself.
@Suite struct IdentityHookTests {
    static let universe = Universe.withIdentityHook
    static let alice = try! AccountID("alice@contoso.com")
    static let josé = try! AccountID("jos\u{E9}@contoso.com")

    @Test func theWholeSpaceWithAnIdentityHookBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 100).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.exhausted && report.states > 1_000, "\(report.states) states, exhausted \(report.exhausted)")
    }

    /// Runs script `index`, answering every I/O normally, and the app's questions with `success`.
    static func run(_ index: Int, success: Bool) -> (ExploreState, [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)]) {
        var state = ExploreState(universe: universe)
        var log: [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)] = []
        log.append(state.apply(.choose(index, universe.scripts[index].name), in: universe))
        for _ in 0..<200 {
            if let action = state.pending.first, let step = ExploreState.step(of: action) {
                var answer = Answer.normal
                if case .askApp = action { answer = .hook(removedData: success) }
                log.append(state.apply(.complete(step, answer), in: universe))
                continue
            }
            guard let command = state.events(in: universe).first(where: { if case .command = $0 { true } else { false } }) else { break }
            log.append(state.apply(command, in: universe))
        }
        return (state, log)
    }

    static func answers(_ log: [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)]) -> [ComplianceEvent] {
        log.flatMap(\.0.events).filter { if case .appAnsweredIdentity = $0 { true } else { false } }
    }

    @Test(arguments: [true, false])
    func aCancelledPINAsksTheAppAndItsAnswerDecides(_ success: Bool) {
        let (state, log) = Self.run(0, success: success)
        #expect(log.allSatisfy { broken($0.0, $0.1).isEmpty })
        #expect(Self.answers(log).count == 1, "\(Self.answers(log))")
        // The canceled switch is answered in the transition of the app's answer, not before.
        let asked = log.firstIndex { $0.0.actions.contains { if case .askApp = $0 { true } else { false } } }
        let canceled = log.firstIndex { $0.0.actions.contains { if case .reply(_, .identity(let o)) = $0 { o.result == .canceled } else { false } } }
        #expect(asked != nil && canceled != nil && asked! < canceled!)
        #expect(state.machine.identities.ui == (success ? .noUser : .account(Self.josé)), "\(state.machine.identities.ui)")
    }

    @Test(arguments: [true, false])
    func anAccountTheSDKEnrolledIsAddedOnlyBySuccess(_ success: Bool) {
        let (state, log) = Self.run(1, success: success)
        #expect(log.allSatisfy { broken($0.0, $0.1).isEmpty })
        #expect(Self.answers(log).count == 1, "\(Self.answers(log))")
        #expect(state.machine.registeredAccounts.contains(Self.josé) == success || state.machine.registeredAccounts.contains(Self.alice))
        let josésEnrollment = state.machine.view(of: Self.josé)?.enrollment
        #expect(success ? josésEnrollment != .removed : josésEnrollment == .removed, "\(String(describing: josésEnrollment))")
    }

    /// An account wiped while the app is asked to add it, and gone before the app answers
    /// Success, is refused (found by a black-box attack: it was registered again).
    @Test func anAccountThatLeftWhileTheAppWasAskedIsNotAdded() throws {
        let universe = Self.universe
        var state = ExploreState(universe: universe)
        var log: [(ComplianceInvariants.Transition, ComplianceInvariants.Facts)] = []
        log.append(state.apply(.choose(1, universe.scripts[1].name), in: universe))
        func settle(keepingQuestion: Bool) {
            for _ in 0..<200 {
                guard let step = state.pending.lazy.filter({ if case .askApp = $0 { !keepingQuestion } else { true } }).compactMap(ExploreState.step(of:)).first
                else { return }
                var answer = Answer.normal
                if case .askApp? = state.pending.first(where: { ExploreState.step(of: $0) == step }) { answer = .hook(removedData: true) }
                log.append(state.apply(.complete(step, answer), in: universe))
            }
        }
        log.append(state.apply(.command(.signIn("josé-nfc")), in: universe))
        settle(keepingQuestion: false)
        log.append(state.apply(.command(.deregister("josé-nfd", wipe: false)), in: universe))
        settle(keepingQuestion: false)
        #expect(!state.machine.registeredAccounts.contains(Self.josé))
        log.append(state.apply(.command(.sdkEnrolls("josé-nfc")), in: universe))
        #expect(state.pending.contains { if case .askApp = $0 { true } else { false } }, "the app is asked")
        log.append(state.apply(.command(.deregister("josé-nfd", wipe: true)), in: universe))
        settle(keepingQuestion: true)
        #expect(!state.machine.isLeaving(Self.josé), "the wipe ended before the app answered")
        settle(keepingQuestion: false)
        #expect(!state.machine.registeredAccounts.contains(Self.josé), "\(state.machine.registeredAccounts)")
        let refused = log.flatMap(\.0.actions).contains { action in
            if case .reply(_, .refused(let refusal)) = action { refusal.code == .identityNotAllowed } else { false }
        }
        #expect(refused, "the SDK enrollment is refused identity_not_allowed")
        #expect(log.allSatisfy { broken($0.0, $0.1).isEmpty })
    }

    @Test func withoutAHookTheDaemonAnswersSuccessAndAsksNothing() {
        var universe = Self.universe
        universe.identityHook = false
        var state = ExploreState(universe: universe)
        _ = state.apply(.choose(0, universe.scripts[0].name), in: universe)
        for _ in 0..<200 {
            if let step = state.pending.first.flatMap(ExploreState.step(of:)) {
                _ = state.apply(.complete(step, .normal), in: universe)
                continue
            }
            guard let command = state.events(in: universe).first(where: { if case .command = $0 { true } else { false } }) else { break }
            let (transition, _) = state.apply(command, in: universe)
            #expect(!transition.actions.contains { if case .askApp = $0 { true } else { false } })
        }
        #expect(state.machine.identities.ui == .noUser)
    }

    @Test func twentyThree_aFailedAnswerThatSwitchedAnyway() throws {
        let (_, log) = Self.run(0, success: false)
        let entry = try #require(log.first { entry in entry.0.events.contains { if case .appAnsweredIdentity = $0 { true } else { false } } })
        var transition = entry.0
        #expect(broken(transition, entry.1).isEmpty)
        transition.after.identities.ui = .noUser
        #expect(broken(transition, entry.1) == [23])
    }

    @Test func twentyThree_aFailedAddThatRegisteredAnyway() throws {
        let (_, log) = Self.run(1, success: false)
        let entry = try #require(log.first { entry in entry.0.events.contains { if case .appAnsweredIdentity = $0 { true } else { false } } })
        var transition = entry.0
        #expect(broken(transition, entry.1).isEmpty)
        transition.after = try #require(Self.run(1, success: true).1.first { entry in
            entry.0.events.contains { if case .appAnsweredIdentity = $0 { true } else { false } }
        }?.0.after)
        #expect(broken(transition, entry.1).contains(23))
    }
}
