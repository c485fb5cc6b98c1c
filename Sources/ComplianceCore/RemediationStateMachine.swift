import JSON

/// App Protection CA remediation for the app (one machine per app, all accounts).
///
/// `remediate(account, silent:)` runs: MAM-service token → enroll → policy → allowed-accounts
/// check → apply policy (the first policy for an account requires an app restart; the
/// machine persists a resumable state first) → report compliance → retry the original
/// token request → deliver exactly one ``ComplianceStatusReport``.
///
/// Repeat calls for the account being remediated are coalesced into the running
/// remediation; other accounts queue and run in order. Only one account may be managed
/// at a time: the composed ``ComplianceMachine`` owns that rule and answers
/// ``managedElsewhere(by:)`` when another account holds the slot (NotCompliant, 227
/// SingleManagedAccountMode). When a remediation fails for an account that holds managed
/// data, that account is wiped before its status is delivered.
///
/// Persistence: the composed machine stores this machine's ``snapshot`` with every step that
/// changed it, before the step's commands run, together with the wipe and enrollment machines
/// the step touched. A machine rebuilt with ``init(restoring:)`` continues with ``resumed()``.
/// A runner that stored this machine apart from the wipe machines would have to report again,
/// with ``accountRemoved(_:)``, every account it knows to be wiped, since that call's change
/// may not have been stored; the composed machine commits them together and need not.
/// A status is delivered at most once: the state stored before delivery is already the
/// idle one.
public struct RemediationStateMachine: Sendable, Hashable, Codable {
    /// Commands for the composed machine (``ComplianceMachine``), which runs this one.
    public enum Action: Sendable, Hashable, Codable {
        /// Acquire a token for scope `https://msmamservice.api.application/.default`
        /// (interactively only when `silent` is false); keep it for the MAM calls and answer
        /// with `mamTokenAcquired()` or `mamTokenFailed(_:)`.
        case acquireMAMToken(AccountID, silent: Bool)
        /// Enroll the app for the account; answer `enrollmentSucceeded()` or `enrollmentFailed(_:)`.
        case enroll(AccountID)
        /// Fetch the account's policy; answer `policyReceived(_:)` or `policyFetchFailed(_:)`.
        case fetchPolicy(AccountID)
        /// Apply the policy (and feed its allowed-accounts list to the
        /// ``AllowedAccountsStateMachine``); answer `policyApplied()`.
        case applyPolicy(AccountID, MAMPolicy)
        /// First policy: restart the app, then rebuild the machine from the stored snapshot
        /// and call `resumed()` (or call `appRestarted()` when restarting in-process).
        case restartApp(AccountID)
        /// Report compliance to the MAM service; answer `complianceReported()` or `complianceReportFailed(_:)`.
        case reportCompliance(AccountID)
        /// Re-run the token request that failed with protection-policy-required (a new
        /// ``TokenAcquisitionStateMachine``); answer `retriedTokenRequestCompleted(_:)`.
        case retryTokenRequest(AccountID)
        /// Start a ``SelectiveWipeStateMachine`` for the account; answer `wipeStarted()`.
        case startWipe(AccountID, WipeReason)
        /// Deliver the one status of the remediation (tokens only with Compliant); answer `statusDelivered()`.
        case deliverStatus(ComplianceStatusReport, tokens: TokenSet?)
        case none
    }

    /// The MAM service's token scope.
    public static let mamScope = "https://msmamservice.api.application/.default"

    struct Run: Sendable, Hashable, Codable {
        var account: AccountID
        var silent: Bool
    }

