import Testing
@testable import ComplianceCore

/// Remediation edges that end a run early: another account holding the managed slot, failures
/// of an account that already holds managed data (wipe first), and removal at every step.
@Suite struct RemediationFailurePathTests {
    /// alice remediated to Compliant and idle again, so she is managed and holds data.
    func managedAlice() -> RemediationStateMachine {
        var machine = RemediationStateMachine.at("retryingTokenRequest")
        _ = machine.retriedTokenRequestCompleted(.success(tokenSet()))
        _ = machine.statusDelivered()
        return machine.drained()
    }

    @Test(arguments: ["acquiringMAMToken", "enrolling"])
    func managedElsewhereBeforeEnrollingDelivers227(step: String) {
        var machine = RemediationStateMachine.at(step)
        let action = machine.managedElsewhere(by: bob)
        let report = ComplianceStatusReport(
            account: alice, status: .notCompliant, enrollmentStatus: .singleManagedAccountMode, detail: "bob@contoso.com is the managed account of this app.")
        #expect(action == .deliverStatus(report, tokens: nil))
        #expect(machine.stateName == "delivering")
        #expect(machine.takeEvents() == [.compliance(report)])
    }

    @Test func aRemediationStartAnnouncesItselfBeforeAnyReport() {
        var machine = managedAlice()
        #expect(machine.remediate(bob, silent: false) == .acquireMAMToken(bob, silent: false))
        #expect(machine.takeEvents() == [.remediationStarted(bob, silent: false)])
    }

    @Test func mamTokenFailureOfAManagedAccountWipesFirst() {
        var machine = RemediationStateMachine.at("acquiringMAMToken", firstPolicy: false)
        let action = machine.mamTokenFailed(.networkFailure("unreachable"))
        #expect(action == .startWipe(alice, .remediationFailed))
        #expect(machine.stateName == "wipingManagedData")
        guard case .deliverStatus(let report, nil) = machine.wipeStarted() else { Issue.record("no status"); return }
        #expect(report.status == .networkFailure)
    }

    @Test func enrollmentFailureOfAManagedAccountWipesFirst() {
        var machine = RemediationStateMachine.at("enrolling", firstPolicy: false)
        #expect(machine.enrollmentFailed(.accountNotLicensed) == .startWipe(alice, .remediationFailed))
    }

    @Test func policyThatNoLongerAllowsAManagedAccountWipesIt() {
        var machine = RemediationStateMachine.at("awaitingPolicy", firstPolicy: false)
        #expect(machine.policyReceived(policy(allowed: [bob])) == .startWipe(alice, .remediationFailed))
        guard case .deliverStatus(let report, nil) = machine.wipeStarted() else { Issue.record("no status"); return }
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
        #expect(machine.stateName == "delivering")
        guard case .deliverStatus(let report, nil) = action else { Issue.record("no status"); return }
        #expect(report.status == .notCompliant)
        #expect(!machine.holdsManagedData(alice))
    }

    @Test func accountRemovedDropsAQueuedAccount() {
        var machine = RemediationStateMachine.at("enrolling")
        _ = machine.remediate(bob, silent: true)
        let action = machine.accountRemoved(bob)
        #expect(action == .none)
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
        _ = machine.accountRemoved(alice)
        let stored = machine.snapshot  // alice's run ended; bob waits
        var rebuilt = RemediationStateMachine(restoring: stored)
        let action = rebuilt.resumed()
        #expect(action == .acquireMAMToken(bob, silent: true))
    }
}

/// Enrollment edges not covered by the main suite.
@Suite struct EnrollmentDeregistrationPathTests {
    @Test func deregisterWithWipeOfAnUnregisteredAccountWipes() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.deregister(wipe: true)
        #expect(action == .startWipe(alice, .deregistered))
    }

    @Test func deregisterDuringACheckInUnenrolls() {
        var machine = EnrollmentStateMachine.checkingIn()
        let action = machine.deregister(wipe: false)
        #expect(action == .acquireMAMToken(alice))
        #expect(machine.checkInCompleted(.policiesHaveNotChanged, now: t0) == .none)  // late answer
    }

    @Test func deregisterWhileApplyingPolicyUnenrolls() {
        var machine = EnrollmentStateMachine.checkingIn()
        _ = machine.checkInCompleted(.newPoliciesReceived(policy("v2")), now: t0)
        #expect(machine.deregister(wipe: true) == .acquireMAMToken(alice))
        #expect(machine.policyApplied(now: t0) == .none)
    }

    @Test func noMAMTokenWithWipeStillWipes() {
        var machine = EnrollmentStateMachine.deregistering(wipe: true)
        let action = machine.mamTokenFailed()
        #expect(action == .startWipe(alice, .deregistered))
    }

    @Test func remediationEnrolledAnUnregisteredAccount() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.remediationEnrolled(now: t0)
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(8))))
    }
}
