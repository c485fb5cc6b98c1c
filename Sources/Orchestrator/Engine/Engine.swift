import ComplianceCore
import HTTPClient
import JSON
import Logging

/// Runs ComplianceCore's machines for one app against a token issuer and a MAM service,
/// durably.
///
/// One ``RemediationStateMachine`` and one ``AllowedAccountsStateMachine`` for the app, one
/// ``EnrollmentStateMachine`` and one ``SelectiveWipeStateMachine`` per account. The actor
/// owns the machines; every machine call and the commit of the snapshot it asks to persist
/// happen without a suspension in between (``OrchestratorStore/writeSync(_:)``), so a
/// snapshot is committed before the side effect it protects. Side effects (HTTP, vault
/// files, the wipe hook) run in `await`s that release the actor, so unrelated accounts
/// proceed concurrently; when a side effect returns, its result is fed back only if the
/// machine is still at the step that started it.
///
/// Start with ``start()``: it reloads every machine from the store, finishes journaled
/// wipes and resumes interrupted remediation, enrollment and deregistration steps.
public actor Engine {
    let store: OrchestratorStore
    let vault: Vault
    let issuer: IssuerClient
    let mam: MAMClient
    /// Plays the browser for interactive sign-ins; must not follow redirects.
    let browserHTTP: HTTPClient
    let configuration: EngineConfiguration
    /// The engine's time: real, or virtual (moved by ``advanceClock(seconds:)``).
    public nonisolated let clock: EngineClock
    let logger: Logger

    var remediation = RemediationStateMachine()
    var allowedAccounts = AllowedAccountsStateMachine()
    var enrollments: [AccountID: EnrollmentStateMachine] = [:]
    var wipes: [AccountID: SelectiveWipeStateMachine] = [:]
    /// Accounts whose wipe driver is running now.
    var wipesRunning: Set<AccountID> = []
    /// Callers waiting for an account's remediation report.
    var remediationWaiters: [AccountID: [CheckedContinuation<RemediationOutcome, Never>]] = [:]
    /// Who answers interaction for a running remediation (memory only: never stored).
    var remediationUsers: [AccountID: InteractiveUser] = [:]
    /// The scopes of the token request each remediation retries (stored: a resumed
    /// remediation retries the same request).
    var retryRequests: [AccountID: [String]] = [:]
    /// The last compliance status delivered per account (stored).
    var lastCompliance: [AccountID: ComplianceStatus] = [:]
    /// The last enrollment status per account (from the event stream).
    var lastEnrollmentStatus: [AccountID: EnrollmentStatus] = [:]
    /// Observer events drained from machines, written with the next commit.
    var pendingEvents: [ComplianceEvent] = []
    /// Events of the engine's own (kind, account, payload) written with the next commit,
    /// before the machine events: e.g. `remediationStarted` before the report it led to.
    var pendingRecords: [(kind: String, account: AccountID?, payload: JSONObject)] = []
    var crashPoint: CrashPoint?
    /// Commits per `machine:state` since start.
    var commitCounts: [String: Int] = [:]
    var timerTask: Task<Void, Never>?
    var started = false
    /// Services that asked to wait (`Retry-After`); memory only.
    var throttle = ServiceThrottle()
    /// The `xms_cc` claim of the last access token delivered per account, keyed by that token,
    /// so a cache hit does not decode the same JWT again; memory only.
    var deliveredCapabilities: [AccountID: (accessToken: String, xmsCC: JSONValue)] = [:]

    public init(
        configuration: EngineConfiguration, store: OrchestratorStore, vault: Vault, issuer: IssuerClient, mam: MAMClient,
        browserHTTP: HTTPClient, clock: EngineClock, logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.vault = vault
        self.issuer = issuer
        self.mam = mam
        self.browserHTTP = browserHTTP
        self.clock = clock
        self.logger = logger
    }

    /// The app's client id.
    public nonisolated var clientID: String { configuration.clientID }

    /// Reloads the machines, finishes journaled wipes and resumes interrupted steps; call
    /// once before serving requests. Returns how many interrupted operations it resumed.
    @discardableResult
    public func start() async throws -> Int {
        precondition(!started, "Engine.start() called twice")
        started = true
        try await vault.finishInterruptedWipes()
        try loadMachines()
        if clock.mode == .virtual {
            // The virtual time survives restarts: resume it, or store where it starts so a
            // daemon killed before its first advance restarts at the same time.
            if let stored = try store.readSync({ try $0.appState(StateKey.clock) })?.intValue {
                clock.restore(to: stored)
            } else {
                saveVirtualClock()
            }
        }
        var resumed = 0
        for (account, machine) in wipes.sorted(by: { $0.key < $1.key }) where !machine.isFinished && machine.stateName != "idle" {
            resumed += 1
            await resumeWipe(account)
        }
        await runAllowedAccounts(allowedAccountsStep { $0.resumed() })
        for account in enrollments.keys.sorted() {
            guard let machine = enrollments[account] else { continue }
            if ["enrolling", "acquiringUnenrollToken", "unenrolling", "wiping"].contains(machine.stateName) { resumed += 1 }
            await runEnrollment(account, enrollmentStep(account) { $0.resumed() })
        }
        if remediation.stateName != "idle" || !remediation.queuedAccounts.isEmpty { resumed += 1 }
        await runRemediation(remediationStep { $0.resumed() })
        // An enrollment committed just before a crash may not have reached the remediation
        // machine yet (two commits): tell it again (no effect when it knows).
        // One step for all of them: one commit at most, and linear in the accounts.
        let enrolled = enrollments.filter { $0.value.isEnrolled }.keys.sorted()
        if !enrolled.isEmpty { await runRemediation(remediationStep { $0.accountsEnrolled(enrolled) }) }
        record("daemonStarted", account: nil, ["resumed": .int(Int64(resumed)), "clock": .string(clock.mode.rawValue)])
        rearmTimers()
        return resumed
    }

    /// Stops the real-clock timer. In-flight requests finish on their own; every step they
    /// complete is journaled.
    public func shutdown() {
        timerTask?.cancel()
        timerTask = nil
    }

    // MARK: - Loading

    /// Rebuilds every machine from the store (on start, and for the app restart the first
    /// policy requires).
    func loadMachines() throws {
        let loaded = try store.readSync { transaction in
            (
                remediation: try transaction.appState(StateKey.remediation),
                allowed: try transaction.appState(StateKey.allowedAccounts),
                requests: try transaction.appState(StateKey.retryRequests),
                compliance: try transaction.appState(StateKey.compliance),
                enrollments: try transaction.enrollments(),
                enrollmentStatuses: try transaction.lastEnrollmentStatuses(),
                journals: try transaction.openJournals()
            )
        }
        do {
            remediation = try loaded.remediation.map { RemediationStateMachine(restoring: try .init(json: $0)) } ?? RemediationStateMachine()
            allowedAccounts = try loaded.allowed.map { AllowedAccountsStateMachine(restoring: try .init(json: $0)) } ?? AllowedAccountsStateMachine()
            enrollments = [:]
            for record in loaded.enrollments {
                enrollments[record.account] = EnrollmentStateMachine(restoring: try .init(json: record.state))
            }
            lastEnrollmentStatus = [:]
            for (account, code) in loaded.enrollmentStatuses {
                lastEnrollmentStatus[account] = EnrollmentStatus(rawValue: code)
            }
            wipes = [:]
            for journal in loaded.journals where journal.kind == .wipe {
                wipes[journal.account] = SelectiveWipeStateMachine(restoring: try .init(json: journal.state))
            }
        } catch {
            throw StoreError(code: .corruptRow, path: store.path, message: "a stored machine cannot be restored: \(error)")
        }
        retryRequests = [:]
        for (key, value) in loaded.requests?.objectValue ?? JSONObject() {
            guard let account = try? AccountID(key), let scopes = value.arrayValue?.compactMap(\.stringValue) else { continue }
            retryRequests[account] = scopes
        }
        lastCompliance = [:]
        for (key, value) in loaded.compliance?.objectValue ?? JSONObject() {
            guard let account = try? AccountID(key), let code = value.intValue, let status = ComplianceStatus(rawValue: Int(code)) else { continue }
            lastCompliance[account] = status
        }
    }

    /// Names of the app-wide values in the store.
    enum StateKey {
        static let remediation = "remediation"
        static let allowedAccounts = "allowedAccounts"
        static let retryRequests = "remediationRequests"
        static let compliance = "compliance"
        static let clock = "clock"
    }
}
