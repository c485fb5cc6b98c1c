/// The wiring between the machines (README.md, "Wiring"): who hears that an account signed
/// in, enrolled, got a policy, was refused, wiped or removed.
extension ComplianceMachine {
    // MARK: - Sign-in and remediation

    /// A sign-in's token came back (directly or after remediation): the account is signed in
    /// and registered with the MAM service; the caller hears once the registration settled.
    mutating func completeSignIn(_ ticket: Ticket, _ answer: TokenAnswer, now: Instant) {
        let account = answer.account
        ensureAccount(account)
        if accounts[account]?.signedIn == false {
            accounts[account]?.signedIn = true
            markDirty(account)
            note(.signedIn(account))
        }
        // A sign-in answered with a token is the app's compliance status too (Compliant), as a
        // remediation's report is: `accounts` shows what the sign-in printed.
        if answer.status == .compliant, answer.tokens != nil, accounts[account]?.compliance != .compliant {
            accounts[account]?.compliance = .compliant
            markDirty(account)
        }
        runAllowed(allowedStep { $0.signedIn(account) }, now: now)
        registerIfUnregistered(account, now: now)
        volatile.waiters.append(.signIn(ticket, answer))
    }

    /// Registers `account` with the MAM service and enrolls it (227 and a paused registration
    /// when another account holds the managed slot), unless it is registered already or
    /// leaving, or the app has no MAM service.
    mutating func registerIfUnregistered(_ account: AccountID, now: Instant) {
        guard configuration.mamService, let phase = accounts[account]?.enrollment.phase, phase == .unregistered || phase == .removed,
            !isLeaving(account)
        else { return }
        let holder = slotHolder(besides: account)
        runEnrollment(account, enrollmentStep(account) { $0.register(now: now, slotHeldElsewhere: holder != nil) }, now: now)
    }

    /// Starts (or joins, or queues) the account's remediation; `waiter` hears its report.
    mutating func startRemediation(
        _ account: AccountID, silent: Bool, retryScopes: [String]?, interaction: Ticket?, waiter: RemediationWaiter, now: Instant
    ) {
        ensureAccount(account)
        if let retryScopes, accounts[account]?.retryScopes != retryScopes {
            accounts[account]?.retryScopes = retryScopes
            markDirty(account)
        }
        if let interaction, !silent, volatile.remediationInteraction[account] == nil {
            volatile.remediationInteraction[account] = interaction
        }
        volatile.remediationWaiters[account, default: []].append(waiter)
        runRemediation(remediationStep { $0.remediate(account, silent: silent) }, now: now)
    }

    // MARK: - Policy

    /// A policy is in force for `account`: stored on it, its allowed accounts go to their
    /// machine, and a first policy (the account held none) restarts the app — the
    /// remediation asks for that restart itself, every other path here.
    mutating func applyPolicy(_ policy: MAMPolicy, to account: AccountID, viaRemediation: Bool, now: Instant) {
        ensureAccount(account)
        let first = accounts[account]?.policy == nil
        let configBefore = AppConfig(policyDocument: accounts[account]?.policy?.document)
        accounts[account]?.policy = policy
        markDirty(account)
        note(.policyApplied(account, version: policy.version))
        reprotectionDue()
        if AppConfig(policyDocument: policy.document) != configBefore { note(.appConfigChanged(account)) }
        runAllowed(allowedStep { $0.allowedAccountsReceived(policy.allowedAccounts) }, now: now)
        if first, !viaRemediation, restartPending == nil {
            restartPending = account
            markAppDirty()
            note(.restartRequired(account))
            askRestart(account)
        }
    }

    // MARK: - Removal

    /// `account` must leave the app (the allowed list excludes it): an account that holds
    /// the managed slot is unenrolled at the service first (104), then wiped; any other is
    /// wiped. Already leaving: nothing more. Never seen: the allowed machine is told at once.
    mutating func removeAccount(_ account: AccountID, reason: WipeReason, now: Instant) {
        guard let state = accounts[account] else {
            runAllowed(allowedStep { $0.accountRemoved(account) }, now: now)
            return
        }
        if isLeaving(account) { return }
        if state.enrollment.holdsManagedSlot {
            runEnrollment(account, enrollmentStep(account) { $0.deregister(wipe: reason) }, now: now)
        } else {
            runEnrollment(account, enrollmentStep(account) { $0.wipeRequested(reason) }, now: now)
        }
    }

