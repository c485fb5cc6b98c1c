import JSON

/// The whole compliance behaviour of one app, as one pure machine: the remediation and
/// allowed-accounts machines of the app, and per account its token requests, enrollment
/// lifecycle and selective wipe, wired together here (README.md, "Wiring") instead of in the
/// Orchestrator. Shaped like postgres-nio's `ConnectionStateMachine`, which holds its
/// sub-machines in its state and returns one action at a time.
///
/// Driving it: call an event method (a command of the app, ``completed(_:_:now:)`` with an
/// I/O step's result, ``appRestarted(now:)``, ``resumed(now:)``), then take actions with
/// ``nextAction()`` until `.none`. Each event is one *step*: everything it changes is in the
/// one `.persist` that comes first (call ``persisted()`` once it is committed), and the
/// step's I/O commands and replies come only after it. Results come back tagged with their
/// ``StepID``; a result for a step the machine no longer waits for changes nothing (a late
/// MAM answer is still reported, once).
///
/// The rules it owns: one managed account at a time (an enroll in flight, an enrolled
/// account or one still unenrolling holds the slot; refusal, wipe, unenrollment or removal
/// frees it, and paused registrations retry again); no token for an account the current
/// allowed list excludes or that is being wiped; every first policy restarts the app; a
/// wipe committed done is never run again; a reply only after its effects are committed.
/// ``ComplianceInvariants`` states them as checks; `compliance-explore` runs them on every
/// reachable state of a small universe.
public struct ComplianceMachine: Sendable, Hashable, Codable {
    /// Fixed for the machine's life (settable only inside the module and its tests).
    public internal(set) var configuration: Configuration

    var remediation = RemediationStateMachine()
    /// The remediation snapshot last stored (what a restart resumes from).
    var remediationSnapshot: RemediationStateMachine.Snapshot
    var allowed = AllowedAccountsStateMachine()
    /// The allowed-accounts snapshot last stored.
    var allowedSnapshot: AllowedAccountsStateMachine.Snapshot
    /// The account whose first policy (outside a remediation) waits for the app's restart.
    var restartPending: AccountID?
    /// The account whose first policy the app restarts for itself (its `restartApplication`
    /// answered YES), until the app reports the restart (ComplianceMachine+Restart.swift).
    var restartOwedByApp: AccountID?
    /// The account whose restart ``Action/restartApp(_:)`` asked for and that has not happened
    /// (stored): what a late hook answer, or the next start of the process, ends with
    /// `appRestarted`, also when what waited for the restart left meanwhile.
    var restartAsked: AccountID?
    var accounts: [AccountID: AccountState] = [:]
    /// The runtime overrides of the Entra settings (stored in the app record until an unenrollment).
    public internal(set) var settingsOverrides = SettingsOverrides()
    /// The app's process and UI identities (in memory, like the SDK's: a restart unsets them).
    public internal(set) var identities = AppIdentities()
    /// What lives only in memory: requests in flight, waiting callers, the step's outbox.
    var volatile = Volatile()

    /// A machine with no accounts.
    public init(configuration: Configuration) {
        self.configuration = configuration
        remediationSnapshot = remediation.snapshot
        allowedSnapshot = allowed.snapshot
    }

    // MARK: - Taking actions

    /// The next command, `.none` when there is nothing to do until the next event. After a
    /// `.persist`, call ``persisted()`` before taking more.
    public mutating func nextAction() -> Action {
        guard !volatile.ready.isEmpty else { return .none }
        return volatile.ready.removeFirst()
    }

    /// The changes of the last `.persist` are committed: the step's commands follow.
    public mutating func persisted() {
        guard volatile.awaitingPersist else { preconditionFailure("persisted() without a pending persist. Invalid state: \(debugSummary)") }
        volatile.awaitingPersist = false
        volatile.ready += volatile.held
        volatile.held = []
    }

    /// True while a `.persist` awaits ``persisted()``.
    public var isAwaitingPersist: Bool { volatile.awaitingPersist }

