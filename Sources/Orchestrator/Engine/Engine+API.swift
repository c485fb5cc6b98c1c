import ComplianceCore
import JSON

/// What the control API asks of the engine: each command is one machine event; queries read
/// the machine (and the vault, the event log).
extension Engine {
    /// Validates a UPN from a request.
    func parseAccount(_ upn: String) throws(EngineError) -> AccountID {
        do {
            return try AccountID(upn)
        } catch {
            throw EngineError(.invalidAccount, "\(error)")
        }
    }

    /// A known account (one the machine has a record of), or the machine's refusal
    /// (``ComplianceMachine/unknownAccountRefusal(_:)``).
    func knownAccount(_ upn: String) throws(EngineError) -> AccountID {
        let account = try parseAccount(upn)
        if let refusal = machine.unknownAccountRefusal(account) { throw Self.error(refusal) }
        return account
    }

    /// The engine error for a machine's refusal.
    static func error(_ refusal: ComplianceMachine.Refusal) -> EngineError {
        switch refusal.code {
        case .signInRefused: EngineError(.signInRefused, refusal.message)
        case .conflict: EngineError(.conflict, refusal.message)
        case .unknownAccount: EngineError(.unknownAccount, refusal.message)
        case .storageUnavailable: EngineError(.storageUnavailable, refusal.message)
        case .policyRequired: EngineError(.policyRequired, refusal.message)
        case .identityNotAllowed: EngineError(.identityNotAllowed, refusal.message)
        case .identityMismatch: EngineError(.identityMismatch, refusal.message)
        case .restartPending: EngineError(.restartPending, refusal.message)
        case .accountRequired: EngineError(.accountRequired, refusal.message)
        case .badRequest: EngineError(.badRequest, refusal.message)
        }
    }

    /// The checks before a request reaches the machine (its account, how it asks); a request
    /// they refuse gives the person's interaction back unused.
    static func beforeAsking<T>(_ user: InteractiveUser?, _ checks: () throws(EngineError) -> T) throws(EngineError) -> T {
        do {
            return try checks()
        } catch {
            user?.session?.release()
            throw error
        }
    }

    /// Whether the request is asked interactively: the machine's answer
    /// (``ComplianceMachine/interaction(silent:credentials:)``) for what `user` brings.
    static func interaction(silent: Bool, user: InteractiveUser?) throws(EngineError) -> Bool {
        switch ComplianceMachine.interaction(silent: silent, credentials: user?.credentials ?? .none) {
        case .success(let interactive): interactive
        case .failure(let refusal): throw error(refusal)
        }
    }

    /// Signs `upn` in: the allowed-accounts check, a token for `scopes` (remediating on
    /// 53005), then registration with the MAM service (one managed account at a time).
    /// `upn` nil is `loginAndEnrollAccount(nil)`: the managed user (ComplianceMachine's
    /// `accountForSignInWithoutAccount()`).
    public func signIn(_ upn: String?, scopes: [String]?, silent: Bool, user: InteractiveUser?) async throws(EngineError) -> SignInOutcome {
        let (account, interactive) = try Self.beforeAsking(user) { () throws(EngineError) in
            let account: AccountID
            if let upn {
                account = try parseAccount(upn)
            } else {
                switch machine.accountForSignInWithoutAccount() {
                case .success(let managed): account = managed
                case .failure(let refusal): throw Self.error(refusal)
                }
            }
            return (account, try Self.interaction(silent: silent, user: user))
        }
        return try await ask("a sign-in", user: interactive ? user : nil) { machine, ticket in
            machine.signIn(account, scopes: scopes, interactive: interactive, ticket: ticket, now: clock.now)
        } narrow: {
            if case .signIn(let signedIn, let answer) = $0 { SignInOutcome(account: account, signedIn: signedIn, token: answer) } else { nil }
        }
    }

    /// A token for `scopes`; a 53005 answer starts (or joins) a remediation unless `remediate` is false.
    public func acquireToken(_ upn: String, scopes: [String], silent: Bool, remediate: Bool, user: InteractiveUser?) async throws(EngineError) -> TokenOutcome {
        let (account, interactive) = try Self.beforeAsking(user) { () throws(EngineError) in
            (try parseAccount(upn), try Self.interaction(silent: silent, user: user))
        }
        return try await ask("a token request", user: interactive ? user : nil) { machine, ticket in
            machine.acquireToken(account, scopes: scopes, interactive: interactive, remediate: remediate, ticket: ticket, now: clock.now)
        } narrow: {
            if case .token(let answer) = $0 { answer } else { nil }
        }
    }