    /// The account's wipe is committed done: every machine hears it in this same step, so a
    /// restart never finds a wipe done and a machine still waiting for it.
    mutating func accountWiped(_ account: AccountID, now: Instant) {
        if accounts[account]?.enrollment.phase == .wiping {
            runEnrollment(account, enrollmentStep(account) { $0.wipeCompleted() }, now: now)
        }
        runRemediation(remediationStep { $0.accountRemoved(account) }, now: now)
        if allowed.signedInAccounts.contains(account) || allowed.isBeingRemoved(account) {
            let action = allowedStep { $0.accountRemoved(account) }
            if action == .none {
                runAllowed(allowedStep { $0.signedOut(account) }, now: now)
            } else {
                runAllowed(action, now: now)
            }
        }
        accounts[account]?.signedIn = false
        accounts[account]?.holdsTokens = false
        accounts[account]?.subject = nil
        accounts[account]?.compliance = nil
        accounts[account]?.retryScopes = nil
        accounts[account]?.enrollmentID = nil
        accounts[account]?.offeredPolicy = nil
        accounts[account]?.policy = nil
        markDirty(account)
    }

    // MARK: - Reconcile

    /// The rules that follow from any change, applied until nothing more changes:
    /// - an account the allowed list excludes leaves (unenrolled first when it holds the slot);
    /// - an account unenrolled without a wipe keeps no enrollment, policy or compliance;
    /// - paused registrations pause while another account holds the slot, and begin again
    ///   (24 h later) once none does.
    /// The allowed list outlives the policy that brought it ("IT admins specify which accounts
    /// can be logged into"): it stays, persisted, when its managed account leaves or is
    /// refused, until a policy replaces it (invariant 19).
    mutating func reconcile(now: Instant) {
        for _ in 0..<8 {
            var changed = false
            // The per-account rules are looked for among the accounts this step changed, unless
            // what they also depend on (the allowed list, the slot's holder) changed since the
            // last reconcile: every other account was settled then, and nothing of it changed.
            // (A step of one account must not visit all of them: with 10,000 accounts a
            // check-in sweep was quadratic.) Debug builds, the tests and the explorer check
            // that the accounts found are exactly those a visit of all would find.
            let list = allowed.allowed
            let leaving = candidates(everything: volatile.reconcileEverything || list != volatile.reconciledList) { key, state in
                firesLeavingRule(key, state, list)
            }
            for account in leaving {
                guard let state = accounts[account] else { continue }
                if !allowed.allowed.allows(account), !isLeaving(account), isPresent(state) {
                    removeAccount(account, reason: .notAllowed, now: now)
                    changed = true
                }
                if state.enrollment.phase == .removed, !state.wipe.isRunning,
                   state.enrollmentID != nil || state.policy != nil || state.compliance != nil || state.offeredPolicy != nil {
                    accounts[account]?.enrollmentID = nil
                    accounts[account]?.offeredPolicy = nil
                    accounts[account]?.policy = nil
                    accounts[account]?.compliance = nil
                    markDirty(account)
                    runRemediation(remediationStep { $0.accountRemoved(account) }, now: now)
                    changed = true
                }
            }
            let holder = slotHolder()
            let waiting = candidates(everything: volatile.reconcileEverything || holder != volatile.reconciledHolder) { key, state in
                Self.firesSlotRule(key, state.enrollment.phase, holder)
            }
            for account in waiting {
                guard let phase = accounts[account]?.enrollment.phase else { continue }
                if holder == nil, phase == .waitingForSlot {
                    runEnrollment(account, enrollmentStep(account) { $0.slotFreed(now: now) }, now: now)
                    changed = true
                } else if let holder, holder != account, phase == .awaitingRetry {
                    runEnrollment(account, enrollmentStep(account) { $0.slotTaken() }, now: now)
                    changed = true
                }
            }
            if !changed {
                volatile.reconcileEverything = false
                volatile.reconciledList = allowed.allowed
                volatile.reconciledHolder = slotHolder()
                return
            }
        }
        volatile.reconcileEverything = true  // not settled in 8 rounds: look at everyone next time
    }

    /// The accounts, in key order, for which `fires` holds: among all of them when
    /// `everything`, else among those the current step touched or marked (checked against all
    /// of them in debug builds).
    private func candidates(everything: Bool, _ fires: (AccountID, AccountState) -> Bool) -> [AccountID] {
        func among(_ keys: some Sequence<AccountID>) -> [AccountID] {
            keys.filter { key in accounts[key].map { fires(key, $0) } ?? false }.sorted()
        }
        if everything { return among(accounts.keys) }
        let found = among(volatile.touched.union(volatile.dirtyAccounts))
        assert(found == among(accounts.keys), "reconcile missed an account a rule applies to: \(Set(among(accounts.keys)).subtracting(found))")
        return found
    }