    /// Callers waiting for a reply (their tickets).
    public var waitingTickets: Set<Ticket> {
        var tickets = Set(volatile.waiters.map(\.ticket))
        for waiters in volatile.remediationWaiters.values { tickets.formUnion(waiters.map(\.ticket)) }
        for request in volatile.tokenRequests.values {
            if case .caller(let ticket, _, _) = request.purpose { tickets.insert(ticket) }
        }
        return tickets
    }

    /// True when no I/O is in flight and nothing waits to be taken.
    public var isQuiescent: Bool {
        volatile.outstanding.isEmpty && volatile.ready.isEmpty && volatile.held.isEmpty && !volatile.awaitingPersist
    }

    /// The I/O steps in flight, with what they do (for the explorer and for diagnostics).
    public var outstandingSteps: [StepID] { volatile.outstanding.keys.sorted() }

    // MARK: - Step protocol

    /// Every event begins here: no event may come while a persist is pending.
    mutating func beginStep() {
        if volatile.awaitingPersist { preconditionFailure("an event before persisted() for the pending persist. Invalid state: \(debugSummary)") }
        volatile.identitiesBeforeStep = identities
        retryOwedReprotection()
    }

    /// The machine after the commit of its current step failed: rebuilt from the committed
    /// `stored` records, with what lives only in memory (the app's process and UI identities)
    /// as it was before that step. A failed commit changes nothing a caller can observe: not
    /// the records, and not the identities either (invariant 20). Call ``resumed(now:)`` next.
    /// The Retry-After holds stay too: a service asked to wait whatever the disk did, and a
    /// full disk must not send the held requests at once (only a process start forgets them).
    public func reloadedAfterFailedCommit(_ stored: Stored) throws -> ComplianceMachine {
        var machine = try ComplianceMachine(restoring: stored, configuration: configuration)
        machine.identities = volatile.identitiesBeforeStep
        machine.volatile.holds = volatile.holds
        return machine
    }

    /// Every event ends here: the wiring rules that follow from any change, the callers that
    /// can be answered now, then the one persist (if anything changed) ahead of the commands.
    mutating func endStep(now: Instant) {
        reconcile(now: now)
        noteAccountsLeavingWhileAsked()
        enforceIdentities()
        clearOverridesAfterUnenrollment()
        refreshIndexes()
        resolveWaiters(now: now)
        startDueReprotection()
        let changes = takeChanges()
        if changes.isEmpty {
            volatile.ready += volatile.held
            volatile.held = []
        } else {
            volatile.ready.append(.persist(changes))
            volatile.awaitingPersist = true
        }
    }

    /// A new step id.
    mutating func newStep() -> StepID {
        defer { volatile.nextStep += 1 }
        return StepID(volatile.nextStep)
    }

    /// Queues a command of this step (released after its persist).
    mutating func emit(_ action: Action) {
        volatile.held.append(action)
    }

    /// Queues the reply to `ticket` (released after the step's persist).
    mutating func reply(_ ticket: Ticket, _ reply: Reply) {
        let action = Action.reply(ticket, withheldWhileRestartOwed(reply))
        if repliesWaitForReprotection {
            volatile.parkedReplies.append(action)
        } else {
            volatile.held.append(action)
        }
    }

    /// Records an observer notification of this step; enrollment statuses are kept per account.
    mutating func note(_ event: ComplianceEvent) {
        volatile.events.append(event)
        switch event {
        case .enrollment(let report), .policy(let report), .unenroll(let report):
            if accounts[report.account] != nil {
                accounts[report.account]?.lastEnrollmentStatus = report.status
                volatile.dirtyAccounts.insert(report.account)
            }
        default:
            break
        }
    }

    mutating func markDirty(_ account: AccountID) {
        volatile.dirtyAccounts.insert(account)
    }

    mutating func markAppDirty() {
        volatile.appDirty = true
    }