    fileprivate enum State: Sendable, Hashable, Codable {
        /// Nothing running. Valid transitions:
        ///  - `.acquiringMAMToken` on `remediate`
        case idle
        /// Getting the MAM-service token. Valid transitions:
        ///  - `.enrolling` on `mamTokenAcquired`
        ///  - `.wipingManagedData` or `.delivering` on `mamTokenFailed`; `.delivering` on `accountRemoved` or `managedElsewhere`
        case acquiringMAMToken(Run)
        /// Enrolling. Valid transitions:
        ///  - `.awaitingPolicy` on `enrollmentSucceeded`
        ///  - `.wipingManagedData` or `.delivering` on `enrollmentFailed`; `.delivering` on `accountRemoved` or `managedElsewhere`
        case enrolling(Run)
        /// Fetching policy. Valid transitions:
        ///  - `.applyingPolicy` on `policyReceived` (account allowed)
        ///  - `.wipingManagedData` or `.delivering` on `policyReceived` (not allowed) or `policyFetchFailed`
        ///  - `.delivering` on `accountRemoved`
        case awaitingPolicy(Run)
        /// Applying policy. Valid transitions:
        ///  - `.awaitingRestart` on `policyApplied` (first policy for the account)
        ///  - `.reportingCompliance` on `policyApplied`
        ///  - `.delivering` on `accountRemoved`
        case applyingPolicy(Run, MAMPolicy, firstPolicy: Bool)
        /// The app must restart; the state is stored. Valid transitions:
        ///  - `.reportingCompliance` on `appRestarted` or `resumed` after a rebuild
        ///  - `.delivering` on `accountRemoved`
        case awaitingRestart(Run)
        /// Reporting compliance. Valid transitions:
        ///  - `.retryingTokenRequest` on `complianceReported`
        ///  - `.wipingManagedData` or `.delivering` on `complianceReportFailed`; `.delivering` on `accountRemoved`
        case reportingCompliance(Run)
        /// Retrying the original token request. Valid transitions:
        ///  - `.delivering` on `retriedTokenRequestCompleted` (success: Compliant) or `accountRemoved`
        ///  - `.wipingManagedData` or `.delivering` on `retriedTokenRequestCompleted` (failure)
        case retryingTokenRequest(Run)
        /// A failed remediation left managed data: wiping it first. Valid transitions:
        ///  - `.delivering` on `wipeStarted`, or `accountRemoved` (the wipe finished)
        case wipingManagedData(Run, ComplianceStatusReport)
        /// Delivering the one status. Valid transitions:
        ///  - `.idle` on `statusDelivered` (queue empty)
        ///  - `.acquiringMAMToken` or `.delivering` on `statusDelivered` (next queued account)
        case delivering(ComplianceStatusReport, tokens: TokenSet?)
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("idle", "acquiringMAMToken", "remediate"),
        .init("acquiringMAMToken", "enrolling", "mamTokenAcquired"),
        .init("acquiringMAMToken", "wipingManagedData", "mamTokenFailed"),
        .init("acquiringMAMToken", "delivering", "mamTokenFailed / accountRemoved / managedElsewhere"),
        .init("enrolling", "awaitingPolicy", "enrollmentSucceeded"),
        .init("enrolling", "wipingManagedData", "enrollmentFailed"),
        .init("enrolling", "delivering", "enrollmentFailed / accountRemoved / managedElsewhere"),
        .init("awaitingPolicy", "applyingPolicy", "policyReceived"),
        .init("awaitingPolicy", "wipingManagedData", "policyReceived / policyFetchFailed"),
        .init("awaitingPolicy", "delivering", "policyReceived / policyFetchFailed / accountRemoved"),
        .init("applyingPolicy", "awaitingRestart", "policyApplied"),
        .init("applyingPolicy", "reportingCompliance", "policyApplied"),
        .init("applyingPolicy", "delivering", "accountRemoved"),
        .init("awaitingRestart", "reportingCompliance", "appRestarted / resumed"),
        .init("awaitingRestart", "delivering", "accountRemoved"),
        .init("reportingCompliance", "retryingTokenRequest", "complianceReported"),
        .init("reportingCompliance", "wipingManagedData", "complianceReportFailed"),
        .init("reportingCompliance", "delivering", "complianceReportFailed / accountRemoved"),
        .init("retryingTokenRequest", "delivering", "retriedTokenRequestCompleted / accountRemoved"),
        .init("retryingTokenRequest", "wipingManagedData", "retriedTokenRequestCompleted"),
        .init("wipingManagedData", "delivering", "wipeStarted / accountRemoved"),
        .init("delivering", "idle", "statusDelivered"),
        .init("delivering", "acquiringMAMToken", "statusDelivered"),
        .init("delivering", "delivering", "statusDelivered"),
    ]

