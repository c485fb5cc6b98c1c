import Testing
@testable import ComplianceCore

/// `accountEnrolled`: an account enrolled by registration (not a remediation) is known to
/// the remediation machine as holding managed data (the managed slot itself is the composed
/// machine's rule: ``ComplianceMachineTests``).
@Suite struct RemediationAccountEnrolledTests {
    /// Runs `account`'s remediation to the policy step and returns what applying it asks next.
    static func applyPolicy(_ machine: inout RemediationStateMachine, _ account: AccountID) -> RemediationStateMachine.Action {
        _ = machine.remediate(account, silent: true)
        _ = machine.mamTokenAcquired()
        _ = machine.enrollmentSucceeded()
        _ = machine.policyReceived(policy())
        return machine.policyApplied()
    }

    @Test func anEnrolledAccountIsPersistedOnceAsHoldingData() {
        var machine = RemediationStateMachine()
        let before = machine.snapshot
        machine.accountEnrolled(bob)
        #expect(machine.snapshot != before)
        #expect(machine.holdsManagedData(bob))
        #expect(machine.stateName == "idle")
        let known = machine.snapshot
        machine.accountEnrolled(bob)
        #expect(machine.snapshot == known)
    }

    /// A start tells the machine of every enrolled account again: one it knows, managed or
    /// not, must cost no commit (with 10,000 enrolled accounts a commit each made the
    /// start quadratic).
    @Test func anAccountItKnowsBesideAnotherManagedOneCostsNoCommit() {
        var machine = RemediationStateMachine()
        machine.accountEnrolled(bob)
        machine.accountEnrolled(alice)
        #expect(machine.holdsManagedData(bob) && machine.holdsManagedData(alice))
        let known = machine.snapshot
        machine.accountEnrolled(alice)
        machine.accountEnrolled(bob)
        #expect(machine.snapshot == known)
    }

    @Test func manyEnrolledAccountsArePersistedInOneStep() throws {
        var machine = RemediationStateMachine()
        let empty = machine.snapshot
        machine.accountsEnrolled([])
        #expect(machine.snapshot == empty)
        machine.accountsEnrolled([bob, alice, bob])
        #expect(machine.holdsManagedData(bob) && machine.holdsManagedData(alice))
        let known = machine.snapshot
        machine.accountsEnrolled([alice, bob])
        #expect(machine.snapshot == known)
        var restored = RemediationStateMachine(restoring: try .init(json: machine.snapshot.json))
        restored.accountsEnrolled([bob, alice])
        #expect(restored.snapshot == known)
        #expect(Self.applyPolicy(&restored, bob) == .reportCompliance(bob))
    }

    @Test func itsNextRemediationAppliesPolicyWithoutARestart() {
        var known = RemediationStateMachine()
        known.accountEnrolled(bob)
        #expect(Self.applyPolicy(&known, bob) == .reportCompliance(bob))

        var unknown = RemediationStateMachine()
        #expect(Self.applyPolicy(&unknown, bob) == .restartApp(bob))
    }

    @Test func aFailedRemediationOfTheEnrolledAccountWipesItFirst() {
        var machine = RemediationStateMachine()
        machine.accountEnrolled(bob)
        _ = machine.remediate(bob, silent: true)
        #expect(machine.mamTokenFailed(.networkFailure("down")) == .startWipe(bob, .remediationFailed))
        #expect(machine.stateName == "wipingManagedData")
    }

    /// The composed machine answers `managedElsewhere` when bob holds the slot.
    @Test func anotherAccountsRemediationIsRefusedWith227WhenToldTheSlotIsHeld() {
        var machine = RemediationStateMachine()
        machine.accountEnrolled(bob)
        #expect(machine.remediate(alice, silent: true) == .acquireMAMToken(alice, silent: true))
        guard case .deliverStatus(let report, nil) = machine.managedElsewhere(by: bob) else {
            Issue.record("expected a delivered status")
            return
        }
        #expect(report.status == .notCompliant && report.enrollmentStatus == .singleManagedAccountMode)
        #expect(report.message.contains("bob@contoso.com is the managed account of this app."))
        #expect(machine.takeEvents() == [.remediationStarted(alice, silent: true), .compliance(report)])
    }

    @Test func itSurvivesASnapshotRoundTrip() throws {
        var machine = RemediationStateMachine()
        machine.accountEnrolled(bob)
        var restored = RemediationStateMachine(restoring: try .init(json: machine.snapshot.json))
        #expect(restored.holdsManagedData(bob))
        restored.accountEnrolled(bob)
        #expect(restored.snapshot == machine.snapshot)
    }
}
