/// What the app asks: sign in, a token, a remediation, a deregistration; and what the
/// Orchestrator reports: a timer fired, the app restarted, the process started again.
/// Each call is one step (``ComplianceMachine``); its ticket gets exactly one reply.
extension ComplianceMachine {
    /// Signs `account` in: the allowed-accounts check, a token for `scopes` (remediating on
    /// 53005), then registration with the MAM service (227 and a paused registration when
    /// another account is managed). `interactive`: the caller carries credentials (its user
    /// answers the issuer's sign-in page): the request goes to the issuer at once, never to the
    /// cache, so a wrong password fails whatever is cached; without it the cache may answer.
    /// Replies `.signIn` once the registration settled, `.refused` when the allowed accounts
    /// refuse the account (also when the policy its own sign-in brings excludes it).
    public mutating func signIn(_ account: AccountID, scopes: [String]?, interactive: Bool, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if let refusal = restartOwedRefusal(account) {
            reply(ticket, .refused(refusal))
            return
        }
        if isLeaving(account) {
            reply(ticket, .refused(Refusal(.conflict, account, "\(account.upn) is being signed out and its data wiped; sign in again when that finished")))
            return
        }
        if case .refuseSignIn(let refusal) = allowedStep({ $0.signInRequested(account) }) {
            note(.signInRefused(refusal))
            reply(ticket, .refused(Refusal(.signInRefused, account, refusal.message)))
            return
        }
        startTokenRequest(
            account, scopes: signInScopes(scopes), interaction: interactive ? ticket : nil, prompt: interactive,
            purpose: .caller(ticket, .signIn, remediate: true), now: now)
    }

    /// A token for `scopes`; a 53005 answer starts (or joins) the account's remediation unless
    /// `remediate` is false. `interactive`: the caller carries credentials, so the issuer's
    /// sign-in is asked at once (MSAL's `acquireTokenInteractive`); otherwise the request is
    /// silent and may be answered from the cache. Replies `.token`.
    public mutating func acquireToken(_ account: AccountID, scopes: [String], interactive: Bool, remediate: Bool, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if let refusal = Self.tokenScopesRefusal(scopes, account: account) ?? restartOwedRefusal(account) ?? policyRequiredRefusal(account) {
            reply(ticket, .refused(refusal))
            return
        }
        startTokenRequest(
            account, scopes: scopes, interaction: interactive ? ticket : nil, prompt: interactive, purpose: .caller(ticket, .token, remediate: remediate),
            now: now)
    }

    /// Remediates `account` (remediateComplianceForIdentity:silent:). Replies `.remediation`
    /// with the one report.
    public mutating func remediate(_ account: AccountID, interactive: Bool, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        guard configuration.mamService else {
            let report = ComplianceStatusReport(
                account: account, status: .notCompliant, detail: "No MAM service is configured for this app, so nothing can be remediated.")
            reply(ticket, .remediation(report, tokens: nil))
            return
        }
        if let refusal = restartOwedRefusal(account) {
            reply(ticket, .refused(refusal))
            return
        }
        startRemediation(account, silent: !interactive, retryScopes: nil, interaction: interactive ? ticket : nil, waiter: .command(ticket), now: now)
    }

    /// Deregisters `account` (deRegisterAndUnenrollAccount:withWipe:): unenroll at the service
    /// when enrolled (its MAM token first), then wipe when asked; an account already removed is
    /// wiped when asked. A wipe the disk stopped runs again. Replies `.deregistered` once done.
    public mutating func deregister(_ account: AccountID, wipe: Bool, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if let refusal = unknownAccountRefusal(account) {
            reply(ticket, .refused(refusal))
            return
        }
        if volatile.stalledWipes.removeValue(forKey: account) != nil, volatile.wipeStep[account] == nil {
            runWipe(account, wipeStep(account) { $0.resumed() }, now: now)
        }
        volatile.waiters.append(.deregister(ticket, account, wipe: wipe))
        runEnrollment(account, enrollmentStep(account) { $0.deregister(wipe: wipe) }, now: now)
        if !wipe {
            runRemediation(remediationStep { $0.accountRemoved(account) }, now: now)
        }
    }

    /// A timer the account waits for (``nextDueTimer()``) fired. Replies `.settled` once its
    /// work (a check-in, a retried enrollment, a wipe it brings) settled. A retry while another
    /// account holds the managed slot pauses instead.
    public mutating func timerFired(_ account: AccountID, _ timer: EnrollmentStateMachine.Timer, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        let due = accounts[account]?.enrollment.dueTimer
        note(.timerFired(account, timer, dueAt: due?.timer == timer ? due?.at ?? now : now))
        guard accounts[account] != nil else {
            reply(ticket, .settled)
            return
        }
        if timer == .enrollmentRetry, slotHolder(besides: account) != nil {
            runEnrollment(account, enrollmentStep(account) { $0.slotTaken() }, now: now)
        } else {
            runEnrollment(account, enrollmentStep(account) { $0.timerFired(timer, now: now) }, now: now)
        }
        volatile.waiters.append(.timer(ticket, account))
    }