    private var state: State
    /// Accounts that have had policy applied (so hold managed data).
    private var managedData: [AccountID]
    /// Accounts waiting for their turn, in order.
    private var queue: [Run]
    private var events: [ComplianceEvent] = []

    /// A machine with nothing managed and nothing running.
    public init() {
        state = .idle
        managedData = []
        queue = []
    }

    public var stateName: String { Self.name(of: state) }

    /// True when `account` has had policy applied and holds managed data.
    public func holdsManagedData(_ account: AccountID) -> Bool { managedData.contains(account) }

    /// The step the running remediation is at, or nil when idle (or delivering).
    public var activeStep: Step? {
        switch state {
        case .idle, .delivering: nil
        case .acquiringMAMToken: .acquiringMAMToken
        case .enrolling: .enrolling
        case .awaitingPolicy: .awaitingPolicy
        case .applyingPolicy: .applyingPolicy
        case .awaitingRestart: .awaitingRestart
        case .reportingCompliance: .reportingCompliance
        case .retryingTokenRequest: .retryingTokenRequest
        case .wipingManagedData: .wipingManagedData
        }
    }

    /// The steps of a running remediation, named as in README.md.
    public enum Step: String, Sendable, Hashable, CaseIterable, Codable {
        case acquiringMAMToken, enrolling, awaitingPolicy, applyingPolicy, awaitingRestart, reportingCompliance, retryingTokenRequest
        case wipingManagedData
    }

    /// Whether the running remediation may interact with the user.
    public var activeIsSilent: Bool? { Self.run(of: state)?.silent }

    /// The account being remediated, if any.
    public var activeAccount: AccountID? { Self.run(of: state)?.account }

    /// Accounts waiting, in order.
    public var queuedAccounts: [AccountID] { queue.map(\.account) }

