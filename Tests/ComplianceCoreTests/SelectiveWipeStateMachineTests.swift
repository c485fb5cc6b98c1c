import JSON
import Testing
@testable import ComplianceCore

@Suite struct SelectiveWipeStateMachineTests {
    @Test func wipeRequestedJournalsTheIntentFirst() {
        var machine = SelectiveWipeStateMachine(account: alice)
        let action = machine.wipeRequested(reason: .adminCommand, runAppHook: true)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.stateName == "intentRecorded")
        #expect(machine.snapshot.json["step"] == "intentRecorded")
        #expect(machine.takeEvents() == [.wipeStarted(alice, .adminCommand)])
        #expect(machine.persisted() == .removeTokens(alice))
    }

    @Test func tokensRemovedMovesToVault() {
        var machine = SelectiveWipeStateMachine.atStep("intentRecorded", runAppHook: true)
        let action = machine.tokensRemoved()
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .removeVaultFiles(alice, runAppHook: true))
    }

    @Test func vaultRemovedMovesToEnrollment() {
        var machine = SelectiveWipeStateMachine.atStep("tokensRemoved")
        let action = machine.vaultRemoved()
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .removeEnrollment(alice))
    }

    @Test func enrollmentRemovedFinishes() {
        var machine = SelectiveWipeStateMachine.atStep("vaultRemoved")
        _ = machine.takeEvents()
        let action = machine.enrollmentRemoved()
        #expect(action == .persist(machine.snapshot))
        #expect(machine.takeEvents() == [.wipeFinished(alice)])
        #expect(machine.persisted() == .finished(alice))
        #expect(machine.isFinished)
    }

    @Test func lateStepEventsInDoneAreIgnored() {
        var machine = SelectiveWipeStateMachine.atStep("done")
        #expect(machine.tokensRemoved() == .none)
        #expect(machine.vaultRemoved() == .none)
        #expect(machine.enrollmentRemoved() == .none)
    }

    @Test func aSecondRequestDuringAWipeIsCoalesced() {
        var machine = SelectiveWipeStateMachine.atStep("tokensRemoved")
        #expect(machine.wipeRequested(reason: .notAllowed, runAppHook: false) == .none)
        #expect(machine.stateName == "tokensRemoved")
    }

    @Test func doneCanBeWipedAgain() {
        var machine = SelectiveWipeStateMachine.atStep("done")
        let action = machine.wipeRequested(reason: .deregistered, runAppHook: false)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .removeTokens(alice))
    }

    @Test(arguments: ["idle", "intentRecorded", "tokensRemoved", "vaultRemoved", "done"])
    func snapshotRoundTripsThroughJSONAndResumes(step: String) throws {
        let machine = SelectiveWipeStateMachine.atStep(step, runAppHook: false)
        let text = machine.snapshot.json.encodedString()
        var rebuilt = SelectiveWipeStateMachine(restoring: try .init(json: try JSONValue.parse(text)))
        #expect(rebuilt.stateName == step)
        #expect(rebuilt.snapshot == machine.snapshot)
        let expected: SelectiveWipeStateMachine.Action = switch step {
        case "idle": .none
        case "intentRecorded": .removeTokens(alice)
        case "tokensRemoved": .removeVaultFiles(alice, runAppHook: false)
        case "vaultRemoved": .removeEnrollment(alice)
        default: .finished(alice)
        }
        #expect(rebuilt.resumed() == expected)
    }

    @Test func corruptSnapshotsAreRefusedWithAPath() {
        #expect(throws: StoredValueError.self) { try SelectiveWipeStateMachine.Snapshot(json: ["machine": "selectiveWipe", "version": 2]) }
        do {
            _ = try SelectiveWipeStateMachine.Snapshot(json: [
                "machine": "selectiveWipe", "version": 1, "step": "sideways", "reason": "adminCommand", "runAppHook": true,
                "account": ["upn": "alice@contoso.com", "home": nil],
            ])
            Issue.record("accepted an unknown step")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(error.path == "selectiveWipe.step")
        }
        do {
            _ = try SelectiveWipeStateMachine.Snapshot(json: ["machine": "selectiveWipe", "version": 1, "step": "idle", "account": ["upn": " x@y"]])
            Issue.record("accepted a bad account")
        } catch {
            #expect(error.path == "selectiveWipe.account.upn")
        }
    }
}
