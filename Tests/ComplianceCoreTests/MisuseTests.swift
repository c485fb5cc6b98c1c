import Testing
@testable import ComplianceCore

/// Caller misuse is a programming error: the machines stop the process with a
/// precondition failure naming the state (checked in a child process).
@Suite struct MisuseTests {
    @Test func wipeStepOutOfOrder() async {
        await #expect(processExitsWith: .failure) {
            var machine = SelectiveWipeStateMachine(account: try! AccountID("alice@contoso.com"))
            _ = machine.vaultRemoved()
        }
    }

    @Test func eventBeforePersisted() async {
        await #expect(processExitsWith: .failure) {
            var machine = RemediationStateMachine()
            _ = machine.remediate(try! AccountID("alice@contoso.com"), silent: true)
            _ = machine.remediate(try! AccountID("bob@contoso.com"), silent: true)
        }
    }

    @Test func answerForAStepNotInProgress() async {
        await #expect(processExitsWith: .failure) {
            var machine = EnrollmentStateMachine(account: try! AccountID("alice@contoso.com"))
            _ = machine.enrollmentSucceeded(.newPoliciesReceived, now: Instant(millisecondsSinceEpoch: 0))
        }
    }

    @Test func tokenRequestStartedTwice() async {
        await #expect(processExitsWith: .failure) {
            var machine = TokenAcquisitionStateMachine(request: .init(account: try! AccountID("alice@contoso.com"), scopes: [], allowInteraction: false))
            _ = machine.start()
            _ = machine.start()
        }
    }
}
