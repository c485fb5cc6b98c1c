import JSON
import Testing
@testable import ComplianceCore

@Suite struct SelectiveWipeStateMachineTests {
    @Test func wipeRequestedJournalsTheIntentFirst() {
        var machine = SelectiveWipeStateMachine(account: alice)
        let action = machine.wipeRequested(reason: .adminCommand, runAppHook: true)
        #expect(action == .removeTokens(alice))
        #expect(machine.stateName == "intentRecorded")
        #expect(machine.snapshot.json["step"] == "intentRecorded")
        #expect(machine.takeEvents() == [.wipeStarted(alice, .adminCommand)])
    }

    @Test func tokensRemovedRunsTheAppsHookFirst() {
        var machine = SelectiveWipeStateMachine.atStep("intentRecorded", runAppHook: true)
        let action = machine.tokensRemoved()
        #expect(action == .runAppHook(alice))
    }

    @Test func withoutAHookTheVaultFilesGoNext() {
        var machine = SelectiveWipeStateMachine.atStep("intentRecorded", runAppHook: false)
        #expect(machine.tokensRemoved() == .removeVaultFiles(alice))
    }

    /// The hook plays `wipeDataForAccount`: its YES (exit 0) covers the app's own data only;
    /// the daemon removes the account's vault (key and files) after either answer, so nothing
    /// written before the wipe stays readable. `wipeFinished` comes after the vault step.
    @Test func theDaemonRemovesTheVaultWhateverTheHookAnswers() {
        for removedData in [true, false] {
            var machine = SelectiveWipeStateMachine.atStep("tokensRemoved", runAppHook: true)
            _ = machine.takeEvents()
            let outcome = removedData ? "exited with status 0" : "exited with status 1"
            #expect(machine.appHookFinished(removedData: removedData, outcome: outcome) == .removeVaultFiles(alice))
            #expect(machine.stateName == "appHookFinished")
            #expect(machine.takeEvents() == [.wipeHookRan(alice, outcome: outcome, appRemovedData: removedData)])
            #expect(machine.vaultRemoved() == .removeEnrollment(alice))
        }
    }

    @Test func vaultRemovedMovesToEnrollment() {
        var machine = SelectiveWipeStateMachine.atStep("appHookFinished")
        let action = machine.vaultRemoved()
        #expect(action == .removeEnrollment(alice))
    }

    @Test func enrollmentRemovedFinishes() {
        var machine = SelectiveWipeStateMachine.atStep("vaultRemoved")
        _ = machine.takeEvents()
        let action = machine.enrollmentRemoved()
        #expect(action == .finished(alice))
        #expect(machine.takeEvents() == [.wipeFinished(alice)])
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

    @Test func doneCanBeWipedAgainAsTheNextGeneration() {
        var machine = SelectiveWipeStateMachine.atStep("done")
        #expect(machine.wipe?.generation == 1)
        let action = machine.wipeRequested(reason: .deregistered, runAppHook: false)
        #expect(action == .removeTokens(alice))
        #expect(machine.wipe?.generation == 2)
    }

    /// A wipe stored done is never run again after a restart (the composed machine's
    /// invariant 5): resuming it does nothing.
    @Test func aWipeStoredDoneDoesNotResume() throws {
        var rebuilt = SelectiveWipeStateMachine(restoring: try .init(json: SelectiveWipeStateMachine.atStep("done").snapshot.json))
        #expect(rebuilt.resumed() == .none)
        #expect(rebuilt.takeEvents().isEmpty)
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
        case "tokensRemoved": .removeVaultFiles(alice)
        case "vaultRemoved": .removeEnrollment(alice)
        default: .none
        }
        #expect(rebuilt.resumed() == expected)
    }

    @Test func corruptSnapshotsAreRefusedWithAPath() {
        #expect(throws: StoredValueError.self) { try SelectiveWipeStateMachine.Snapshot(json: ["machine": "selectiveWipe", "version": 3]) }
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
