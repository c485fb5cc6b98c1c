import Testing
@testable import ComplianceCore

/// `accountEnrolled`: an account enrolled by registration (not a remediation) is known to
/// the remediation machine as holding managed data (the managed slot itself is the composed
/// machine's rule: ``ComplianceMachineTests``).
@Suite struct RemediationAccountEnrolledTests {
    /// Runs `account`'s remediation to the policy step and returns what applying it asks next.
    static func applyPolicy(_ machine: inout RemediationStateMachine, _ account: AccountID) -> RemediationStateMachine.Action {
        _ = machine.remediate(account, silent: true)
        _ = machine.persisted()
        _ = machine.mamTokenAcquired()
        _ = machine.enrollmentSucceeded()
        _ = machine.persisted()
        _ = machine.policyReceived(policy())
        _ = machine.persisted()
        return machine.policyApplied()
    }

    @Test func anEnrolledAccountIsPersistedOnceAsHoldingData() {
        var machine = RemediationStateMachine()
        #expect(machine.accountEnrolled(bob) == .persist(machine.snapshot))
        #expect(machine.persisted() == .none)
        #expect(machine.holdsManagedData(bob))
        #expect(machine.stateName == "idle")
        #expect(machine.accountEnrolled(bob) == .none)
    }

    /// A start tells the machine of every enrolled account again: one it knows, managed or
    /// not, must cost no commit (with 10,000 enrolled accounts a commit each made the
    /// start quadratic).
    @Test func anAccountItKnowsBesideAnotherManagedOneCostsNoCommit() {
        var machine = RemediationStateMachine()
        _ = machine.accountEnrolled(bob)
        _ = machine.persisted()
        #expect(machine.accountEnrolled(alice) == .persist(machine.snapshot))
        #expect(machine.persisted() == .none)
        #expect(machine.holdsManagedData(bob) && machine.holdsManagedData(alice))
        #expect(machine.accountEnrolled(alice) == .none)
        #expect(machine.accountEnrolled(bob) == .none)
    }

    @Test func manyEnrolledAccountsArePersistedInOneStep() throws {
        var machine = RemediationStateMachine()
        #expect(machine.accountsEnrolled([]) == .none)
        #expect(machine.accountsEnrolled([bob, alice, bob]) == .persist(machine.snapshot))
        #expect(machine.persisted() == .none)
        #expect(machine.holdsManagedData(bob) && machine.holdsManagedData(alice))
        #expect(machine.accountsEnrolled([alice, bob]) == .none)
        var restored = RemediationStateMachine(restoring: try .init(json: machine.snapshot.json))
        #expect(restored.accountsEnrolled([bob, alice]) == .none)
        #expect(Self.applyPolicy(&restored, bob) == .reportCompliance(bob))
    }

    @Test func itsNextRemediationAppliesPolicyWithoutARestart() {
        var known = RemediationStateMachine()
        _ = known.accountEnrolled(bob)
        _ = known.persisted()
        #expect(Self.applyPolicy(&known, bob) == .reportCompliance(bob))

        var unknown = RemediationStateMachine()
        #expect(Self.applyPolicy(&unknown, bob) == .persist(unknown.snapshot))
        #expect(unknown.persisted() == .restartApp(bob))
    }

    @Test func aFailedRemediationOfTheEnrolledAccountWipesItFirst() {
        var machine = RemediationStateMachine()
        _ = machine.accountEnrolled(bob)
        _ = machine.persisted()
        _ = machine.remediate(bob, silent: true)
        _ = machine.persisted()
        _ = machine.mamTokenFailed(.networkFailure("down"))
        #expect(machine.stateName == "wipingManagedData")
        #expect(machine.persisted() == .startWipe(bob, .remediationFailed))
    }

    /// The composed machine answers `managedElsewhere` when bob holds the slot.
    @Test func anotherAccountsRemediationIsRefusedWith227WhenToldTheSlotIsHeld() {
        var machine = RemediationStateMachine()
        _ = machine.accountEnrolled(bob)
        _ = machine.persisted()
        _ = machine.remediate(alice, silent: true)
        #expect(machine.persisted() == .acquireMAMToken(alice, silent: true))
        _ = machine.managedElsewhere(by: bob)
        guard case .deliverStatus(let report, nil) = machine.persisted() else {
            Issue.record("expected a delivered status")
            return
        }
        #expect(report.status == .notCompliant && report.enrollmentStatus == .singleManagedAccountMode)
        #expect(report.message.contains("bob@contoso.com is the managed account of this app."))
        #expect(machine.takeEvents() == [.remediationStarted(alice, silent: true), .compliance(report)])
    }

    @Test func itSurvivesASnapshotRoundTrip() throws {
        var machine = RemediationStateMachine()
        _ = machine.accountEnrolled(bob)
        _ = machine.persisted()
        var restored = RemediationStateMachine(restoring: try .init(json: machine.snapshot.json))
        #expect(restored.holdsManagedData(bob))
        #expect(restored.accountEnrolled(bob) == .none)
    }
}
