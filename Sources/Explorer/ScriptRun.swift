import ComplianceCore

/// One path through a script where each step is issued once the one before it was answered,
/// every I/O step gets its normal answer in the order the steps were taken, and due timers
/// fire once nothing else is left: what the script does when nothing goes wrong. Tests read its log; `compliance-explore --run SCRIPT` prints it.
public struct ScriptRun: Sendable {
    public let universe: Universe

    public init(universe: Universe = .standard) {
        self.universe = universe
    }

    /// One line per thing that happened: `event: …` for each committed notification,
    /// `reply: …` for each answer, `> …` for each script step.
    public struct Log: Sendable {
        public var lines: [String] = []
        /// The state at the end.
        public var final: ExploreState
        /// Violations met on the way (none expected).
        public var violations: [ComplianceInvariants.Violation] = []
        /// Every transition taken, with the facts it was checked against.
        public var transitions: [(transition: ComplianceInvariants.Transition, facts: ComplianceInvariants.Facts)] = []
    }

    /// Runs the script named `name` (or numbered `index`) with at most `timers` timer firings.
    public func run(_ index: Int, timers: Int = 2, answers: [Answer] = []) -> Log {
        var state = ExploreState(universe: universe)
        state.budget.timers = timers
        var log = Log(final: state)
        var overrides = answers
        func take(_ event: ExploreEvent) {
            let (transition, facts) = state.apply(event, in: universe)
            log.violations += ComplianceInvariants.check(transition, facts: facts)
            log.transitions.append((transition, facts))
            for action in transition.actions {
                switch action {
                case .persist(let changes):
                    for event in changes.events { log.lines.append("event: \(event)") }
                case .reply(_, let reply):
                    log.lines.append("reply: \(reply)")
                case .restartApp(let account):
                    log.lines.append("restart: \(account.upn)")
                default:
                    break
                }
            }
        }
        take(.choose(index, universe.scripts[index].name))
        for _ in 0..<1000 {
            let events = state.events(in: universe)
            let idle = state.pending.isEmpty && state.openTickets.isEmpty
            // A restart hook answers YES, and the app restarts before its next call.
            if state.restartAsked != nil {
                log.lines.append("> the restart hook answers YES")
                take(.restartAnswered(appHandlesRestart: true))
                continue
            }
            if idle, events.contains(.appReportsRestart) {
                log.lines.append("> the app reports its restart")
                take(.appReportsRestart)
                continue
            }
            if idle, let command = events.first(where: { if case .command = $0 { true } else if case .admin = $0 { true } else { false } }) {
                log.lines.append("> \(command)")
                take(command)
                continue
            }
            if let step = state.pending.first.flatMap(ExploreState.step(of:)) {
                let answer = overrides.isEmpty ? defaultAnswer(state.pending.first!) : overrides.removeFirst()
                take(.complete(step, answer))
                continue
            }
            if events.contains(.timer) {
                log.lines.append("> timer")
                take(.timer)
                continue
            }
            break
        }
        log.final = state
        return log
    }

    private func defaultAnswer(_ action: ComplianceMachine.Action) -> Answer {
        if case .runAppHook = action { return .hook(removedData: false) }
        return .normal
    }
}