    /// The account's state, created (and marked for storing) when it has none yet.
    @discardableResult
    mutating func ensureAccount(_ account: AccountID) -> AccountID {
        if accounts[account] == nil {
            accounts[account] = AccountState(account: account)
            markDirty(account)
        } else if account.homeAccountID != nil, accounts[account]?.account.homeAccountID == nil {
            accounts[account]?.account = account
            markDirty(account)
        }
        return account
    }

    // MARK: - Queries

    /// True when the machine has seen the account (it has a record).
    public func knows(_ account: AccountID) -> Bool { accounts[account] != nil }

    /// The refusal of a command or query that names an account the machine has no record of
    /// (`unknown_account`), or nil when it knows it.
    public func unknownAccountRefusal(_ account: AccountID) -> Refusal? {
        knows(account) ? nil : .unknown(account)
    }

    /// The known accounts, in key order.
    public var knownAccounts: [AccountID] { accounts.keys.sorted() }

    /// The account that holds the app's one managed slot other than `account`, if any: an
    /// enroll in flight (a registration's or a remediation's), an enrolled account, or one
    /// still enrolled while it deregisters.
    public func slotHolder(besides account: AccountID? = nil) -> AccountID? {
        if let active = remediation.activeAccount, active != account, remediation.activeStep == .enrolling { return active }
        for (key, state) in accounts where key != account && state.enrollment.holdsManagedSlot {
            return key
        }
        return nil
    }

    /// True while the account is deregistering or being wiped.
    public func isLeaving(_ account: AccountID) -> Bool {
        guard let state = accounts[account] else { return false }
        return state.enrollment.isLeaving || state.wipe.isRunning
    }

    /// True when a token may be handed to `account` now: the allowed list allows it and it
    /// is neither being removed from it nor deregistering nor wiped.
    public func mayReceiveToken(_ account: AccountID) -> Bool {
        allowed.mayReceiveToken(account) && !isLeaving(account)
    }

    /// Why `account` may not store managed data now, or nil when it may: it must be signed
    /// in, allowed, and not being wiped.
    public func dataRefusal(_ account: AccountID) -> Refusal? {
        guard let state = accounts[account] else { return .unknown(account) }
        if isLeaving(account) { return Refusal(.conflict, account, "\(account.upn) is being wiped") }
        if let refusal = policyRequiredRefusal(account) { return refusal }
        guard state.signedIn else {
            return Refusal(.conflict, account, "\(account.upn) is not signed in; only a signed-in account stores managed data")
        }
        guard allowed.allowed.allows(account) else {
            return Refusal(.signInRefused, account, "\(account.upn) is not allowed in this app by your organization's policy")
        }
        return nil
    }

    /// How `protect:identity:` protects data of `owner` (nil: no user) now, or why it may not:
    /// the managed account's data is encrypted, anyone else's gets the identity header alone
    /// (``DataProtectionPolicy/bufferProtection``). An account that is leaving (deregistering
    /// or being wiped) gets nothing: its data would come back as unmanaged, header-only, while
    /// its key is destroyed. Data to encrypt needs an account that may store managed data
    /// (``dataRefusal(_:)``). While `MAMPolicyRequired` blocks the app, nothing is protected,
    /// whoever owns it (``policyRequiredRefusal(_:)``).
    public func bufferProtection(for owner: AccountID?) -> Result<ProtectionMode, Refusal> {
        if let refusal = policyRequiredRefusal(owner) { return .failure(refusal) }
        if let owner, isLeaving(owner) {
            return .failure(Refusal(.conflict, owner, "\(owner.upn) is being deregistered or wiped; protect its data once that is done"))
        }
        let mode = dataProtectionPolicy(for: owner).bufferProtection
        if mode == .encrypted, let owner, let refusal = dataRefusal(owner) { return .failure(refusal) }
        return .success(mode)
    }

    /// `isFileEncryptionRequired` for `account`'s data: true only for the managed (enrolled)
    /// account whose policy sets `fileEncryptionRequired`. Every other account is unmanaged
    /// with unrestricted policy settings (the SDK guide: "Other users in the app will be
    /// treated as unmanaged"; "If the user is unmanaged, a header will be added to the data
    /// that's encoding the identity, but the data won't be encrypted"), so its files are
    /// stored plain, whatever the managed account's policy says.
    public func isFileEncryptionRequired(for account: AccountID) -> Bool {
        dataProtectionPolicy(for: account).isFileEncryptionRequired
    }

