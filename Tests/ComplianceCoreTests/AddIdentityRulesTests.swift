import Testing
@testable import ComplianceCore

/// `addIdentity:completionHandler:` (POST /v1/identity/sdk-enrolled): the app is asked once per
/// account it does not have yet, and every caller waiting hears the one answer. Event in,
/// actions out.
@Suite struct AddIdentityRulesTests {
    static let josé = try! AccountID("jos\u{E9}@contoso.com")
    static let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)

    static func machine() -> ComplianceMachine {
        var configuration = ComplianceMachine.Configuration(multiIdentity: true)
        configuration.hasIdentityHook = true
        return ComplianceMachine(configuration: configuration)
    }

    static func question(_ actions: [ComplianceMachine.Action]) -> ComplianceMachine.StepID? {
        RetryAfterHoldTests.step(actions) { if case .askApp(let step, .addIdentity) = $0 { step } else { nil } }
    }

    static func replies(_ actions: [ComplianceMachine.Action]) -> [UInt64: ComplianceMachine.Reply] {
        var replies: [UInt64: ComplianceMachine.Reply] = [:]
        for case .reply(let ticket, let reply) in actions { replies[ticket.value] = reply }
        return replies
    }

    /// Two requests while the app is asked: one question, both callers hear its answer.
    @Test(arguments: [true, false])
    func aSecondRequestWaitsForTheSameAnswer(_ success: Bool) throws {
        var machine = Self.machine()
        machine.sdkEnrollmentRequested(Self.josé, ticket: .init(1), now: Self.now)
        let asked = try #require(Self.question(RetryAfterHoldTests.take(&machine)))
        machine.sdkEnrollmentRequested(Self.josé, ticket: .init(2), now: Self.now)
        let second = RetryAfterHoldTests.take(&machine)
        #expect(Self.question(second) == nil, "the app is asked once: \(second)")
        #expect(Self.replies(second).isEmpty, "the second caller waits: \(second)")
        machine.completed(asked, .appAnswered(AppIdentityAnswer(success: success, outcome: "test")), now: Self.now)
        let answered = RetryAfterHoldTests.take(&machine)
        #expect(machine.registeredAccounts.contains(Self.josé) == success)
        if !success {
            #expect(Self.replies(answered) == [1: .settled, 2: .settled], "\(answered)")
        }
    }

    /// An account the app already has is not asked about again: Failed could not undo it, and
    /// the SDK asks addIdentity only for an account the app lacks.
    @Test func anAccountAlreadyRegisteredIsNotAskedAgain() throws {
        var machine = Self.machine()
        machine.sdkEnrollmentRequested(Self.josé, ticket: .init(1), now: Self.now)
        let asked = try #require(Self.question(RetryAfterHoldTests.take(&machine)))
        machine.completed(asked, .appAnswered(AppIdentityAnswer(success: true, outcome: "test")), now: Self.now)
        _ = RetryAfterHoldTests.take(&machine)
        #expect(machine.registeredAccounts.contains(Self.josé))
        machine.sdkEnrollmentRequested(Self.josé, ticket: .init(2), now: Self.now)
        let again = RetryAfterHoldTests.take(&machine)
        #expect(Self.question(again) == nil, "\(again)")
        #expect(machine.registeredAccounts.contains(Self.josé))
    }
}
