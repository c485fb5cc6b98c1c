import JSON
import PropertyBased
import Testing
@testable import ComplianceCore

@Suite struct SelectiveWipeProperties {
    /// Runs a wipe with crashes at random points (before or after a journal write, before
    /// or after a step's side effect), rebuilding from the last stored journal each time.
    static func run(_ list: [Int]) -> (violations: Violations, finished: Bool, steps: [String]) {
        var choices = Choices(list)
        var violations = Violations(SelectiveWipeStateMachine.documentedTransitions)
        var machine = SelectiveWipeStateMachine(account: alice)
        var stored: JSONValue?
        var steps: [String] = []
        var crashes = 0

        func rebuild() -> SelectiveWipeStateMachine {
            guard let stored else { return SelectiveWipeStateMachine(account: alice) }
            return SelectiveWipeStateMachine(restoring: try! .init(json: try! JSONValue.parse(stored.encoded())))
        }
        func start(_ machine: inout SelectiveWipeStateMachine) -> SelectiveWipeStateMachine.Action {
            machine.stateName == "idle" ? machine.wipeRequested(reason: .adminCommand, runAppHook: true) : machine.resumed()
        }

        var action = start(&machine)
        for _ in 0..<200 {
            let crash = crashes < 30 && choices.next(3) == 0
            let before = crash && choices.next(2) == 0
            if crash { crashes += 1 }
            if stored != machine.snapshot.json {  // the step's commit comes before its action
                if !before { stored = machine.snapshot.json }
                if crash {
                    machine = rebuild()
                    action = start(&machine)
                }
                continue
            }
            switch action {
            case .removeTokens(let account), .removeVaultFiles(let account), .removeEnrollment(let account), .runAppHook(let account):
                violations.check(account == alice, "touched another account's data: \(account)")
                let step: String = switch action {
                case .removeTokens: "tokens"
                case .runAppHook: "hook"
                case .removeVaultFiles: "vault"
                default: "enrollment"
                }
                if step == "hook" { violations.check(steps.contains("tokens"), "hook before tokens") }
                if step == "vault" { violations.check(steps.contains("hook"), "vault before the app's hook") }
                if step == "enrollment" { violations.check(steps.contains("vault"), "enrollment before vault") }
                if crash && before {  // died before the step ran
                    machine = rebuild()
                    action = start(&machine)
                    continue
                }
                if !steps.contains(step) { steps.append(step) }
                if crash {  // died after the step ran, before reporting it
                    machine = rebuild()
                    action = start(&machine)
                    continue
                }
                let from = machine.stateName
                action = switch step {
                case "tokens": machine.tokensRemoved()
                case "hook": machine.appHookFinished(removedData: false, outcome: "exited with status 1")
                case "vault": machine.vaultRemoved()
                default: machine.enrollmentRemoved()
                }
                violations.transition(from, machine.stateName)
            case .finished(let account):
                violations.check(account == alice, "finished another account")
                return (violations, rebuild().isFinished, steps)
            case .none:
                // A wipe stored done resumes to nothing: it is finished, never run again.
                violations.check(machine.isFinished, "wipe stalled in \(machine.stateName)")
                return (violations, machine.isFinished, steps)
            }
        }
        violations.check(false, "wipe did not finish in 200 rounds")
        return (violations, false, steps)
    }

    @Test func wipeReachesDoneAfterAnyCrashPoint() async {
        await propertyCheck(count: 300, input: choiceLists) { list in
            let (violations, finished, steps) = Self.run(list)
            #expect(violations.messages.isEmpty, "\(violations.messages)")
            #expect(finished, "journal not at done")
            #expect(steps == ["tokens", "hook", "vault", "enrollment"])
        }
    }
}
