import ComplianceCore
import JSON

/// Writes an explored trace as a flow (flows/README.md) to run against the real daemon and
/// mockauth: the commands, the admin changes, the faults (injected before the command whose
/// request they answer), the clock moves and the restarts. What a flow cannot ask for (the
/// order in which concurrent I/O completes, a wipe hook's answer, a full disk, 53009 or an
/// interaction-required answer from the issuer) is written as a note on the step.
public struct FlowEmitter: Sendable {
    public let universe: Universe

    public init(universe: Universe) {
        self.universe = universe
    }

    /// The flow's JSON text.
    public func flow(for trace: [ExploreEvent], violations: [ComplianceInvariants.Violation]) -> String {
        var state = ExploreState(universe: universe)
        var steps: [JSONValue] = []
        var lastCommandIndex: Int?
        var notes: [String] = []
        var name = "explored trace"
        for event in trace {
            let nowBefore = state.world.now
            let pendingBefore = state.pending
            switch event {
            case .choose(_, let script):
                name = script
            case .command(let command):
                if let step = commandStep(command) {
                    lastCommandIndex = steps.count
                    steps.append(step)
                }
            case .admin(let change):
                steps += adminSteps(change)
            case .complete(let id, let answer):
                guard case .failure(let failure) = answer else {
                    if case .hook(let removed) = answer { notes.append("the app's hook (wipe or identity) exits \(removed ? 0 : 1)") }
                    if case .hookFailed(let failure) = answer { notes.append("the wipe hook \(failure)") }
                    break
                }
                let action = pendingBefore.first { ExploreState.step(of: $0) == id }
                if let fault = faultStep(action, failure) {
                    steps.insert(fault, at: lastCommandIndex ?? steps.count)
                    lastCommandIndex = (lastCommandIndex ?? steps.count) + 1
                } else {
                    notes.append("\(failure) answers \(action.map { "\($0)" } ?? "a step") (not expressible as a fault)")
                }
            case .timer:
                if let due = state.machine.nextDueTimer() {
                    let seconds = max(0, (due.at.millisecondsSinceEpoch - nowBefore.millisecondsSinceEpoch) / 1000)
                    steps.append(["do": "advanceClock", "by": .string("\(seconds)")])
                }
            case .crash:
                steps.append(["do": "restartDaemon", "kill": true])
            case .storageFails:
                notes.append("a commit fails (a full disk; not expressible in a flow)")
            case .restartAnswered(let yes):
                notes.append("the restart hook (flow field restartHook) exits \(yes ? 0 : 1)")
            case .restartHookFailed(let failure):
                notes.append("the restart hook (flow field restartHook) \(failure)")
            case .appReportsRestart:
                steps.append(["do": "appRestarted"])
            }
            _ = state.apply(event, in: universe)
        }
        if var last = steps.last?.objectValue {
            last["note"] = .string((notes + violations.map(\.description)).joined(separator: "; "))
            steps[steps.count - 1] = .object(last)
        }
        let flow: JSONValue = [
            "name": .string("explored: \(name)"),
            "description": .string("Written by compliance-explore --emit-flow. The trace broke: \(violations.map(\.description).joined(separator: "; "))"),
            "steps": .array(steps),
        ]
        return flow.encodedString() + "\n"
    }

    private func upn(_ name: String) -> String { universe.spelling(named: name)?.upn ?? name }

    private func commandStep(_ command: Command) -> JSONValue? {
        switch command {
        case .signIn(let name):
            ["do": "signIn", "account": .string(upn(name)), "password": "Passw0rd!", "scopes": [.string(universe.apiScope)]]
        case .token(let name):
            ["do": "token", "account": .string(upn(name)), "scopes": [.string(universe.apiScope)]]
        case .remediate(let name):
            ["do": "remediate", "account": .string(upn(name)), "password": "Passw0rd!"]
        case .deregister(let name, let wipe):
            ["do": "deregister", "account": .string(upn(name)), "wipe": .bool(wipe)]
        case .putData(let name):
            ["do": "putData", "account": .string(upn(name)), "name": "notes.txt", "text": .string("\(name)'s notes")]
        case .readData(let name):
            ["do": "readData", "account": .string(upn(name)), "name": "notes.txt"]
        case .switchUI(let name):
            ["do": "setUIIdentity", "identity": .string(name.map(upn) ?? "")]
        case .switchProcess(let name):
            ["do": "setProcessIdentity", "identity": .string(name.map(upn) ?? "")]
        case .overrideAuthority(let url):
            ["do": "overrideSettings", "aadAuthorityUriOverride": url.map { .string($0) } ?? .null]
        case .switchUICancelled(let name):
            ["do": "setUIIdentity", "identity": .string(upn(name)), "conditionalLaunch": "cancel"]
        case .sdkEnrolls(let name):
            ["do": "sdkEnrolls", "account": .string(upn(name))]
        }
    }

    private func adminSteps(_ change: AdminChange) -> [JSONValue] {
        switch change {
        case .excludeJose:
            [["do": "setAllowedAccounts", "accounts": ["alice@contoso.com"]]]
        case .queueWipe(let name):
            [["do": "queueWipe", "account": .string(upn(name))]]
        case .targetCA(let name):
            [["do": "targetCA", "account": .string(upn(name))]]
        case .unassignPolicy:
            universe.spellings.map { ["do": "assignPolicy", "account": .string($0.upn), "assigned": false] }
        case .changePolicy:
            [["do": "changePolicy", "settings": ["pinRequired": true]]]
        }
    }

    private func faultStep(_ action: ComplianceMachine.Action?, _ failure: Answer.Failure) -> JSONValue? {
        guard let action else { return nil }
        let route: String
        switch action {
        case .requestToken: route = "token"
        case .callMAM(_, .enroll, _): route = "mam.enroll"
        case .callMAM(_, .checkIn, _): route = "mam.checkin"
        case .callMAM(_, .unenroll, _): route = "mam.unenroll"
        case .callMAM(_, .reportCompliance, _): route = "mam.report-compliance"
        default: return nil
        }
        switch failure {
        case .issuerUnavailable, .mamServerError: return ["do": "injectFault", "route": .string(route), "status": 503]
        case .issuerUnreachable, .mamUnreachable: return ["do": "injectFault", "route": .string(route), "action": "reset"]
        case .mamMalformed: return ["do": "injectFault", "route": .string(route), "action": "malformed"]
        default: return nil
        }
    }
}
