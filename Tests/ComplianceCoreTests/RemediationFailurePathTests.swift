import Testing
@testable import ComplianceCore

/// Remediation edges that end a run early: another account holding the managed slot, failures
/// of an account that already holds managed data (wipe first), and removal at every step.
@Suite struct RemediationFailurePathTests {
    /// alice remediated to Compliant and idle again, so she is managed and holds data.
    func managedAlice() -> RemediationStateMachine {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        _ = machine.retriedTokenRequestCompleted(.success(tokenSet()))
        _ = machine.persisted()
        _ = machine.statusDelivered()
        return machine.drained()
    }

    @Test(arguments: ["acquiringMAMToken", "enrolling"])
    func managedElsewhereBeforeEnrollingDelivers227(step: String) {
        var machine = RemediationStateMachine.at(step)
        let action = machine.managedElsewhere(by: bob)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.stateName == "delivering")
        let report = ComplianceStatusReport(
            account: alice, status: .notCompliant, enrollmentStatus: .singleManagedAccountMode, detail: "bob@contoso.com is the managed account of this app.")
        #expect(machine.persisted() == .deliverStatus(report, tokens: nil))
        #expect(machine.takeEvents() == [.compliance(report)])
    }

    @Test func aRemediationStartAnnouncesItselfBeforeAnyReport() {
        var machine = managedAlice()
        _ = machine.remediate(bob, silent: false)
        #expect(machine.takeEvents() == [.remediationStarted(bob, silent: false)])
        #expect(machine.persisted() == .acquireMAMToken(bob, silent: false))
    }

    @Test func mamTokenFailureOfAManagedAccountWipesFirst() {
        var machine = RemediationStateMachine.at("acquiringMAMToken", firstPolicy: false)
        let action = machine.mamTokenFailed(.networkFailure("unreachable"))
        #expect(action == .persist(machine.snapshot))
        #expect(machine.stateName == "wipingManagedData")
        #expect(machine.persisted() == .startWipe(alice, .remediationFailed))
        _ = machine.wipeStarted()
        guard case .deliverStatus(let report, nil) = machine.persisted() else { Issue.record("no status"); return }
        #expect(report.status == .networkFailure)
    }

    @Test func enrollmentFailureOfAManagedAccountWipesFirst() {
        var machine = RemediationStateMachine.at("enrolling", firstPolicy: false)
        _ = machine.enrollmentFailed(.accountNotLicensed)
        #expect(machine.persisted() == .startWipe(alice, .remediationFailed))
    }

    @Test func policyThatNoLongerAllowsAManagedAccountWipesIt() {
        var machine = RemediationStateMachine.at("awaitingPolicy", firstPolicy: false)
        _ = machine.policyReceived(policy(allowed: [bob]))
        #expect(machine.persisted() == .startWipe(alice, .remediationFailed))
        _ = machine.wipeStarted()
        guard case .deliverStatus(let report, nil) = machine.persisted() else { Issue.record("no status"); return }
        #expect(report.status == .notCompliant)
        #expect(!machine.holdsManagedData(alice))
    }

    @Test func secondPolicyForAManagedAccountNeedsNoRestart() {
        var machine = RemediationStateMachine.at("applyingPolicy", firstPolicy: false)
        #expect(machine.policyApplied() == .reportCompliance(alice))
        #expect(machine.takeEvents().isEmpty)
    }

    @Test(arguments: ["acquiringMAMToken", "enrolling", "awaitingPolicy", "applyingPolicy", "awaitingRestart", "reportingCompliance"])
    func accountRemovedAtEachStepEndsTheRun(step: String) {
        var machine = RemediationStateMachine.at(step)
        let action = machine.accountRemoved(account("Alice@Contoso.com"))
        #expect(action == .persist(machine.snapshot))
        #expect(machine.stateName == "delivering")
        guard case .deliverStatus(let report, nil) = machine.persisted() else { Issue.record("no status"); return }
        #expect(report.status == .notCompliant)
        #expect(!machine.holdsManagedData(alice))
    }

    @Test func accountRemovedDropsAQueuedAccount() {
        var machine = RemediationStateMachine.at("enrolling")
        _ = machine.remediate(bob, silent: true)
        _ = machine.persisted()
        let action = machine.accountRemoved(bob)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .none)
        #expect(machine.queuedAccounts.isEmpty)
        #expect(machine.stateName == "enrolling")
    }

    @Test func anInteractiveCallUpgradesASilentRun() throws {
        var machine = RemediationStateMachine.at("acquiringMAMToken", silent: true)
        #expect(machine.remediate(alice, silent: false) == .none)
        #expect(machine.snapshot.json["run"]?["silent"] == .bool(false))
    }

    @Test func aRebuiltIdleMachineStartsTheQueuedAccount() throws {
        var machine = RemediationStateMachine.at("enrolling")
        _ = machine.remediate(bob, silent: true)
        _ = machine.persisted()
        _ = machine.accountRemoved(alice)
        let stored = machine.snapshot  // alice's run ended; bob waits
        var rebuilt = RemediationStateMachine(restoring: stored)
        let action = rebuilt.resumed()
        #expect(action == .persist(rebuilt.snapshot))
        #expect(rebuilt.persisted() == .acquireMAMToken(bob, silent: true))
    }
}

/// Enrollment edges not covered by the main suite.
@Suite struct EnrollmentDeregistrationPathTests {
    @Test func deregisterWithWipeOfAnUnregisteredAccountWipes() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.deregister(wipe: true)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .startWipe(alice, .deregistered))
    }

    @Test func deregisterDuringACheckInUnenrolls() {
        var machine = EnrollmentStateMachine.checkingIn()
        let action = machine.deregister(wipe: false)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .acquireMAMToken(alice))
        #expect(machine.checkInCompleted(.policiesHaveNotChanged, now: t0) == .none)  // late answer
    }

    @Test func deregisterWhileApplyingPolicyUnenrolls() {
        var machine = EnrollmentStateMachine.checkingIn()
        _ = machine.checkInCompleted(.newPoliciesReceived(policy("v2")), now: t0)
        _ = machine.deregister(wipe: true)
        #expect(machine.persisted() == .acquireMAMToken(alice))
        #expect(machine.policyApplied(now: t0) == .none)
    }

    @Test func noMAMTokenWithWipeStillWipes() {
        var machine = EnrollmentStateMachine.deregistering(wipe: true)
        let action = machine.mamTokenFailed()
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .startWipe(alice, .deregistered))
    }

    @Test func remediationEnrolledAnUnregisteredAccount() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.remediationEnrolled(now: t0)
        #expect(action == .persist(machine.snapshot))
        #expect(machine.persisted() == .scheduleTimer(.policyCheckIn, at: t0.advanced(by: .hours(8))))
    }
}
