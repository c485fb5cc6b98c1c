/// Driving the sub-machines: each call drains the sub-machine's notifications into the step
/// and marks the account touched; the step's one persist stores every touched sub-machine's
/// snapshot that changed (``takeChanges()``) before any of the step's commands run. The
/// sub-machines' actions become the composed machine's commands or wiring.
extension ComplianceMachine {
    // MARK: - Calls

    mutating func remediationStep(_ body: (inout RemediationStateMachine) -> RemediationStateMachine.Action) -> RemediationStateMachine.Action {
        let action = body(&remediation)
        for event in remediation.takeEvents() { note(event) }
        return action
    }

    mutating func allowedStep(_ body: (inout AllowedAccountsStateMachine) -> AllowedAccountsStateMachine.Action) -> AllowedAccountsStateMachine.Action {
        let action = body(&allowed)
        for event in allowed.takeEvents() { note(event) }
        return action
    }

    mutating func enrollmentStep(_ account: AccountID, _ body: (inout EnrollmentStateMachine) -> EnrollmentStateMachine.Action) -> EnrollmentStateMachine.Action {
        ensureAccount(account)
        volatile.touched.insert(account)
        let action = body(&accounts[account]!.enrollment)
        for event in accounts[account]!.enrollment.takeEvents() { note(event) }
        return action
    }

    mutating func wipeStep(_ account: AccountID, _ body: (inout SelectiveWipeStateMachine) -> SelectiveWipeStateMachine.Action) -> SelectiveWipeStateMachine.Action {
        ensureAccount(account)
        volatile.touched.insert(account)
        let action = body(&accounts[account]!.wipe)
        for event in accounts[account]!.wipe.takeEvents() { note(event) }
        return action
    }

    // MARK: - Remediation

    /// Runs the remediation machine's actions until it waits for I/O or for nothing.
    mutating func runRemediation(_ first: RemediationStateMachine.Action, now: Instant) {
        var action = first
        while true {
            switch action {
            case .none:
                return
            case .acquireMAMToken(let account, let silent):
                if let holder = slotHolder(besides: account) {
                    action = remediationStep { $0.managedElsewhere(by: holder) }
                    continue
                }
                let interaction = silent ? nil : volatile.remediationInteraction[account]
                startTokenRequest(
                    account, scopes: [RemediationStateMachine.mamScope], interaction: interaction, purpose: .remediationMAMToken(account), now: now)
                return
            case .enroll(let account):
                if let holder = slotHolder(besides: account) {
                    action = remediationStep { $0.managedElsewhere(by: holder) }
                    continue
                }
                startMAMCall(.remediationEnroll(account), now: now)
                return
            case .fetchPolicy(let account):
                guard let offered = accounts[account]?.offeredPolicy else {
                    startMAMCall(.remediationPolicy(account), now: now)  // a re-enroll (208) carries the policy again
                    return
                }
                action = remediationPolicyReceived(account, offered, now: now)
            case .applyPolicy(let account, let policy):
                applyPolicy(policy, to: account, viaRemediation: true, now: now)
                action = remediationStep { $0.policyApplied() }
            case .restartApp(let account):
                askRestart(account)
                return
            case .reportCompliance(let account):
                startMAMCall(.remediationReport(account), now: now)
                return
            case .retryTokenRequest(let account):
                let scopes = accounts[account]?.retryScopes ?? configuration.signInScopes
                let interaction = remediation.activeIsSilent == false ? volatile.remediationInteraction[account] : nil
                startTokenRequest(account, scopes: scopes, interaction: interaction, purpose: .remediationRetry(account), now: now)
                return
            case .startWipe(let account, let reason):
                // The report waits for the wipe: its end (``accountWiped(_:now:)``) tells the
                // remediation (`accountRemoved` delivers the report it holds).
                runEnrollment(account, enrollmentStep(account) { $0.wipeRequested(reason) }, now: now)
                return
            case .deliverStatus(let report, let tokens):
                deliver(report, tokens: tokens, now: now)
                action = remediationStep { $0.statusDelivered() }
            }
        }
    }

    /// A policy reached the remediation: the app learns its allowed accounts, then the
    /// remediation checks and applies it.
    mutating func remediationPolicyReceived(_ account: AccountID, _ policy: MAMPolicy, now: Instant) -> RemediationStateMachine.Action {
        accounts[account]?.offeredPolicy = nil
        markDirty(account)
        runAllowed(allowedStep { $0.allowedAccountsReceived(policy.allowedAccounts) }, now: now)
        return remediationStep { $0.policyReceived(policy) }
    }