    /// The first rules: the allowed list excludes a present account that is not leaving yet, or
    /// an account unenrolled without a wipe keeps an enrollment, policy or compliance.
    private func firesLeavingRule(_ account: AccountID, _ state: AccountState, _ list: AllowedAccounts) -> Bool {
        (!list.allows(account) && !isLeaving(account) && isPresent(state))
            || (state.enrollment.phase == .removed && !state.wipe.isRunning
                && (state.enrollmentID != nil || state.policy != nil || state.compliance != nil || state.offeredPolicy != nil))
    }

    /// The slot rule: a registration waiting for the slot when none holds it, or one awaiting
    /// its retry while another holds it.
    private static func firesSlotRule(_ account: AccountID, _ phase: EnrollmentStateMachine.Phase, _ holder: AccountID?) -> Bool {
        if holder == nil { return phase == .waitingForSlot }
        return holder != account && phase == .awaitingRetry
    }

    /// True when the account holds anything in the app: signed in, tokens, a registration,
    /// a policy.
    func isPresent(_ state: AccountState) -> Bool {
        state.signedIn || state.holdsTokens || state.policy != nil
            || (state.enrollment.phase != .unregistered && state.enrollment.phase != .removed)
    }

    // MARK: - Waiters

    /// True when nothing is under way for the account: its enrollment waits, no wipe runs,
    /// no restart is pending for it, no remediation of it runs (a restart the app owes, and
    /// the remediation waiting for it, wait for the app: nothing is under way here).
    func isSettled(_ account: AccountID) -> Bool {
        guard let state = accounts[account] else { return true }
        return state.enrollment.isSettled && !state.wipe.isRunning && restartAwaitedBySDK != account && runningRemediationAccount != account
    }

    /// True when nothing is under way for any account (a fired timer's work may reach other
    /// accounts: a check-in's policy removes them from the allowed list).
    /// (With no remediation running and no restart pending, an account is settled when its
    /// enrollment waits and no wipe runs: ``AccountIndexes/unsettled``.)
    var isAllSettled: Bool {
        volatile.indexes.unsettled.isEmpty && runningRemediationAccount == nil && restartAwaitedBySDK == nil
    }

    /// Answers every caller whose account settled (or whose wipe the disk refused). A fired
    /// timer's caller waits for every account to settle.
    mutating func resolveWaiters(now: Instant) {
        for (account, why) in volatile.stalledWipes {
            // A failed remediation's report waits for its wipe; the disk stopped it.
            for waiter in volatile.remediationWaiters.removeValue(forKey: account) ?? [] {
                reply(waiter.ticket, .refused(Refusal(.storageUnavailable, account, Self.stalledMessage(account, why))))
            }
        }
        var remaining: [Waiter] = []
        for waiter in volatile.waiters {
            let account = waiter.account
            if let why = volatile.stalledWipes[account] {
                reply(waiter.ticket, .refused(Refusal(.storageUnavailable, account, Self.stalledMessage(account, why))))
                continue
            }
            if case .timer = waiter, let (stalled, why) = volatile.stalledWipes.first {
                reply(waiter.ticket, .refused(Refusal(.storageUnavailable, stalled, Self.stalledMessage(stalled, why))))
                continue
            }
            let settled: Bool = if case .timer = waiter { isAllSettled } else { isSettled(account) }
            guard settled else {
                remaining.append(waiter)
                continue
            }
            switch waiter {
            case .signIn(let ticket, var answer):
                let excluded = !allowed.allowed.allows(account) || accounts[account]?.wipe.wipe?.reason == .notAllowed
                if accounts[account]?.signedIn == true, mayReceiveToken(account) {
                    reply(ticket, .signIn(signedIn: true, answer))
                } else if excluded {
                    reply(ticket, .refused(Refusal(
                        .signInRefused, account,
                        "\(account.upn) is not allowed in this app by your organization's policy (the policy that arrived with this sign-in); it was signed out and its data removed.")))
                } else {
                    answer.tokens = nil
                    answer.status = .notCompliant
                    reply(ticket, .signIn(signedIn: false, answer))
                }
            case .signInFailed(let ticket, let answer):
                reply(ticket, .signIn(signedIn: false, answer))
            case .deregister(let ticket, _, let wipe):
                let wiped = wipe && accounts[account]?.wipe.isFinished == true
                reply(ticket, .deregistered(enrollmentStatus: accounts[account]?.lastEnrollmentStatus, wiped: wiped))
            case .timer(let ticket, _):
                reply(ticket, .settled)
            }
        }
        volatile.waiters = remaining
    }

    static func stalledMessage(_ account: AccountID, _ why: String) -> String {
        "the wipe of \(account.upn) could not finish (\(why)); it is journaled and runs again on the next start or deregistration"
    }
}