    /// The app restarted after ``Action/restartApp(_:)`` (its first policy): the SDK restarted
    /// it (no restart hook, or its `restartApplication` answered NO).
    public mutating func appRestarted(now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        restartHappened(now: now)
    }

    /// The start-up work (``resumed(now:)`` and its I/O) is done: `daemonStarted`; a launch without policy notes
    /// `policyAbsent` when `MAMPolicyRequired` or `MAMPolicyWarnAbsent` is set (LaunchSettings).
    /// - Parameters:
    ///   - resumed: how many pieces of interrupted work the start finished first.
    ///   - clock: the clock the daemon runs on (`virtual` or `real`), for `daemonStarted`.
    public mutating func launchFinished(resumed: Int, clock: String, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        volatile.launching = false
        note(.daemonStarted(resumed: resumed, clock: clock))
        let launch = configuration.launch
        if launch.policyRequired || launch.warnAbsent, appPolicy == nil {
            note(.policyAbsent(required: launch.policyRequired))
        }
    }

    /// After ``init(restoring:configuration:)``: finishes journaled wipes, resumes interrupted
    /// enrollment, deregistration, allowed-account removal and remediation steps; a restart
    /// that was pending has happened (the process started again), unless the app owes it
    /// (its `restartApplication` answered YES: it still waits for the app's report). Nothing
    /// stored `done` runs again.
    public mutating func resumed(now: Instant) {
        resumed(now: now, launch: true)
    }

    /// True from a launch's ``resumed(now:)`` until its ``launchFinished(resumed:clock:now:)``.
    public var isLaunching: Bool { volatile.launching }

    /// ``resumed(now:)``; `launch` false for a machine rebuilt after a failed commit once the
    /// launch finished (its process did not start again: no ``launchFinished(resumed:clock:now:)``
    /// follows), true for one rebuilt during the launch.
    public mutating func resumed(now: Instant, launch: Bool) {
        beginStep()
        defer { endStep(now: now) }
        volatile.launching = launch
        for account in accounts.keys.sorted() where accounts[account]?.wipe.isRunning == true {
            runWipe(account, wipeStep(account) { $0.resumed() }, now: now)
        }
        for account in accounts.keys.sorted() {
            runEnrollment(account, enrollmentStep(account) { $0.resumed() }, now: now)
        }
        runAllowed(allowedStep { $0.resumed() }, now: now)
        if restartOwedByApp == nil, let account = restartPending {
            restartPending = nil
            markAppDirty()
            note(.appRestarted(account))
        }
        if !remediationWaitsForApp {  // a restart the app owes is not this process's start
            // A remediation that waited for the app's restart (its hook died with the process,
            // unanswered): this start is the restart, and it is recorded as one.
            if remediation.activeStep == .awaitingRestart, let account = remediation.activeAccount { note(.appRestarted(account)) }
            runRemediation(remediationStep { $0.resumed() }, now: now)
        }
        // This start is the restart asked for, unless it is the one the app owes (it reports that
        // one itself); an earlier account's restart asked beside the owed one has happened.
        if restartAsked != restartOwedByApp { restartAskedEnded() }
        if configuration.launch.autoEnrollOnLaunch { autoEnrollOnLaunch(now: now) }
        reprotectionDue()  // a re-protection a crash interrupted is finished
    }

    /// `AutoEnrollOnLaunch`: every signed-in account holding tokens that is not enrolled (nor
    /// enrolling, nor leaving, and allowed) registers and enrolls, silently, as a sign-in does.
    mutating func autoEnrollOnLaunch(now: Instant) {
        for account in accounts.keys.sorted() {
            guard let state = accounts[account], state.signedIn, state.holdsTokens, allowed.allowed.allows(account) else { continue }
            registerIfUnregistered(account, now: now)
        }
    }

    /// `MAMPolicyRequired` and no policy in force: the refusal of a token or of any data task
    /// (stored, protected or read, whoever owns the data or none): the app "will be blocked
    /// from starting if the app doesn't have an Intune app protection policy".
    public func policyRequiredRefusal(_ account: AccountID?) -> Refusal? {
        guard configuration.launch.policyRequired, appPolicy == nil else { return nil }
        return Refusal(
            .policyRequired, account,
            "this app requires an app protection policy (MAMPolicyRequired) and none is in force yet: sign in with, or remediate, an account your organization manages first")
    }

    /// The virtual clock moved from `from` to `to` (after the timers due on the way fired).
    /// Replies `.settled` once the move is committed: a caller told the clock moved has its
    /// `clockAdvanced` in the log, and a refused commit answers `storage_unavailable` instead.
    public mutating func clockAdvanced(from: Instant, to: Instant, ticket: Ticket) {
        beginStep()
        defer { endStep(now: to) }
        note(.clockAdvanced(from: from, to: to))
        reply(ticket, .settled)
    }
}