    /// The policy object of `identity` (`policyForIdentity:`): the managed account's live
    /// policy when `identity` is the managed (enrolled) account, unrestricted for any other
    /// account and for `nil`. A new policy from a check-in or remediation changes it at once
    /// (the step's `policyApplied` event).
    public func dataProtectionPolicy(for identity: AccountID?) -> DataProtectionPolicy {
        let managed = managedAccount
        return DataProtectionPolicy(identity: identity, managed: managed, settings: managed.flatMap { accounts[$0]?.policy?.document })
    }

    /// The MAM app configuration of `account` (`appConfigForAccountId:`): from the policy the
    /// MAM service delivered to it while it is enrolled, empty otherwise (the guide: the app
    /// must be enrolled before it accesses MAM targeted configuration).
    public func appConfig(for account: AccountID) -> AppConfig {
        guard let state = accounts[account], state.enrollment.isEnrolled else { return .empty }
        return AppConfig(policyDocument: state.policy?.document)
    }

    /// `registeredAccounts`: the accounts registered with the MAM service (a sign-in or a
    /// remediation registers them) and not deregistered or removed since: enrolling, waiting
    /// for a retry or for the managed slot, or enrolled.
    public var registeredAccounts: [AccountID] {
        knownAccounts.filter { isRegistered($0) }
    }

    /// `allowedAccounts`: the policy's list, or ``AllowedAccounts/anyone`` when none is set.
    public var allowedAccounts: AllowedAccounts { allowed.allowed }

    /// The managed account: the enrolled account whose policy is in force, if any.
    /// (At most one account is enrolled at a time, invariant 3, so the first found is the one.)
    public var managedAccount: AccountID? {
        accounts.first { $0.value.enrollment.isEnrolled && $0.value.policy != nil }?.key
    }

    /// The policy in force for the app: the managed (enrolled) account's, nil when none is.
    public var appPolicy: MAMPolicy? {
        managedAccount.flatMap { accounts[$0]?.policy }
    }

    /// The earliest timer an account waits for (ties: the first account in key order). Read
    /// off the timer queue once a step has built it, by a visit of all accounts before.
    public func nextDueTimer() -> (account: AccountID, timer: EnrollmentStateMachine.Timer, at: Instant)? {
        if volatile.indexes.isBuilt {
            guard let account = volatile.indexes.earliestTimer, let due = accounts[account]?.enrollment.dueTimer else { return nil }
            return (account: account, timer: due.timer, at: due.at)
        }
        return nextDueTimerByVisit()
    }

    /// ``nextDueTimer()`` by a visit of every account (the reference for the queue).
    func nextDueTimerByVisit() -> (account: AccountID, timer: EnrollmentStateMachine.Timer, at: Instant)? {
        var best: (AccountID, EnrollmentStateMachine.Timer, Instant)?
        for (account, state) in accounts {
            guard let due = state.enrollment.dueTimer, !state.wipe.isRunning else { continue }
            if let current = best, (current.2, current.0) <= (due.at, account) { continue }
            best = (account, due.timer, due.at)
        }
        return best.map { (account: $0.0, timer: $0.1, at: $0.2) }
    }

    /// What the control API shows of an account.
    public func view(of account: AccountID) -> AccountView? {
        guard let state = accounts[account] else { return nil }
        let remediationState: String
        if remediation.activeAccount == account, let step = remediation.activeStep {
            remediationState = step.rawValue
        } else if remediation.queuedAccounts.contains(account) {
            remediationState = "queued"
        } else {
            remediationState = "idle"
        }
        return AccountView(
            account: state.account, signedIn: state.signedIn, managed: state.enrollment.isEnrolled, enrollment: state.enrollment.phase,
            lastEnrollmentStatus: state.lastEnrollmentStatus, nextDueAt: state.wipe.isRunning ? nil : state.enrollment.dueTimer?.at,
            compliance: state.compliance, remediation: remediationState,
            // A wipe done before the account signed in again is history, not its state.
            wipe: state.wipe.isFinished && state.signedIn ? "idle" : state.wipe.stateName, policy: state.policy)
    }

