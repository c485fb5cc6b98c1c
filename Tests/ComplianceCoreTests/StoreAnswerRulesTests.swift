import JSON
import Testing
@testable import ComplianceCore

/// Rules the Engine used to decide itself and now asks of the machine (issue 37): what an
/// unreadable token cache means, which refresh token a grant presents, who is unknown, and
/// when stored records may not start beside a vault. Event in, actions out.
@Suite struct StoreAnswerRulesTests {
    static let alice = try! AccountID("alice@contoso.com")
    static let now = Instant(millisecondsSinceEpoch: 1_800_000_000_000)

    /// A silent request whose cache read the store cannot answer fails unsent, as
    /// ServiceFailure (tokenCacheUnreadable), not InteractionRequired as an empty cache: no
    /// grant, one reply.
    @Test func anUnreadableCacheFailsTheRequestUnsent() throws {
        var machine = ComplianceMachine(configuration: .init(mamService: false))
        machine.acquireToken(Self.alice, scopes: ["user.read"], interactive: false, remediate: false, ticket: .init(1), now: Self.now)
        let read = try #require(RetryAfterHoldTests.step(RetryAfterHoldTests.take(&machine), RetryAfterHoldTests.cacheRead))
        machine.completed(read, .failed("disk I/O error"), now: Self.now)
        let actions = RetryAfterHoldTests.take(&machine)
        #expect(RetryAfterHoldTests.step(actions, RetryAfterHoldTests.grant) == nil, "\(actions)")
        let answer = try #require(RetryAfterHoldTests.reply(actions))
        #expect(answer.tokens == nil && answer.status == .serviceFailure)
        #expect(answer.failure == .tokenCacheUnreadable("disk I/O error"))
    }

