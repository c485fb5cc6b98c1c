import Testing
@testable import ComplianceCore

/// `Retry-After` is the machine's (``RetryAfterHolds``): a service that failed asking to wait
/// gets no request until then; the machine answers the held request itself. Event in, actions out.
@Suite struct RetryAfterHoldTests {
    static let alice = try! AccountID("alice@contoso.com")
    static let scopes = ["api://contoso-chat/Chat.Read"]
    static let start = Instant(millisecondsSinceEpoch: 1_800_000_000_000)

    /// Takes the machine's actions until it has none, committing each persist; returns them.
    static func take(_ machine: inout ComplianceMachine) -> [ComplianceMachine.Action] {
        var taken: [ComplianceMachine.Action] = []
        while true {
            let action = machine.nextAction()
            if case .none = action { return taken }
            taken.append(action)
            if case .persist = action { machine.persisted() }
        }
    }

    static func step(_ actions: [ComplianceMachine.Action], _ pick: (ComplianceMachine.Action) -> ComplianceMachine.StepID?) -> ComplianceMachine.StepID? {
        actions.lazy.compactMap(pick).first
    }

    static func cacheRead(_ action: ComplianceMachine.Action) -> ComplianceMachine.StepID? {
        if case .readTokenCache(let step, _, _, _) = action { step } else { nil }
    }

    static func grant(_ action: ComplianceMachine.Action) -> ComplianceMachine.StepID? {
        if case .requestToken(let step, _, _, _, _, _, _) = action { step } else { nil }
    }

    static func reply(_ actions: [ComplianceMachine.Action]) -> ComplianceMachine.TokenAnswer? {
        actions.lazy.compactMap { action -> ComplianceMachine.TokenAnswer? in
            if case .reply(_, .token(let answer)) = action { answer } else { nil }
        }.first
    }

    /// A silent token request that finds a refresh token in the cache; returns the actions
    /// after the cache's answer.
    static func request(_ machine: inout ComplianceMachine, ticket: UInt64, at now: Instant) throws -> [ComplianceMachine.Action] {
        machine.acquireToken(alice, scopes: scopes, interactive: false, remediate: false, ticket: .init(ticket), now: now)
        let read = try #require(step(take(&machine), cacheRead))
        machine.completed(read, .cache(.init(accessToken: nil, refreshToken: SecretToken("rt-1"))), now: now)
        return take(&machine)
    }

    @Test func anIssuerThatAskedToWaitGetsNoGrantUntilThenAndTheHeldRequestFailsAtOnce() throws {
        var machine = ComplianceMachine(configuration: .init(mamService: false))
        let first = try Self.request(&machine, ticket: 1, at: Self.start)
        let sent = try #require(Self.step(first, Self.grant), "\(first)")
        machine.completed(sent, .grant(.response(.serviceFailure(ServiceFailure(status: 503, retryAfter: .seconds(30))))), now: Self.start)
        #expect(Self.reply(Self.take(&machine))?.tokens == nil)

        // 10 s later: the grant is not sent; the caller gets the service failure with the wait left.
        let held = try Self.request(&machine, ticket: 2, at: Self.start.advanced(by: .seconds(10)))
        #expect(Self.step(held, Self.grant) == nil, "\(held)")
        let answer = try #require(Self.reply(held))
        #expect(answer.tokens == nil)
        guard case .serviceFailure(let failure)? = answer.failure else {
            Issue.record("not a service failure: \(String(describing: answer.failure))")
            return
        }
        #expect(failure.status == 503 && failure.retryAfter == .seconds(20))

        // Once the wait has passed, the grant goes out again.
        let later = try Self.request(&machine, ticket: 3, at: Self.start.advanced(by: .seconds(31)))
        #expect(Self.step(later, Self.grant) != nil, "\(later)")
    }

    @Test func aFailureWithoutRetryAfterHoldsNothing() throws {
        var machine = ComplianceMachine(configuration: .init(mamService: false))
        let first = try Self.request(&machine, ticket: 1, at: Self.start)
        let sent = try #require(Self.step(first, Self.grant))
        machine.completed(sent, .grant(.response(.serviceFailure(ServiceFailure(status: 503)))), now: Self.start)
        _ = Self.take(&machine)
        let again = try Self.request(&machine, ticket: 2, at: Self.start.advanced(by: .seconds(1)))
        #expect(Self.step(again, Self.grant) != nil)
    }

    @Test func holdsAreCappedAtAnHourAndKeptPerService() {
        var holds = RetryAfterHolds()
        let first = TokenEnvironment.app
        holds.failed(.issuer(first), .init(status: 429, wait: .hours(5)), now: Self.start)
        #expect(holds.hold(.issuer(first), now: Self.start)?.wait == .hours(1))
        #expect(holds.hold(.mam(first), now: Self.start) == nil)
        #expect(holds.hold(.issuer(first), now: Self.start.advanced(by: .hours(1))) == nil)
        #expect(holds.isEmpty, "a hold that has passed is forgotten")
        holds.failed(.mam(first), .init(status: 503, wait: .seconds(0)), now: Self.start)
        #expect(holds.isEmpty)
    }

    /// A Retry-After too big for milliseconds (a hostile or broken service: 2^63 - 1 seconds)
    /// stopped the daemon with an arithmetic overflow; it is an hour's hold like any long one.
    @Test func aRetryAfterTooBigForMillisecondsIsAnHourNotACrash() {
        #expect(RetryAfterHolds.wait(seconds: Int.max) == RetryAfterHolds.maximum)
        #expect(RetryAfterHolds.wait(seconds: 9_223_372_036_854_776) == RetryAfterHolds.maximum)
        #expect(RetryAfterHolds.wait(seconds: 30) == .seconds(30))
        #expect(RetryAfterHolds.wait(seconds: 0) == .seconds(0))
        #expect(RetryAfterHolds.wait(seconds: -1) == nil)
        // The issuer's discovery, authorize and token failures come this way.
        let result = GrantResultClassifier.result(of: .serviceFailure(status: 503, retryAfterSeconds: Int.max))
        guard case .response(.serviceFailure(let failure)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(failure.retryAfter == RetryAfterHolds.maximum)
    }

    /// A failed commit of another step rebuilt the machine from its records and forgot the
    /// holds (memory only): the held service was asked again at once. Only a start forgets them.
    @Test func aFailedCommitKeepsTheHolds() throws {
        var machine = ComplianceMachine(configuration: .init(mamService: false))
        let first = try Self.request(&machine, ticket: 1, at: Self.start)
        let sent = try #require(Self.step(first, Self.grant))
        machine.completed(sent, .grant(.response(.serviceFailure(ServiceFailure(status: 429, retryAfter: .seconds(600))))), now: Self.start)
        _ = Self.take(&machine)

        var reloaded = try machine.reloadedAfterFailedCommit(machine.stored)
        reloaded.resumed(now: Self.start)
        _ = Self.take(&reloaded)
        let held = try Self.request(&reloaded, ticket: 2, at: Self.start.advanced(by: .seconds(10)))
        #expect(Self.step(held, Self.grant) == nil, "the issuer asked to wait 600 s; a failed commit sent the grant anyway: \(held)")
    }
}