    /// How many interrupted operations ``resumed(now:)`` will pick up: journaled wipes,
    /// enrollments, deregistrations and removals under way, and a running or queued remediation.
    public var resumableWork: Int {
        var count = 0
        for state in accounts.values {
            if state.wipe.isRunning { count += 1 }
            switch state.enrollment.phase {
            case .enrolling, .acquiringUnenrollToken, .unenrolling, .wiping: count += 1
            default: break
            }
        }
        if remediation.activeAccount != nil || !remediation.queuedAccounts.isEmpty { count += 1 }
        return count
    }

    /// The names of the sub-machine states a persist commits (`remediation:awaitingPolicy`,
    /// `enrollment:enrolled`, `wipe:done`, …), as stored: the test hook's crash points.
    public static func committedPoints(_ changes: Changes) -> [String] {
        var points: [String] = []
        if let app = changes.app {
            points.append("remediation:" + (app["remediation"]?["run"]?["step"]?.stringValue ?? "idle"))
            let pending = app["allowedAccounts"]?["pending"]?.arrayValue ?? []
            points.append("allowedAccounts:" + (pending.isEmpty ? "tracking" : "removing"))
        }
        for record in changes.accounts.keys.sorted().compactMap({ changes.accounts[$0] }) {
            if let state = record["enrollment"]?["state"]?.stringValue {
                points.append("enrollment:" + (state == "deregistering" ? "acquiringUnenrollToken" : state))
            }
            if let step = record["wipe"]?["step"]?.stringValue { points.append("wipe:" + step) }
        }
        return points
    }

    /// Every point ``committedPoints(_:)`` can name.
    public static var crashPoints: [String] {
        // A step never ends while a policy is applied: it is applied within the step.
        let remediation = RemediationStateMachine.Step.allCases.filter { $0 != .applyingPolicy }.map { "remediation:\($0.rawValue)" }
        let enrollment = EnrollmentStateMachine.Phase.allCases.filter { ![.checkingIn, .applyingPolicy, .unenrolling].contains($0) }
            .map { "enrollment:\($0.rawValue)" }
        // A wipe's vault step is followed by the enrollment's, in the same step: never stored.
        let wipe = ["idle", "intentRecorded", "tokensRemoved", "appHookFinished", "done"].map { "wipe:\($0)" }
        return ["remediation:idle"] + remediation + enrollment + wipe
            + ["allowedAccounts:tracking", "allowedAccounts:removing"]
    }

    /// The generation of the account's current or last wipe.
    public func wipeGeneration(of account: AccountID) -> Int? {
        accounts[account]?.wipe.wipe?.generation
    }

    /// A one-line picture of the machine for precondition messages.
    var debugSummary: String {
        let perAccount = accounts.keys.sorted().map { key -> String in
            let state = accounts[key]!
            return "\(key.upn): \(state.enrollment.stateName)/wipe \(state.wipe.stateName)\(state.signedIn ? "/signedIn" : "")"
        }
        return "remediation \(remediation.stateName), allowed \(allowed.stateName), accounts [\(perAccount.joined(separator: ", "))]"
    }
}

/// What the control API shows of one account.
public struct AccountView: Sendable, Hashable, Codable {
    public var account: AccountID
    public var signedIn: Bool
    public var managed: Bool
    public var enrollment: EnrollmentStateMachine.Phase
    public var lastEnrollmentStatus: EnrollmentStatus?
    public var nextDueAt: Instant?
    public var compliance: ComplianceStatus?
    /// `idle`, the running step's name, or `queued`.
    public var remediation: String
    /// `idle` (also once the account signed in again after a wipe), the wipe's step, or `done`.
    public var wipe: String
    /// The policy in force for the account, if any.
    public var policy: MAMPolicy?
}