    /// The remediation's one report: stored on the account and given to every caller waiting for it.
    mutating func deliver(_ report: ComplianceStatusReport, tokens: TokenSet?, now: Instant) {
        let account = report.account
        if accounts[account] != nil {
            accounts[account]?.compliance = report.status
            accounts[account]?.retryScopes = nil
            markDirty(account)
        }
        volatile.remediationInteraction[account] = nil
        let delivered = report.status == .compliant && mayReceiveToken(account) ? tokens : nil
        for waiter in volatile.remediationWaiters.removeValue(forKey: account) ?? [] {
            switch waiter {
            case .command(let ticket):
                reply(ticket, .remediation(report, tokens: delivered))
            case .token(let ticket, let mode, let scopes, let failure):
                let answer = TokenAnswer(
                    account: account, scopes: scopes, status: delivered == nil ? (report.status == .compliant ? .notCompliant : report.status) : .compliant,
                    tokens: delivered, failure: failure, report: report, remediated: true)
                if mode == .signIn, delivered != nil {
                    completeSignIn(ticket, answer, now: now)
                } else if mode == .signIn {
                    volatile.waiters.append(.signInFailed(ticket, answer))
                } else {
                    reply(ticket, .token(answer))
                }
            }
        }
    }

    // MARK: - Allowed accounts

    mutating func runAllowed(_ action: AllowedAccountsStateMachine.Action, now: Instant) {
        switch action {
        case .none, .allowSignIn, .refuseSignIn:
            return
        case .signOutAndWipe(let removed):
            for account in removed { removeAccount(account, reason: .notAllowed, now: now) }
        }
    }

    // MARK: - Enrollment

    /// Runs an account's enrollment machine's actions until it waits for I/O, a timer or nothing.
    mutating func runEnrollment(_ account: AccountID, _ first: EnrollmentStateMachine.Action, now: Instant) {
        var action = first
        while true {
            switch action {
            case .none:
                return  // timers are read off the machine (``nextDueTimer()``)
            case .enroll:
                startMAMCall(.registrationEnroll(account), now: now)
                return
            case .checkIn:
                startMAMCall(.checkIn(account), now: now)
                return
            case .applyPolicy(_, let policy):
                applyPolicy(policy, to: account, viaRemediation: false, now: now)
                action = enrollmentStep(account) { $0.policyApplied(now: now) }
            case .acquireMAMToken:
                startTokenRequest(account, scopes: [RemediationStateMachine.mamScope], interaction: nil, purpose: .unenrollToken(account), now: now)
                return
            case .unenroll:
                startMAMCall(.unenroll(account), now: now)
                return
            case .startWipe(_, let reason):
                startWipe(account, reason: reason, now: now)
                return
            }
        }
    }

    // MARK: - Wipe

    /// Starts (or joins) the account's wipe: it is signed out at once, its token requests end.
    mutating func startWipe(_ account: AccountID, reason: WipeReason, now: Instant) {
        ensureAccount(account)
        guard accounts[account]?.wipe.isRunning == false else {
            if volatile.wipeStep[account] == nil, volatile.stalledWipes[account] == nil {
                runWipe(account, wipeStep(account) { $0.resumed() }, now: now)
            }
            return
        }
        note(.signedOut(account, reason))
        accounts[account]?.signedIn = false
        markDirty(account)
        cancelTokenRequests(of: account, now: now)
        let hook = configuration.hasWipeHook
        runWipe(account, wipeStep(account) { $0.wipeRequested(reason: reason, runAppHook: hook) }, now: now)
    }

    /// Runs an account's wipe machine's actions until it waits for I/O or is done.
    mutating func runWipe(_ account: AccountID, _ first: SelectiveWipeStateMachine.Action, now: Instant) {
        var action = first
        while true {
            switch action {
            case .none:
                return
            case .removeTokens:
                startWipeIO(account, .removeTokens)
                return
            case .runAppHook where !configuration.hasWipeHook:
                // A wipe journaled under a daemon that had a hook, resumed by one without: no
                // app to ask, so the app removed nothing and the vault step follows.
                action = wipeStep(account) { $0.appHookFinished(removedData: false, outcome: Self.noWipeHookOutcome) }
            case .runAppHook:
                startWipeIO(account, .runAppHook)
                return
            case .removeVaultFiles:
                startWipeIO(account, .removeVaultFiles)
                return
            case .removeEnrollment:
                // The enrollment record is part of the account's record: gone with this step.
                accounts[account]?.enrollmentID = nil
                accounts[account]?.offeredPolicy = nil
                accounts[account]?.policy = nil
                markDirty(account)
                action = wipeStep(account) { $0.enrollmentRemoved() }
            case .finished:
                accountWiped(account, now: now)
                return
            }
        }
    }

    /// The hook outcome of a journaled wipe's hook step when no wipe hook is configured.
    public static let noWipeHookOutcome = "no hook configured"

    private mutating func startWipeIO(_ account: AccountID, _ step: WipeStep) {
        let id = newStep()
        volatile.outstanding[id] = .wipe(account, step)
        volatile.wipeStep[account] = id
        switch step {
        case .removeTokens: emit(.removeTokens(id, account))
        case .runAppHook: emit(.runAppHook(id, account))
        case .removeVaultFiles: emit(.removeVaultFiles(id, account))
        }
    }
}