    public mutating func takeEvents() -> [ComplianceEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: - Starting

    /// The app asks to remediate `account` (remediateComplianceForIdentity:silent:) after a
    /// token request failed with protection-policy-required.
    public mutating func remediate(_ account: AccountID, silent: Bool) -> Action {
        switch state {
        case .idle:
            events.append(.remediationStarted(account, silent: silent))
            return start(Run(account: account, silent: silent))
        default:
            if var run = Self.run(of: state), run.account == account {
                if !silent, run.silent {  // an interactive request upgrades the running one
                    run.silent = false
                    replaceRun(run)
                }
                return .none  // coalesced: the running remediation's status answers this call too
            }
            if case .delivering(let report, _) = state, report.account == account { return .none }
            if let index = queue.firstIndex(where: { $0.account == account }) {
                if !silent { queue[index].silent = false }
                return .none
            }
            queue.append(Run(account: account, silent: silent))
            events.append(.remediationStarted(account, silent: silent))
            return .none
        }
    }

    // MARK: - Step results

    /// The MAM-service token is available.
    public mutating func mamTokenAcquired() -> Action {
        guard case .acquiringMAMToken(let run) = state else { return lateOrMisuse("mamTokenAcquired()") }
        state = .enrolling(run)
        return .enroll(run.account)
    }

    /// No MAM-service token: the status follows the failure (interaction, cancel, network, …).
    public mutating func mamTokenFailed(_ failure: TokenAcquisitionFailure) -> Action {
        guard case .acquiringMAMToken(let run) = state else { return lateOrMisuse("mamTokenFailed()") }
        return finish(run, ComplianceStatusReport(account: run.account, status: failure.complianceStatus, detail: failure.message))
    }

    /// The enrollment succeeded (100, 103 or 208): the account is now the managed one.
    public mutating func enrollmentSucceeded() -> Action {
        guard case .enrolling(let run) = state else { return lateOrMisuse("enrollmentSucceeded()") }
        state = .awaitingPolicy(run)
        return .fetchPolicy(run.account)
    }

    /// The enrollment failed with `status`.
    public mutating func enrollmentFailed(_ status: EnrollmentStatus, detail: String? = nil) -> Action {
        guard case .enrolling(let run) = state else { return lateOrMisuse("enrollmentFailed()") }
        return finish(run, ComplianceStatusReport(account: run.account, status: Self.complianceStatus(for: status), enrollmentStatus: status, detail: detail))
    }

    /// Policy arrived. The allowed-accounts list is checked before anything is applied.
    public mutating func policyReceived(_ policy: MAMPolicy) -> Action {
        guard case .awaitingPolicy(let run) = state else { return lateOrMisuse("policyReceived()") }
        guard policy.allowedAccounts.allows(run.account) else {
            return finish(run, ComplianceStatusReport(
                account: run.account, status: .notCompliant,
                detail: "The account is not in your organization's allowed accounts for this app (allowed: \(policy.allowedAccounts))."))
        }
        let first = !managedData.contains(run.account)
        state = .applyingPolicy(run, policy, firstPolicy: first)
        return .applyPolicy(run.account, policy)
    }

    /// No policy could be fetched (103 NoPolicyReceived, 212 network, …).
    public mutating func policyFetchFailed(_ status: EnrollmentStatus, detail: String? = nil) -> Action {
        guard case .awaitingPolicy(let run) = state else { return lateOrMisuse("policyFetchFailed()") }
        return finish(run, ComplianceStatusReport(account: run.account, status: Self.complianceStatus(for: status), enrollmentStatus: status, detail: detail))
    }

    /// The policy is applied; the account now holds managed data.
    public mutating func policyApplied() -> Action {
        guard case .applyingPolicy(let run, _, let first) = state else { return lateOrMisuse("policyApplied()") }
        if !managedData.contains(run.account) { managedData.append(run.account) }
        if first {
            state = .awaitingRestart(run)
            events.append(.restartRequired(run.account))
            return .restartApp(run.account)
        }
        state = .reportingCompliance(run)
        return .reportCompliance(run.account)
    }

    /// The app restarted in-process after ``Action/restartApp(_:)`` (a rebuilt machine uses `resumed()`).
    public mutating func appRestarted() -> Action {
        guard case .awaitingRestart(let run) = state else { return lateOrMisuse("appRestarted()") }
        state = .reportingCompliance(run)
        return .reportCompliance(run.account)
    }

    /// The MAM service accepted the compliance report.
    public mutating func complianceReported() -> Action {
        guard case .reportingCompliance(let run) = state else { return lateOrMisuse("complianceReported()") }
        state = .retryingTokenRequest(run)
        return .retryTokenRequest(run.account)
    }

    /// The compliance report failed.
    public mutating func complianceReportFailed(_ status: EnrollmentStatus, detail: String? = nil) -> Action {
        guard case .reportingCompliance(let run) = state else { return lateOrMisuse("complianceReportFailed()") }
        return finish(run, ComplianceStatusReport(account: run.account, status: Self.complianceStatus(for: status), enrollmentStatus: status, detail: detail))
    }

    /// The retried token request ended: tokens mean Compliant, anything else maps to its status.
    public mutating func retriedTokenRequestCompleted(_ result: Result<TokenSet, TokenAcquisitionFailure>) -> Action {
        guard case .retryingTokenRequest(let run) = state else { return lateOrMisuse("retriedTokenRequestCompleted()") }
        switch result {
        case .success(let tokens):
            return deliver(ComplianceStatusReport(account: run.account, status: .compliant), tokens: tokens)
        case .failure(.protectionPolicyRequired):
            return finish(run, ComplianceStatusReport(
                account: run.account, status: .notCompliant,
                detail: "Policy was applied but the service still requires app protection policy for this account."))
        case .failure(let failure):
            return finish(run, ComplianceStatusReport(account: run.account, status: failure.complianceStatus, detail: failure.message))
        }
    }

    /// The wipe asked for by ``Action/startWipe(_:_:)`` is journaled and running.
    public mutating func wipeStarted() -> Action {
        guard case .wipingManagedData(_, let report) = state else { return lateOrMisuse("wipeStarted()") }
        return deliver(report, tokens: nil)
    }

    /// The status from ``Action/deliverStatus(_:tokens:)`` reached the app; the next queued account starts.
    public mutating func statusDelivered() -> Action {
        guard case .delivering = state else { return lateOrMisuse("statusDelivered()") }
        state = .idle
        guard !queue.isEmpty else { return .none }
        return start(queue.removeFirst())
    }

    /// The enrollment lifecycle (registration at sign-in, a 24-hour retry) enrolled `account`
    /// and applied its policy outside a remediation: it is the app's managed account and holds
    /// managed data, so its next remediation needs no app restart, a failed one wipes it, and
    /// another account's remediation gets 227. Valid in every state (no state change);
    /// the snapshot changes only when the machine did not know it already.
    public mutating func accountEnrolled(_ account: AccountID) {
        accountsEnrolled([account])
    }

    /// ``accountEnrolled(_:)`` for many accounts in one step. Linear in the accounts given
    /// plus those the machine knows.
    public mutating func accountsEnrolled(_ accounts: [AccountID]) {
        var holdingData = Set(managedData)
        for account in accounts where holdingData.insert(account).inserted {
            managedData.append(account)
        }
    }

    /// `account` was deregistered, wiped or left the allowed list elsewhere: forget its
    /// managed state, drop it from the queue, and end its running remediation (NotCompliant).
    public mutating func accountRemoved(_ account: AccountID) -> Action {
        managedData.removeAll { $0 == account }
        queue.removeAll { $0.account == account }
        if let run = Self.run(of: state), run.account == account {
            if case .wipingManagedData(_, let report) = state { return deliver(report, tokens: nil) }
            return deliver(ComplianceStatusReport(
                account: account, status: .notCompliant,
                detail: "The account was removed from this app during remediation."), tokens: nil)
        }
        return .none
    }

    /// Another account is the app's managed one (the composed machine's rule): the running
    /// remediation, before it enrolls, ends NotCompliant with 227 SingleManagedAccountMode.
    public mutating func managedElsewhere(by other: AccountID) -> Action {
        switch state {
        case .acquiringMAMToken(let run), .enrolling(let run):
            return deliver(ComplianceStatusReport(
                account: run.account, status: .notCompliant, enrollmentStatus: .singleManagedAccountMode,
                detail: "\(other.upn) is the managed account of this app."), tokens: nil)
        default:
            return lateOrMisuse("managedElsewhere()")
        }
    }

    // MARK: - Persistence protocol

    /// After a rebuild from a snapshot (including the restart after the first policy):
    /// re-issues the interrupted step. Steps are idempotent (re-enrolling answers 208).
    public mutating func resumed() -> Action {
        switch state {
        case .idle:
            guard !queue.isEmpty else { return .none }
            return start(queue.removeFirst())
        case .acquiringMAMToken(let run): return .acquireMAMToken(run.account, silent: run.silent)
        case .enrolling(let run): return .enroll(run.account)
        case .awaitingPolicy(let run): return .fetchPolicy(run.account)
        case .applyingPolicy(let run, let policy, _): return .applyPolicy(run.account, policy)
        case .awaitingRestart: return appRestarted()
        case .reportingCompliance(let run): return .reportCompliance(run.account)
        case .retryingTokenRequest(let run): return .retryTokenRequest(run.account)
        case .wipingManagedData(let run, _): return .startWipe(run.account, .remediationFailed)
        case .delivering: preconditionFailure("a stored machine is never delivering. Invalid state: \(state)")
        }
    }

    // MARK: - Internals

    private mutating func start(_ run: Run) -> Action {
        state = .acquiringMAMToken(run)
        return .acquireMAMToken(run.account, silent: run.silent)
    }

    /// Ends a failed run: wipe first when the account holds managed data.
    private mutating func finish(_ run: Run, _ report: ComplianceStatusReport) -> Action {
        if managedData.contains(run.account) {
            managedData.removeAll { $0 == run.account }
            state = .wipingManagedData(run, report)
            return .startWipe(run.account, .remediationFailed)
        }
        return deliver(report, tokens: nil)
    }

    private mutating func deliver(_ report: ComplianceStatusReport, tokens: TokenSet?) -> Action {
        state = .delivering(report, tokens: report.status == .compliant ? tokens : nil)
        events.append(.compliance(report))
        return .deliverStatus(report, tokens: report.status == .compliant ? tokens : nil)
    }

    private mutating func replaceRun(_ run: Run) {
        switch state {
        case .acquiringMAMToken: state = .acquiringMAMToken(run)
        case .enrolling: state = .enrolling(run)
        case .awaitingPolicy: state = .awaitingPolicy(run)
        case .applyingPolicy(_, let policy, let first): state = .applyingPolicy(run, policy, firstPolicy: first)
        case .awaitingRestart: state = .awaitingRestart(run)
        case .reportingCompliance: state = .reportingCompliance(run)
        case .retryingTokenRequest: state = .retryingTokenRequest(run)
        case .wipingManagedData(_, let report): state = .wipingManagedData(run, report)
        case .idle, .delivering: break
        }
    }

    private func lateOrMisuse(_ event: String) -> Action {
        switch state {
        case .idle, .delivering:
            return .none  // a late answer for a remediation that already ended
        default:
            preconditionFailure("\(event) does not answer the step in progress. Invalid state: \(state)")
        }
    }

    /// The compliance status for an enrollment, policy or report failure.
    public static func complianceStatus(for status: EnrollmentStatus) -> ComplianceStatus {
        switch status {
        case .enrollmentEndPointNetworkFailure, .policyEndPointNetworkFailure: .networkFailure
        case .internalError, .parsingFailure, .timeout: .serviceFailure
        case .authRequired: .interactionRequired
        case .loginCanceled: .userCancelled
        default: .notCompliant
        }
    }

    fileprivate static func run(of state: State) -> Run? {
        switch state {
        case .idle, .delivering: nil
        case .acquiringMAMToken(let run), .enrolling(let run), .awaitingPolicy(let run), .applyingPolicy(let run, _, _),
             .awaitingRestart(let run), .reportingCompliance(let run), .retryingTokenRequest(let run), .wipingManagedData(let run, _):
            run
        }
    }

    fileprivate static func name(of state: State) -> String {
        switch state {
        case .idle: "idle"
        case .acquiringMAMToken: "acquiringMAMToken"
        case .enrolling: "enrolling"
        case .awaitingPolicy: "awaitingPolicy"
        case .applyingPolicy: "applyingPolicy"
        case .awaitingRestart: "awaitingRestart"
        case .reportingCompliance: "reportingCompliance"
        case .retryingTokenRequest: "retryingTokenRequest"
        case .wipingManagedData: "wipingManagedData"
        case .delivering: "delivering"
        }
    }
}

// MARK: - Persistence

extension RemediationStateMachine {
    /// What the machine stores: converts to and from JSON. A delivering machine is stored
    /// as idle (a status is delivered at most once).
    public struct Snapshot: Sendable, Hashable, Codable {
        fileprivate let state: State
        fileprivate let managedData: [AccountID]
        fileprivate let queue: [Run]