    /// Remediates `upn` and returns its one report.
    public func remediate(_ upn: String, silent: Bool, user: InteractiveUser?) async throws(EngineError) -> RemediationOutcome {
        let (account, interactive) = try Self.beforeAsking(user) { () throws(EngineError) in
            (try parseAccount(upn), try Self.interaction(silent: silent, user: user))
        }
        return try await ask("a remediation", user: interactive ? user : nil) { machine, ticket in
            machine.remediate(account, interactive: interactive, ticket: ticket, now: clock.now)
        } narrow: {
            if case .remediation(let report, let tokens) = $0 { RemediationOutcome(report: report, tokens: tokens) } else { nil }
        }
    }

    /// The app reports it has restarted, paying the restart it owed (its restart hook answered
    /// YES): the remediation that waited for it goes on, and its report is the answer (nil
    /// when none waited). `conflict` when the app owes no restart.
    public func appReportedRestart() async throws(EngineError) -> ComplianceStatusReport? {
        let report: ComplianceStatusReport?? = try await ask("a restart report") { machine, ticket in
            machine.appReportedRestart(ticket: ticket, now: clock.now)
        } narrow: {
            switch $0 {
            case .remediation(let report, _): .some(report)
            case .settled: .some(nil)
            default: nil
            }
        }
        return report ?? nil
    }

    /// Deregisters `upn` (unenroll, then wipe when asked). `wiped` is true only when the wipe
    /// finished; a wipe the disk refused is `storage_unavailable` (it is journaled and runs again).
    public func deregister(_ upn: String, wipe: Bool) async throws(EngineError) -> DeregisterOutcome {
        let account = try parseAccount(upn)  // the machine refuses an account it does not know
        return try await ask("a deregistration") { machine, ticket in machine.deregister(account, wipe: wipe, ticket: ticket, now: clock.now) } narrow: {
            if case .deregistered(let status, let wiped) = $0 { DeregisterOutcome(account: account, enrollmentStatus: status, wiped: wiped) } else { nil }
        }
    }

    /// Every account the engine knows, by key.
    public func accounts() async throws(EngineError) -> [AccountSummary] {
        var summaries: [AccountSummary] = []
        for account in machine.knownAccounts { if let summary = await summary(account) { summaries.append(summary) } }
        return summaries
    }

    /// One account.
    public func account(_ upn: String) async throws(EngineError) -> AccountSummary {
        let account = try knownAccount(upn)
        guard let summary = await summary(account) else {
            throw Self.error(.unknown(account))
        }
        return summary
    }

    private func summary(_ account: AccountID) async -> AccountSummary? {
        guard let view = machine.view(of: account) else { return nil }
        let files = (try? await vault.list(account))?.count ?? 0
        return AccountSummary(
            account: view.account, homeAccountID: view.account.homeAccountID?.description, signedIn: view.signedIn, managed: view.managed,
            enrollmentState: view.enrollment, lastEnrollmentStatus: view.lastEnrollmentStatus,
            nextDueAt: view.nextDueAt?.millisecondsSinceEpoch, compliance: view.compliance, remediation: view.remediation, wipe: view.wipe,
            dataFiles: files)
    }

    /// The event log after `since` (waiting up to `timeout` for the first new one), and the last sequence number.
    public nonisolated func events(since: Int64, limit: Int, wait timeout: Duration) async throws(EngineError) -> (events: [StoredEvent], lastSeq: Int64) {
        do {
            let found = try await store.waitForEvents(since: since, limit: limit, timeout: timeout)
            return (found, try await store.lastEventSeq())
        } catch {
            throw EngineError(.internalError, "cannot read the event log: \(error)")
        }
    }

    /// The last event's sequence number.
    public nonisolated func lastEventSeq() async throws(EngineError) -> Int64 {
        do {
            return try await store.lastEventSeq()
        } catch {
            throw EngineError(.internalError, "cannot read the event log: \(error)")
        }
    }

    /// Ends the open event long polls (the daemon's shutdown).
    public nonisolated func endEventWaits() {
        store.endEventWaits()
    }

    /// The daemon is stopping: a clock advance under way ends after the timer it is firing
    /// (its answer's `now` says how far the clock got) and no later one starts.
    public nonisolated func endClockAdvances() {
        clockAdvancesEnded.withLock { $0 = true }
    }
}
