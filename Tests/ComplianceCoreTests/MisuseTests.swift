import Testing
@testable import ComplianceCore

/// Caller misuse is a programming error: the machines stop the process with a
/// precondition failure whose message names the call and the state (checked in a child
/// process, whose standard error is read).
@Suite struct MisuseTests {
    /// The child's standard error, or a recorded issue when it did not fail.
    static func failureMessage(_ result: ExitTest.Result?) -> String {
        guard let result else { return "" }
        return String(decoding: result.standardErrorContent, as: UTF8.self)
    }

    @Test func wipeStepOutOfOrder() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = SelectiveWipeStateMachine(account: try! AccountID("alice@contoso.com"))
            _ = machine.vaultRemoved()
        }
        let message = Self.failureMessage(result)
        #expect(message.contains("vaultRemoved() while not removing vault files. Invalid state: idle"), "\(message)")
    }

    @Test func answerForAStepNotInProgress() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = EnrollmentStateMachine(account: try! AccountID("alice@contoso.com"))
            _ = machine.enrollmentSucceeded(.newPoliciesReceived, now: Instant(millisecondsSinceEpoch: 0))
        }
        let message = Self.failureMessage(result)
        #expect(message.contains("enrollmentSucceeded() without an enrollment in flight. Invalid state: unregistered"), "\(message)")
    }

    @Test func tokenRequestStartedTwice() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var machine = TokenAcquisitionStateMachine(request: .init(account: try! AccountID("alice@contoso.com"), scopes: [], allowInteraction: false))
            _ = machine.start()
            _ = machine.start()
        }
        let message = Self.failureMessage(result)
        #expect(message.contains("start() called twice. Invalid state: readingCache"), "\(message)")
    }
}
