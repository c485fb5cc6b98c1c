import JSON
import Testing
@testable import ComplianceCore

@Suite struct EnrollmentStateMachineTests {
    @Test func registerPersistsThenEnrolls() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.register(now: t0)
        #expect(action == .enroll(alice))
    }

    @Test func enrollmentSucceededSchedulesThe8HourCheckIn() {
        var machine = EnrollmentStateMachine.enrolling()
        let action = machine.enrollmentSucceeded(.newPoliciesReceived, now: t0)
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(8))))
        #expect(machine.takeEvents() == [.enrollment(EnrollmentReport(account: alice, status: .newPoliciesReceived))])
        #expect(machine.isEnrolled)
    }

    @Test func enrollmentFailedRetriesIn24Hours() {
        var machine = EnrollmentStateMachine.enrolling()
        let action = machine.enrollmentFailed(.accountNotLicensed, now: t0)
        #expect(action == .none)
        #expect(machine.due == Due(.enrollmentRetry, at: t0.advanced(by: .hours(24))))
        #expect(machine.takeEvents() == [.enrollment(EnrollmentReport(account: alice, status: .accountNotLicensed))])
    }

    @Test func retryTimerEnrollsAgainUntilOneSucceeds() {
        var machine = EnrollmentStateMachine.awaitingRetry()
        #expect(machine.timerFired(.enrollmentRetry, now: t0.advanced(by: .hours(23))) == .none)
        #expect(machine.due == Due(.enrollmentRetry, at: t0.advanced(by: .hours(24))))
        let action = machine.timerFired(.enrollmentRetry, now: t0.advanced(by: .hours(24)))
        #expect(action == .enroll(alice))
        #expect(machine.enrollmentFailed(.internalError, now: t0.advanced(by: .hours(24))) == .none)
        #expect(machine.due == Due(.enrollmentRetry, at: t0.advanced(by: .hours(48))))
        _ = machine.timerFired(.enrollmentRetry, now: t0.advanced(by: .hours(48)))
        #expect(machine.enrollmentSucceeded(.newPoliciesReceived, now: t0.advanced(by: .hours(48))) == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(56))))
        #expect(machine.timerFired(.enrollmentRetry, now: t0.advanced(by: .hours(72))) == .none)  // stale
    }

    @Test func checkInTimerStartsACheckIn() {
        var machine = EnrollmentStateMachine.enrolled()
        #expect(machine.timerFired(.policyCheckIn, now: t0.advanced(by: .hours(7))) == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(8))))
        #expect(machine.timerFired(.policyCheckIn, now: t0.advanced(by: .hours(8))) == .checkIn(alice))
        #expect(machine.stateName == "checkingIn")
    }

    @Test func checkIn100AppliesNewPolicy() {
        var machine = EnrollmentStateMachine.checkingIn()
        let newPolicy = policy("v2")
        #expect(machine.checkInCompleted(.newPoliciesReceived(newPolicy), now: t0.advanced(by: .hours(8))) == .applyPolicy(alice, newPolicy))
        #expect(machine.takeEvents() == [.policy(EnrollmentReport(account: alice, status: .newPoliciesReceived))])
        let action = machine.policyApplied(now: t0.advanced(by: .hours(9)))
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(17))))
    }

    @Test func checkIn101ReschedulesOnly() {
        var machine = EnrollmentStateMachine.checkingIn()
        let action = machine.checkInCompleted(.policiesHaveNotChanged, now: t0.advanced(by: .hours(8)))
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(16))))
        #expect(machine.takeEvents() == [.policy(EnrollmentReport(account: alice, status: .policiesHaveNotChanged))])
    }

    @Test func checkIn102WipesThenReportsUnenrolled() {
        var machine = EnrollmentStateMachine.checkingIn()
        let action = machine.checkInCompleted(.wipeReceived, now: t0.advanced(by: .hours(8)))
        #expect(action == .startWipe(alice, .adminCommand))
        _ = machine.takeEvents()
        let done = machine.wipeCompleted()
        #expect(done == .none)
        #expect(machine.stateName == "removed")
        #expect(machine.takeEvents() == [.unenroll(EnrollmentReport(account: alice, status: .unenrollmentSuccess))])
    }

    @Test func checkInFailedTriesAgainLater() {
        var machine = EnrollmentStateMachine.checkingIn()
        let action = machine.checkInFailed(.policyEndPointNetworkFailure, now: t0.advanced(by: .hours(8)))
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(16))))
    }

    @Test func deregisterAcquiresTheMAMTokenBeforeUnenrolling() {
        var machine = EnrollmentStateMachine.enrolled()
        let action = machine.deregister(wipe: false)
        #expect(action == .acquireMAMToken(alice))
        #expect(machine.mamTokenAcquired() == .unenroll(alice))
        let done = machine.unenrollmentSucceeded()
        #expect(done == .none)
        #expect(machine.stateName == "removed")
        #expect(machine.takeEvents() == [.unenroll(EnrollmentReport(account: alice, status: .unenrollmentSuccess))])
    }

    @Test func deregisterWithWipeUnenrollsThenWipes() {
        var machine = EnrollmentStateMachine.deregistering(wipe: true)
        _ = machine.mamTokenAcquired()
        let action = machine.unenrollmentSucceeded()
        #expect(action == .startWipe(alice, .deregistered))
        let done = machine.wipeCompleted()
        #expect(done == .none)
        #expect(machine.stateName == "removed")
    }

    @Test func unenrollFailureStillRemovesLocally() {
        var machine = EnrollmentStateMachine.deregistering(wipe: true)
        _ = machine.mamTokenAcquired()
        #expect(machine.unenrollmentFailed(.enrollmentEndPointNetworkFailure) == .startWipe(alice, .deregistered))
        #expect(machine.takeEvents() == [.unenroll(EnrollmentReport(account: alice, status: .enrollmentEndPointNetworkFailure))])
    }

    @Test func noMAMTokenReportsAuthRequired() {
        var machine = EnrollmentStateMachine.deregistering(wipe: false)
        #expect(machine.mamTokenFailed() == .none)
        #expect(machine.takeEvents() == [.unenroll(EnrollmentReport(account: alice, status: .authRequired))])
    }

    @Test func deregisterWhileWaitingToRetryStopsRetries() {
        var machine = EnrollmentStateMachine.awaitingRetry()
        let action = machine.deregister(wipe: true)
        #expect(action == .startWipe(alice, .deregistered))
        _ = machine.wipeCompleted()
        #expect(machine.timerFired(.enrollmentRetry, now: t0.advanced(by: .hours(24))) == .none)
    }

    @Test func deregisterOfAnUnregisteredAccountWithoutWipeIsImmediate() {
        var machine = EnrollmentStateMachine(account: alice)
        let action = machine.deregister(wipe: false)
        #expect(action == .none)
        #expect(machine.stateName == "removed")
    }

    @Test func lateAnswersAfterDeregistrationAreIgnored() {
        var machine = EnrollmentStateMachine.enrolling()
        _ = machine.deregister(wipe: false)
        #expect(machine.enrollmentSucceeded(.newPoliciesReceived, now: t0) == .none)
        #expect(machine.deregister(wipe: true) == .none)
    }

    @Test func remediationEnrolledStartsTheCheckInSchedule() {
        var machine = EnrollmentStateMachine.awaitingRetry()
        let action = machine.remediationEnrolled(now: t0.advanced(by: .hours(1)))
        #expect(action == .none)
        #expect(machine.due == Due(.policyCheckIn, at: t0.advanced(by: .hours(9))))
    }

    @Test func removedAccountsCanRegisterAgain() {
        var machine = EnrollmentStateMachine(account: alice)
        _ = machine.deregister(wipe: false)
        let action = machine.register(now: t0)
        #expect(action == .enroll(alice))
    }

    @Test func snapshotsRoundTripAndResume() throws {
        let cases: [(EnrollmentStateMachine, EnrollmentStateMachine.Action, Due?)] = [
            (EnrollmentStateMachine(account: alice), .none, nil),
            (.enrolling(), .enroll(alice), nil),
            (.awaitingRetry(), .none, Due(.enrollmentRetry, at: t0.advanced(by: .hours(24)))),
            (.enrolled(), .none, Due(.policyCheckIn, at: t0.advanced(by: .hours(8)))),
            (.checkingIn(), .none, Due(.policyCheckIn, at: t0.advanced(by: .hours(8)))),
            (.deregistering(wipe: true), .acquireMAMToken(alice), nil),
        ]
        for (machine, expected, due) in cases {
            let json = try JSONValue.parse(machine.snapshot.json.encodedString())
            var rebuilt = EnrollmentStateMachine(restoring: try .init(json: json))
            #expect(rebuilt.resumed() == expected)
            #expect(rebuilt.due == due)
            #expect(rebuilt.account == alice)
        }
    }

    @Test func statusCodesAreTheSDKs() {
        #expect(EnrollmentStatus.newPoliciesReceived.rawValue == 100)
        #expect(EnrollmentStatus.wipeReceived.rawValue == 102)
        #expect(EnrollmentStatus.unenrollmentSuccess.rawValue == 104)
        #expect(EnrollmentStatus.singleManagedAccountMode.rawValue == 227)
        #expect(EnrollmentStatus.allCases.count == 21)
        #expect(ComplianceStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }
}
