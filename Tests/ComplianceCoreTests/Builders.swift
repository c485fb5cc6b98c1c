import JSON
@testable import ComplianceCore

// Shared fixtures and builders that bring machines into a given state by feeding events,
// the way postgres-nio's tests build a connection in `readyForQuery`.

func account(_ upn: String, home: String? = nil) -> AccountID {
    try! AccountID(upn, homeAccountID: home.flatMap(HomeAccountID.init))
}

let alice = account("alice@contoso.com")
let bob = account("bob@contoso.com")
let carol = account("carol@fabrikam.com")
let t0 = Instant.seconds(1_700_000_000)

func tokenSet(_ accessToken: String = "eyJ0eXAi.access-secret", expiresOn: Instant = t0.advanced(by: .hours(1))) -> TokenSet {
    TokenSet(accessToken: SecretToken(accessToken), refreshToken: SecretToken("refresh-secret"), expiresOn: expiresOn, scopes: ["user.read"])
}

func serverError(_ error: String, suberror: String? = nil, codes: [Int64] = [], claims: String? = nil) -> ServerError {
    ServerError(status: 400, error: error, errorCodes: codes, suberror: suberror, claimsChallenge: claims)
}

func policy(_ version: String = "v1", allowed: [AccountID]? = nil) -> MAMPolicy {
    MAMPolicy(version: version, allowedAccounts: AllowedAccounts(allowed))
}

extension SelectiveWipeStateMachine {
    static func atStep(_ step: String, account: AccountID = alice, runAppHook: Bool = true) -> SelectiveWipeStateMachine {
        var machine = SelectiveWipeStateMachine(account: account)
        if step == "idle" { return machine }
        _ = machine.wipeRequested(reason: .deregistered, runAppHook: runAppHook)
        if step == "intentRecorded" { return machine }
        _ = machine.tokensRemoved()
        if step == "tokensRemoved" { return machine }
        if runAppHook {
            _ = machine.appHookFinished(removedData: false, outcome: "exited with status 1")
            if step == "appHookFinished" { return machine }
        }
        _ = machine.vaultRemoved()
        if step == "vaultRemoved" { return machine }
        _ = machine.enrollmentRemoved()
        precondition(step == "done")
        _ = machine.takeEvents()
        return machine
    }
}

/// The timer an enrollment machine waits for, comparable in `#expect`.
struct Due: Equatable {
    let timer: EnrollmentStateMachine.Timer
    let at: Instant

    init(_ timer: EnrollmentStateMachine.Timer, at: Instant) {
        self.timer = timer
        self.at = at
    }
}

extension EnrollmentStateMachine {
    /// ``dueTimer`` as a ``Due``.
    var due: Due? { dueTimer.map { Due($0.timer, at: $0.at) } }

    static func enrolling(_ account: AccountID = alice) -> EnrollmentStateMachine {
        var machine = EnrollmentStateMachine(account: account)
        _ = machine.register(now: t0)
        return machine
    }

    static func enrolled(_ account: AccountID = alice, at now: Instant = t0) -> EnrollmentStateMachine {
        var machine = enrolling(account)
        _ = machine.enrollmentSucceeded(.newPoliciesReceived, now: now)
        _ = machine.takeEvents()
        return machine
    }

    static func awaitingRetry(_ account: AccountID = alice, failedAt now: Instant = t0) -> EnrollmentStateMachine {
        var machine = enrolling(account)
        _ = machine.enrollmentFailed(.enrollmentEndPointNetworkFailure, now: now)
        _ = machine.takeEvents()
        return machine
    }

    static func checkingIn(_ account: AccountID = alice) -> EnrollmentStateMachine {
        var machine = enrolled(account)
        _ = machine.timerFired(.policyCheckIn, now: t0.advanced(by: .hours(8)))
        return machine
    }

    static func deregistering(wipe: Bool, _ account: AccountID = alice) -> EnrollmentStateMachine {
        var machine = enrolled(account)
        _ = machine.deregister(wipe: wipe)
        return machine
    }
}

extension RemediationStateMachine {
    /// Drives a remediation for `account` up to the named step.
    static func at(_ step: String, account: AccountID = alice, silent: Bool = true, firstPolicy: Bool = true) -> RemediationStateMachine {
        var machine = RemediationStateMachine()
        if !firstPolicy {  // one full remediation first, so the account already holds managed data
            machine = at("retryingTokenRequest", account: account, silent: silent)
            _ = machine.retriedTokenRequestCompleted(.success(tokenSet()))
            _ = machine.statusDelivered()
        }
        _ = machine.remediate(account, silent: silent)
        if step == "acquiringMAMToken" { return machine.drained() }
        _ = machine.mamTokenAcquired()
        if step == "enrolling" { return machine.drained() }
        _ = machine.enrollmentSucceeded()
        if step == "awaitingPolicy" { return machine.drained() }
        _ = machine.policyReceived(policy())
        if step == "applyingPolicy" { return machine.drained() }
        _ = machine.policyApplied()
        if step == "awaitingRestart" { return machine.drained() }
        if machine.stateName == "awaitingRestart" { _ = machine.appRestarted() }
        if step == "reportingCompliance" { return machine.drained() }
        _ = machine.complianceReported()
        precondition(step == "retryingTokenRequest")
        return machine.drained()
    }

    func drained() -> RemediationStateMachine {
        var copy = self
        _ = copy.takeEvents()
        return copy
    }
}