        fileprivate init(state: State, managedData: [AccountID], queue: [Run]) {
            if case .delivering = state { self.state = .idle } else { self.state = state }
            self.managedData = managedData
            self.queue = queue
        }

        /// `{"machine":"remediation","version":2,"managedData":[…],"queue":[…],"run":…}`. Version 1
        /// also held `managedAccount`, which the composed machine now derives; it is ignored.
        public var json: JSONValue {
            var run: JSONValue = .null
            if let active = RemediationStateMachine.run(of: state) {
                var object = JSONObject([
                    ("account", active.account.stored), ("silent", .bool(active.silent)),
                    ("step", .string(RemediationStateMachine.name(of: state))),
                ])
                switch state {
                case .applyingPolicy(_, let policy, let first):
                    object["policy"] = policy.json
                    object["firstPolicy"] = .bool(first)
                case .wipingManagedData(_, let report):
                    object["report"] = .object(JSONObject([
                        ("status", .int(Int64(report.status.rawValue))),
                        ("enrollmentStatus", report.enrollmentStatus.map { .int(Int64($0.rawValue)) } ?? .null),
                        ("title", .string(report.title)), ("message", .string(report.message)),
                    ]))
                default:
                    break
                }
                run = .object(object)
            }
            return .object(JSONObject([
                ("machine", "remediation"), ("version", 2),
                ("managedData", .array(managedData.map(\.stored))),
                ("queue", .array(queue.map { .object(JSONObject([("account", $0.account.stored), ("silent", .bool($0.silent))])) })),
                ("run", run),
            ]))
        }

