import Testing
@testable import ComplianceCore
@testable import Explorer

/// Without a hook the machine asks the app nothing: no identity question (`.askApp`), no wipe
/// hook step (`.runAppHook`) and no restart hook job reaches the host, so the Engine's hook
/// runners have no "no hook" answer to give (they stop with a precondition failure instead).
@Suite struct NoHookAsksNothingTests {
    static func withoutHooks(_ base: Universe) -> Universe {
        var universe = base
        universe.identityHook = false
        universe.restartHook = false
        universe.hasWipeHook = false
        return universe
    }

    /// The hook questions of the normal run of every script of `universe`.
    static func questions(_ universe: Universe) -> [String] {
        var asked: [String] = []
        for index in universe.scripts.indices {
            let log = ScriptRun(universe: universe).run(index)
            for entry in log.transitions {
                for action in entry.transition.actions {
                    switch action {
                    case .askApp: asked.append("askApp")
                    case .runAppHook: asked.append("runAppHook")
                    default: break
                    }
                }
            }
            asked += log.lines.filter { $0 == "> the restart hook answers YES" }
        }
        return asked
    }

    @Test(arguments: ["withIdentityHook", "withRestartHook", "standard"])
    func noHookNoQuestion(_ name: String) {
        let base: Universe = switch name {
        case "withIdentityHook": .withIdentityHook
        case "withRestartHook": .withRestartHook
        default: .standard
        }
        #expect(!Self.questions(base).isEmpty, "the scripts ask the hook when there is one")
        #expect(Self.questions(Self.withoutHooks(base)).isEmpty)
    }

    /// A wipe journaled at its hook step by a daemon with a wipe hook, resumed by one without:
    /// the machine answers the step itself (the app removed nothing), and the vault step follows.
    @Test func aJournaledHookStepResumedWithoutAHookAsksNoHook() throws {
        let log = ScriptRun(universe: .standard).run(script("alice remediates, then deregisters with wipe"))
        let entry = try #require(log.transitions.first { $0.transition.actions.contains { if case .runAppHook = $0 { true } else { false } } })
        let journaled = entry.transition.after
        guard case .runAppHook(_, let account) = entry.transition.actions.first(where: { if case .runAppHook = $0 { true } else { false } }) else { return }

        func resumed(hook: Bool) throws -> (actions: [ComplianceMachine.Action], events: [ComplianceEvent]) {
            var configuration = journaled.configuration
            configuration.hasWipeHook = hook
            var machine = try ComplianceMachine(restoring: journaled.stored, configuration: configuration)
            machine.resumed(now: Instant(millisecondsSinceEpoch: 0))
            var actions: [ComplianceMachine.Action] = []
            var events: [ComplianceEvent] = []
            while true {
                let action = machine.nextAction()
                if case .none = action { break }
                actions.append(action)
                if case .persist(let changes) = action {
                    events += changes.events
                    machine.persisted()
                }
            }
            return (actions, events)
        }
        let withHook = try resumed(hook: true)
        #expect(withHook.actions.contains { if case .runAppHook(_, account) = $0 { true } else { false } })
        let without = try resumed(hook: false)
        #expect(!without.actions.contains { if case .runAppHook = $0 { true } else { false } })
        #expect(without.actions.contains { if case .removeVaultFiles(_, account) = $0 { true } else { false } })
        #expect(without.events.contains(.wipeHookRan(account, outcome: ComplianceMachine.noWipeHookOutcome, appRemovedData: false)))
    }
}
