import Testing
@testable import ComplianceCore
@testable import Explorer

/// A first policy the launch's own work brings is restarted by the SDK at once, without asking
/// the app's restart hook (issue 38, C4): "If you choose this option for your app, you don't
/// have to handle restarting your app after enrolling."
@Suite struct LaunchRestartTests {
    static let universe = Universe.withRestartHook

    static func isEnroll(_ action: ComplianceMachine.Action) -> Bool {
        if case .callMAM(_, .enroll, _) = action { true } else { false }
    }

    /// alice's remediation is cut by a crash while her enroll is in flight; the launch resumes
    /// it, and its first policy arrives before the launch finished.
    @Test func aFirstPolicyDuringTheLaunchAsksNoApp() throws {
        var state = ExploreState(universe: Self.universe)
        _ = state.apply(.choose(0, Self.universe.scripts[0].name), in: Self.universe)
        _ = state.apply(.command(.signIn("alice")), in: Self.universe)
        for _ in 0..<40 where !state.pending.contains(where: Self.isEnroll) {
            guard let step = state.pending.first.flatMap(ExploreState.step(of:)) else { break }
            _ = state.apply(.complete(step, .normal), in: Self.universe)
        }
        #expect(state.pending.contains(where: Self.isEnroll), "alice's enroll is in flight")
        _ = state.apply(.crash, in: Self.universe)
        #expect(state.launching)
        var events: [ComplianceEvent] = []
        for _ in 0..<40 where state.launching {
            guard let step = state.pending.first.flatMap(ExploreState.step(of:)) else { break }
            let (transition, facts) = state.apply(.complete(step, .normal), in: Self.universe)
            #expect(broken(transition, facts).isEmpty)
            events += transition.events
        }
        let alice = try AccountID("alice@contoso.com")
        #expect(!state.launching, "the launch finished")
        #expect(state.restartAsked == nil && state.machine.restartOwed == nil, "the restart hook was not asked")
        #expect(events.contains(.restartRequired(alice)) && events.contains(.appRestarted(alice)), "\(events)")
        #expect(!events.contains { if case .restartApplicationAnswered = $0 { true } else { false } })
        #expect(state.machine.asksAppToRestart, "once launched, the app is asked again")
    }
}