    /// The grant presents the refresh token the cache read found (the Engine reads nothing
    /// more), and only for the request's issuer.
    @Test func aRefreshGrantCarriesTheTokenTheReadFound() throws {
        var machine = ComplianceMachine(configuration: .init(mamService: false))
        let actions = try RetryAfterHoldTests.request(&machine, ticket: 1, at: Self.now)
        let grant = try #require(actions.lazy.compactMap { action -> TokenAcquisitionStateMachine.Grant? in
            if case .requestToken(_, let grant, _, _, _, _, _) = action { grant } else { nil }
        }.first)
        #expect(grant == .refreshToken(SecretToken("rt-1")))
        #expect(!"\(actions)".contains("rt-1"), "a trace never shows the token")
    }

    @Test func anAccountTheMachineHasNoRecordOfIsRefusedByTheMachine() {
        var machine = ComplianceMachine(configuration: .init())
        #expect(machine.unknownAccountRefusal(Self.alice) == .unknown(Self.alice))
        #expect(machine.dataRefusal(Self.alice)?.code == .unknownAccount)
        machine.deregister(Self.alice, wipe: true, ticket: .init(7), now: Self.now)
        let replies = RetryAfterHoldTests.take(&machine).compactMap { action -> ComplianceMachine.Reply? in
            if case .reply(_, let reply) = action { reply } else { nil }
        }
        #expect(replies == [.refused(.unknown(Self.alice))])
    }

    @Test func emptyRecordsBesideAVaultWithFilesMayNotStart() {
        let empty = ComplianceMachine.Stored(app: nil, accounts: [])
        #expect(empty.startRefusal(vaultAccounts: 0) == nil, "a first start")
        #expect(empty.startRefusal(vaultAccounts: 2)?.contains("the vault holds the files of 2 account(s)") == true)
        let withApp = ComplianceMachine.Stored(app: .object([:]), accounts: [])
        #expect(withApp.startRefusal(vaultAccounts: 2) == nil, "records exist: the vault's files have their owners' records or are resumed")
    }

    /// The earlier layout's conversion: a registered policy stays only with the account whose
    /// enrollment holds the managed slot; the records restore a machine that says so.
    @Test func anEarlierLayoutKeepsThePolicyOnlyForTheSlotHolder() throws {
        let policy = try JSONValue.parse(#"{"version":"1","pinRequired":true}"#)
        func earlier(_ account: AccountID, enrollment: EnrollmentStateMachine) -> ComplianceMachine.EarlierAccount {
            .init(
                account: account, homeAccountID: nil, signedIn: true, holdsTokens: true, compliance: nil, accountLastStatus: nil,
                enrollmentRowLastStatus: 100, retryScopes: nil, enrollmentID: "enrollment-\(account.upn)", registeredPolicy: policy,
                enrollment: enrollment.snapshot.json, journals: [.init(kind: "remediation", state: ["step": "acquireMAMToken"])])
        }
        let layout = ComplianceMachine.EarlierLayout(
            remediation: nil, allowedAccounts: nil,
            accounts: [earlier(Self.alice, enrollment: .enrolled(Self.alice)), earlier(bob, enrollment: .awaitingRetry(bob))])
        let stored = try #require(ComplianceMachine.records(converting: layout))
        #expect(stored.accounts.map { $0["policy"] != JSONValue.null } == [true, false])
        #expect(stored.accounts.map { $0["lastEnrollmentStatus"] } == [.int(100), .int(100)], "the enrollment row's status when the column has none")
        let machine = try ComplianceMachine(restoring: stored, configuration: .init())
        #expect(machine.managedAccount == Self.alice)
        #expect(machine.appPolicy?.version == "1")
        #expect(ComplianceMachine.records(converting: .init(remediation: nil, allowedAccounts: nil, accounts: [])) == nil, "nothing to convert")
    }

    /// A silent request carrying a person's credentials is refused (a wrong password would pass
    /// while the cache answered); the person who cancels carries none; nobody is silent.
    @Test func howACallersRequestIsAsked() {
        #expect(throws: ComplianceMachine.Refusal.self) { try ComplianceMachine.interaction(silent: true, credentials: .person).get() }
        #expect((try? ComplianceMachine.interaction(silent: true, credentials: .cancels).get()) == false)
        #expect((try? ComplianceMachine.interaction(silent: true, credentials: .none).get()) == false)
        #expect((try? ComplianceMachine.interaction(silent: false, credentials: .none).get()) == false)
        #expect((try? ComplianceMachine.interaction(silent: false, credentials: .cancels).get()) == true)
        #expect((try? ComplianceMachine.interaction(silent: false, credentials: .person).get()) == true)
        if case .failure(let refusal) = ComplianceMachine.interaction(silent: true, credentials: .person) { #expect(refusal.code == .badRequest) }
    }

    /// A token request naming no scope is refused by the machine; a sign-in naming none asks
    /// for the app's sign-in scopes.
    @Test func scopesATokenRequestAndASignInAskFor() {
        var machine = ComplianceMachine(configuration: .init(signInScopes: ["openid", "profile"], mamService: false))
        machine.acquireToken(Self.alice, scopes: [], interactive: false, remediate: false, ticket: .init(3), now: Self.now)
        let replies = RetryAfterHoldTests.take(&machine).compactMap { action -> ComplianceMachine.Reply? in
            if case .reply(_, let reply) = action { reply } else { nil }
        }
        let codes = replies.map { reply -> ComplianceMachine.Refusal.Code? in if case .refused(let refusal) = reply { refusal.code } else { nil } }
        #expect(codes == [.badRequest])
        #expect(machine.signInScopes([]) == ["openid", "profile"] && machine.signInScopes(nil) == ["openid", "profile"])
        #expect(machine.signInScopes(["user.read"]) == ["user.read"])
    }

    /// Data no protect made comes back unchanged even while MAMPolicyRequired blocks the app;
    /// protected data of no user does not.
    @Test func unprotectWhileTheAppIsBlocked() {
        let machine = ComplianceMachine(configuration: .init(launch: LaunchSettings(autoEnrollOnLaunch: true, policyRequired: true)))
        #expect(machine.unprotectRefusal(isProtected: false, owner: nil) == nil)
        #expect(machine.unprotectRefusal(isProtected: true, owner: nil)?.code == .policyRequired)
        #expect(machine.unprotectRefusal(isProtected: true, owner: Self.alice)?.code == .policyRequired)
        #expect(ComplianceMachine(configuration: .init()).unprotectRefusal(isProtected: true, owner: nil) == nil)
    }
}