        public init(json: JSONValue) throws(StoredValueError) {
            let reader = try StoredReader(json, path: "remediation")
            guard try reader.string("machine") == "remediation" else { throw reader.invalid("machine", "not a remediation snapshot") }
            try reader.checkVersion(1...2)
            var data: [AccountID] = []
            for (index, element) in try reader.array("managedData").enumerated() {
                data.append(try AccountID(stored: element, path: "remediation.managedData[\(index)]"))
            }
            managedData = data
            var queued: [Run] = []
            for (index, element) in try reader.array("queue").enumerated() {
                let entry = try StoredReader(element, path: "remediation.queue[\(index)]")
                queued.append(Run(account: try entry.account("account"), silent: try entry.bool("silent")))
            }
            queue = queued
            guard reader.has("run") else {
                state = .idle
                return
            }
            let runReader = try reader.object("run")
            let run = Run(account: try runReader.account("account"), silent: try runReader.bool("silent"))
            let step = try runReader.string("step")
            switch step {
            case "acquiringMAMToken": state = .acquiringMAMToken(run)
            case "enrolling": state = .enrolling(run)
            case "awaitingPolicy": state = .awaitingPolicy(run)
            case "applyingPolicy":
                state = .applyingPolicy(run, try MAMPolicy(json: json["run"]?["policy"] ?? .null), firstPolicy: try runReader.bool("firstPolicy"))
            case "awaitingRestart": state = .awaitingRestart(run)
            case "reportingCompliance": state = .reportingCompliance(run)
            case "retryingTokenRequest": state = .retryingTokenRequest(run)
            case "wipingManagedData":
                let report = try runReader.object("report")
                let code = try report.int("status")
                guard let status = ComplianceStatus(rawValue: Int(truncatingIfNeeded: code)) else {
                    throw report.invalid("status", "unknown compliance status \(code)")
                }
                var enrollmentStatus: EnrollmentStatus?
                if report.has("enrollmentStatus") {
                    let raw = try report.int("enrollmentStatus")
                    guard let parsed = EnrollmentStatus(rawValue: Int(truncatingIfNeeded: raw)) else {
                        throw report.invalid("enrollmentStatus", "unknown enrollment status \(raw)")
                    }
                    enrollmentStatus = parsed
                }
                state = .wipingManagedData(run, ComplianceStatusReport(
                    account: run.account, status: status, enrollmentStatus: enrollmentStatus,
                    title: try report.string("title"), message: try report.string("message")))
            default:
                throw runReader.invalid("step", "unknown step \"\(step)\"")
            }
        }
    }

    public var snapshot: Snapshot {
        Snapshot(state: state, managedData: managedData, queue: queue)
    }

    /// Rebuilds the machine from a stored snapshot; call ``resumed()`` next.
    public init(restoring snapshot: Snapshot) {
        state = snapshot.state
        managedData = snapshot.managedData
        queue = snapshot.queue
    }
}
