import JSON

/// The enrollment lifecycle of one account with the MAM service.
///
/// register → enroll; a failed enrollment is retried every 24 h until one succeeds; while
/// another account of the app is enrolled (one managed account at a time) the retries pause
/// and begin again, on the same 24-hour interval, once it leaves (seed 004: "How often does
/// the SDK retry enrollments?"); an enrolled account checks in for policy every 8 h (100 new
/// policies, 101 unchanged, 102 wipe, 103 none); deregistration unenrolls (acquiring the MAM
/// token first, before the app removes the account's tokens), wipes when asked, and reports
/// 104. Every enroll, check-in and unenroll answer, even one that comes after the machine
/// moved on, is reported by exactly one notification.
///
/// Timers are never cancelled explicitly: a timer that fires in a state not waiting for
/// it is ignored (`.none`), so whoever runs the machine may leave stale timers running.
public struct EnrollmentStateMachine: Sendable, Hashable, Codable {
    /// How long after a failed enrollment the next attempt runs.
    public static let enrollmentRetryInterval = TimeSpan.hours(24)
    /// How long after a check-in (or enrollment) the next policy check-in runs.
    public static let policyCheckInInterval = TimeSpan.hours(8)

    /// The timers this machine asks for.
    public enum Timer: String, Sendable, Hashable, Codable {
        case enrollmentRetry, policyCheckIn
    }

    /// What a policy check-in returned.
    public enum CheckInOutcome: Sendable, Hashable, Codable {
        /// 100 NewPoliciesReceived.
        case newPoliciesReceived(MAMPolicy)
        /// 101 PoliciesHaveNotChanged.
        case policiesHaveNotChanged
        /// 102 WipeReceived.
        case wipeReceived
        /// 103 NoPolicyReceived: the service has no policy for the account any more.
        case noPolicyReceived

        public var status: EnrollmentStatus {
            switch self {
            case .newPoliciesReceived: .newPoliciesReceived
            case .policiesHaveNotChanged: .policiesHaveNotChanged
            case .wipeReceived: .wipeReceived
            case .noPolicyReceived: .noPolicyReceived
            }
        }
    }

    /// Commands for the composed machine (``ComplianceMachine``), which runs this one.
    public enum Action: Sendable, Hashable, Codable {
        /// Send the enrollment request; answer with `enrollmentSucceeded` or `enrollmentFailed`.
        case enroll(AccountID)
        /// Check in for policy; answer with `checkInCompleted` or `checkInFailed`.
        case checkIn(AccountID)
        /// Apply the policy; answer with ``policyApplied(now:)``.
        case applyPolicy(AccountID, MAMPolicy)
        /// Acquire a MAM-service token (scope `https://msmamservice.api.application/.default`)
        /// while the account's tokens still exist; answer with `mamTokenAcquired` or `mamTokenFailed`.
        case acquireMAMToken(AccountID)
        /// Send the unenroll request; answer with `unenrollmentSucceeded` or `unenrollmentFailed`.
        case unenroll(AccountID)
        /// Run a ``SelectiveWipeStateMachine`` for the account; answer with ``wipeCompleted()``.
        case startWipe(AccountID, WipeReason)
        case none
    }

    fileprivate enum State: Sendable, Hashable, Codable {
        /// Not known to the MAM service. Valid transitions:
        ///  - `.enrolling` or `.waitingForSlot` on `register`
        ///  - `.enrolled` on `remediationEnrolled`
        ///  - `.removed` or `.wiping` on `deregister`; `.wiping` on `wipeRequested`
        case unregistered
        /// An enrollment request is in flight. Valid transitions:
        ///  - `.enrolled` on `enrollmentSucceeded` or `remediationEnrolled`
        ///  - `.awaitingRetry` on `enrollmentFailed`
        ///  - `.acquiringUnenrollToken` on `deregister`; `.wiping` on `wipeRequested`
        case enrolling
        /// The last enrollment failed; retry at `retryAt`. Valid transitions:
        ///  - `.enrolling` on `timerFired(.enrollmentRetry)` at or after `retryAt`
        ///  - `.waitingForSlot` on `slotTaken` (another account enrolled)
        ///  - `.enrolled` on `remediationEnrolled`
        ///  - `.removed` or `.wiping` on `deregister`; `.wiping` on `wipeRequested`
        case awaitingRetry(retryAt: Instant, lastFailure: EnrollmentStatus)
        /// Registered, but another account is the app's managed one: retries pause. Valid transitions:
        ///  - `.awaitingRetry` on `slotFreed` (retry 24 h later)
        ///  - `.enrolled` on `remediationEnrolled`
        ///  - `.removed` or `.wiping` on `deregister`; `.wiping` on `wipeRequested`
        case waitingForSlot(lastStatus: EnrollmentStatus)
        /// Enrolled; next check-in at `checkInAt`. Valid transitions:
        ///  - `.checkingIn` on `timerFired(.policyCheckIn)` at or after `checkInAt`
        ///  - `.acquiringUnenrollToken` on `deregister`; `.wiping` on `wipeRequested`
        case enrolled(checkInAt: Instant)
        /// A check-in is in flight. Valid transitions:
        ///  - `.applyingPolicy` on `checkInCompleted(.newPoliciesReceived)`
        ///  - `.enrolled` on `checkInCompleted(.policiesHaveNotChanged / .noPolicyReceived)` or `checkInFailed`
        ///  - `.wiping` on `checkInCompleted(.wipeReceived)` or `wipeRequested`
        ///  - `.acquiringUnenrollToken` on `deregister`
        case checkingIn(dueAt: Instant)
        /// New policy is being applied. Valid transitions:
        ///  - `.enrolled` on `policyApplied`
        ///  - `.acquiringUnenrollToken` on `deregister`; `.wiping` on `wipeRequested`
        case applyingPolicy(MAMPolicy, dueAt: Instant)
        /// Deregistering: getting the MAM token before anything is removed; `wipe` names the
        /// wipe that follows the unenrollment, if any. Valid transitions:
        ///  - `.unenrolling` on `mamTokenAcquired`
        ///  - `.wiping` or `.removed` on `mamTokenFailed`
        case acquiringUnenrollToken(wipe: WipeReason?)
        /// The unenroll request is in flight. Valid transitions:
        ///  - `.wiping` or `.removed` on `unenrollmentSucceeded` / `unenrollmentFailed`
        case unenrolling(wipe: WipeReason?)
        /// A selective wipe runs. Valid transitions:
        ///  - `.removed` on `wipeCompleted`
        case wiping(WipeReason)
        /// Deregistered (late events are ignored). Valid transitions:
        ///  - `.enrolling` or `.waitingForSlot` on `register` (the account is added again)
        ///  - `.enrolled` on `remediationEnrolled` (a remediation enrolled it again)
        ///  - `.wiping` on `deregister` with wipe, or `wipeRequested`
        case removed
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("unregistered", "enrolling", "register"),
        .init("unregistered", "waitingForSlot", "register"),
        .init("unregistered", "enrolled", "remediationEnrolled"),
        .init("unregistered", "removed", "deregister"),
        .init("unregistered", "wiping", "deregister / wipeRequested"),
        .init("enrolling", "enrolled", "enrollmentSucceeded / remediationEnrolled"),
        .init("enrolling", "awaitingRetry", "enrollmentFailed"),
        .init("enrolling", "acquiringUnenrollToken", "deregister"),
        .init("enrolling", "wiping", "wipeRequested"),
        .init("awaitingRetry", "enrolling", "timerFired"),
        .init("awaitingRetry", "waitingForSlot", "slotTaken"),
        .init("awaitingRetry", "enrolled", "remediationEnrolled"),
        .init("awaitingRetry", "removed", "deregister"),
        .init("awaitingRetry", "wiping", "deregister / wipeRequested"),
        .init("waitingForSlot", "awaitingRetry", "slotFreed"),
        .init("waitingForSlot", "enrolled", "remediationEnrolled"),
        .init("waitingForSlot", "removed", "deregister"),
        .init("waitingForSlot", "wiping", "deregister / wipeRequested"),
        .init("enrolled", "checkingIn", "timerFired"),
        .init("enrolled", "acquiringUnenrollToken", "deregister"),
        .init("enrolled", "wiping", "wipeRequested"),
        .init("checkingIn", "applyingPolicy", "checkInCompleted"),
        .init("checkingIn", "enrolled", "checkInCompleted / checkInFailed"),
        .init("checkingIn", "wiping", "checkInCompleted / wipeRequested"),
        .init("checkingIn", "acquiringUnenrollToken", "deregister"),
        .init("applyingPolicy", "enrolled", "policyApplied"),
        .init("applyingPolicy", "acquiringUnenrollToken", "deregister"),
        .init("applyingPolicy", "wiping", "wipeRequested"),
        .init("acquiringUnenrollToken", "acquiringUnenrollToken", "deregister / wipeRequested"),
        .init("acquiringUnenrollToken", "unenrolling", "mamTokenAcquired"),
        .init("acquiringUnenrollToken", "wiping", "mamTokenFailed"),
        .init("acquiringUnenrollToken", "removed", "mamTokenFailed"),
        .init("unenrolling", "unenrolling", "deregister / wipeRequested"),
        .init("unenrolling", "wiping", "unenrollmentSucceeded / unenrollmentFailed"),
        .init("unenrolling", "removed", "unenrollmentSucceeded / unenrollmentFailed"),
        .init("wiping", "removed", "wipeCompleted"),
        .init("removed", "enrolling", "register"),
        .init("removed", "waitingForSlot", "register"),
        .init("removed", "enrolled", "remediationEnrolled"),
        .init("removed", "wiping", "deregister / wipeRequested"),
    ]

    /// The account this machine manages.
    public let account: AccountID
    private var state: State
    private var events: [ComplianceEvent] = []

    /// A machine for an account the MAM service does not know yet.
    public init(account: AccountID) {
        self.account = account
        self.state = .unregistered
    }

    /// The lifecycle state (for the control API and the composed machine).
    public var phase: Phase {
        switch state {
        case .unregistered: .unregistered
        case .enrolling: .enrolling
        case .awaitingRetry: .awaitingRetry
        case .waitingForSlot: .waitingForSlot
        case .enrolled: .enrolled
        case .checkingIn: .checkingIn
        case .applyingPolicy: .applyingPolicy
        case .acquiringUnenrollToken: .acquiringUnenrollToken
        case .unenrolling: .unenrolling
        case .wiping: .wiping
        case .removed: .removed
        }
    }

    /// The states' names, as drawn in README.md.
    public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
        case unregistered, enrolling, awaitingRetry, waitingForSlot, enrolled, checkingIn, applyingPolicy
        case acquiringUnenrollToken, unenrolling, wiping, removed
    }

    public var stateName: String { phase.rawValue }

    /// True while the account is enrolled (including during a check-in).
    public var isEnrolled: Bool {
        switch state {
        case .enrolled, .checkingIn, .applyingPolicy: true
        default: false
        }
    }

    /// True while the account holds (or is taking) the app's one managed slot: an enroll
    /// request in flight, enrolled, or still enrolled at the service while it deregisters.
    public var holdsManagedSlot: Bool {
        switch state {
        case .enrolling, .enrolled, .checkingIn, .applyingPolicy, .acquiringUnenrollToken, .unenrolling: true
        case .unregistered, .awaitingRetry, .waitingForSlot, .wiping, .removed: false
        }
    }

    /// True while the account is being deregistered or wiped.
    public var isLeaving: Bool {
        switch state {
        case .acquiringUnenrollToken, .unenrolling, .wiping: true
        default: false
        }
    }

    /// True when nothing is in flight: the machine waits for a timer or an outside event.
    public var isSettled: Bool {
        switch state {
        case .unregistered, .awaitingRetry, .waitingForSlot, .enrolled, .removed: true
        case .enrolling, .checkingIn, .applyingPolicy, .acquiringUnenrollToken, .unenrolling, .wiping: false
        }
    }

    /// The timer the machine waits for, if any.
    public var dueTimer: (timer: Timer, at: Instant)? {
        switch state {
        case .awaitingRetry(let retryAt, _): (.enrollmentRetry, retryAt)
        case .enrolled(let checkInAt): (.policyCheckIn, checkInAt)
        default: nil
        }
    }

    /// The wipe the deregistration in progress ends with, if any.
    public var pendingWipe: WipeReason? {
        switch state {
        case .acquiringUnenrollToken(let wipe), .unenrolling(let wipe): wipe
        case .wiping(let reason): reason
        default: nil
        }
    }

    public mutating func takeEvents() -> [ComplianceEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: - Registration and enrollment

    /// The app registered the account (registerAndEnrollAccount): enroll now, or, when
    /// another account is the app's managed one (`slotHeldElsewhere`), report 227 and wait
    /// for it to leave.
    public mutating func register(now: Instant, slotHeldElsewhere: Bool = false) -> Action {
        switch state {
        case .unregistered, .removed:
            if slotHeldElsewhere {
                events.append(.enrollment(EnrollmentReport(account: account, status: .singleManagedAccountMode)))
                state = .waitingForSlot(lastStatus: .singleManagedAccountMode)
            } else {
                state = .enrolling
            }
            return stepAction()
        case .enrolling, .awaitingRetry, .waitingForSlot, .enrolled, .checkingIn, .applyingPolicy:
            return .none  // already registered
        case .acquiringUnenrollToken, .unenrolling, .wiping:
            preconditionFailure("register() while deregistering; wait for it to finish. Invalid state: \(state)")
        }
    }

    /// Another account became the app's managed one: a waiting retry pauses.
    public mutating func slotTaken() -> Action {
        guard case .awaitingRetry(_, let lastFailure) = state else { return .none }
        state = .waitingForSlot(lastStatus: lastFailure)
        return stepAction()
    }

    /// The app's managed account left (unenrolled, wiped, removed): paused retries begin
    /// again, the next one 24 h from `now`.
    public mutating func slotFreed(now: Instant) -> Action {
        guard case .waitingForSlot(let lastStatus) = state else { return .none }
        state = .awaitingRetry(retryAt: now.advanced(by: Self.enrollmentRetryInterval), lastFailure: lastStatus)
        return stepAction()
    }

    /// A remediation enrolled the account on its own; start the check-in schedule.
    public mutating func remediationEnrolled(now: Instant) -> Action {
        switch state {
        case .unregistered, .awaitingRetry, .waitingForSlot, .enrolling, .removed:
            state = .enrolled(checkInAt: now.advanced(by: Self.policyCheckInInterval))
            return stepAction()
        case .enrolled, .checkingIn, .applyingPolicy, .acquiringUnenrollToken, .unenrolling, .wiping:
            return .none
        }
    }

    /// The enrollment request succeeded (100, 103 or 208).
    public mutating func enrollmentSucceeded(_ status: EnrollmentStatus, now: Instant) -> Action {
        precondition(status.isSuccess || status == .alreadyEnrolled, "enrollmentSucceeded() with failure status \(status). Invalid state: \(state)")
        switch state {
        case .enrolling:
            events.append(.enrollment(EnrollmentReport(account: account, status: status)))
            state = .enrolled(checkInAt: now.advanced(by: Self.policyCheckInInterval))
            return stepAction()
        case .acquiringUnenrollToken, .unenrolling, .wiping, .removed:
            return lateAnswerReported(.enrollment(EnrollmentReport(account: account, status: status)))
        case .unregistered, .awaitingRetry, .waitingForSlot, .enrolled, .checkingIn, .applyingPolicy:
            preconditionFailure("enrollmentSucceeded() without an enrollment in flight. Invalid state: \(state)")
        }
    }

    /// The enrollment request failed with a 2xx status (or the network failed: 205).
    public mutating func enrollmentFailed(_ status: EnrollmentStatus, now: Instant) -> Action {
        precondition(!status.isSuccess, "enrollmentFailed() with success status \(status). Invalid state: \(state)")
        switch state {
        case .enrolling:
            events.append(.enrollment(EnrollmentReport(account: account, status: status)))
            state = .awaitingRetry(retryAt: now.advanced(by: Self.enrollmentRetryInterval), lastFailure: status)
            return stepAction()
        case .acquiringUnenrollToken, .unenrolling, .wiping, .removed:
            return lateAnswerReported(.enrollment(EnrollmentReport(account: account, status: status)))
        case .unregistered, .awaitingRetry, .waitingForSlot, .enrolled, .checkingIn, .applyingPolicy:
            preconditionFailure("enrollmentFailed() without an enrollment in flight. Invalid state: \(state)")
        }
    }

    /// An answer to a request the machine no longer waits for (it moved on while the request
    /// was in flight): the app is told, exactly once, and nothing else changes. Valid in
    /// every state; the notification is stored with the caller's next commit.
    public mutating func lateAnswerReported(_ notification: ComplianceEvent) -> Action {
        events.append(notification)
        return .none
    }

    /// A timer the machine waits for (``dueTimer``) fired.
    public mutating func timerFired(_ timer: Timer, now: Instant) -> Action {
        switch (state, timer) {
        case (.awaitingRetry(let retryAt, _), .enrollmentRetry):
            guard now >= retryAt else { return .none }  // early: still due at ``dueTimer``
            state = .enrolling
            return stepAction()
        case (.enrolled(let checkInAt), .policyCheckIn):
            guard now >= checkInAt else { return .none }
            state = .checkingIn(dueAt: checkInAt)
            return .checkIn(account)
        default:
            return .none  // a stale timer
        }
    }

    // MARK: - Check-in

    /// A policy check-in answered 100, 101, 102 or 103.
    public mutating func checkInCompleted(_ outcome: CheckInOutcome, now: Instant) -> Action {
        guard case .checkingIn(let dueAt) = state else {
            if isTerminalOrLeaving { return lateAnswerReported(.policy(EnrollmentReport(account: account, status: outcome.status))) }
            preconditionFailure("checkInCompleted() without a check-in in flight. Invalid state: \(state)")
        }
        events.append(.policy(EnrollmentReport(account: account, status: outcome.status)))
        switch outcome {
        case .newPoliciesReceived(let policy):
            state = .applyingPolicy(policy, dueAt: dueAt)
            return .applyPolicy(account, policy)
        case .policiesHaveNotChanged, .noPolicyReceived:
            state = .enrolled(checkInAt: now.advanced(by: Self.policyCheckInInterval))
            return stepAction()
        case .wipeReceived:
            state = .wiping(.adminCommand)
            return stepAction()
        }
    }

    /// A policy check-in failed (network 212, service 201, parsing 206, timeout 216, …);
    /// the next one runs after the usual interval.
    public mutating func checkInFailed(_ status: EnrollmentStatus, now: Instant) -> Action {
        precondition(!status.isSuccess, "checkInFailed() with success status \(status). Invalid state: \(state)")
        guard case .checkingIn = state else {
            if isTerminalOrLeaving { return lateAnswerReported(.policy(EnrollmentReport(account: account, status: status))) }
            preconditionFailure("checkInFailed() without a check-in in flight. Invalid state: \(state)")
        }
        events.append(.policy(EnrollmentReport(account: account, status: status)))
        state = .enrolled(checkInAt: now.advanced(by: Self.policyCheckInInterval))
        return stepAction()
    }

    /// The policy from ``Action/applyPolicy(_:_:)`` is in force.
    public mutating func policyApplied(now: Instant) -> Action {
        guard case .applyingPolicy = state else {
            if isTerminalOrLeaving { return .none }
            preconditionFailure("policyApplied() without a policy being applied. Invalid state: \(state)")
        }
        state = .enrolled(checkInAt: now.advanced(by: Self.policyCheckInInterval))
        return stepAction()
    }

    // MARK: - Deregistration and wipes

    /// The app deregisters the account (deRegisterAndUnenrollAccount:withWipe:), before it
    /// removes the account's tokens. Stops retries and check-ins; an enrolled account is
    /// unenrolled at the service first. `reason` names the wipe that follows (`nil`: none).
    /// A deregistration under way is upgraded to wipe when this one asks for it; an account
    /// already removed is wiped when asked.
    public mutating func deregister(wipe reason: WipeReason?) -> Action {
        switch state {
        case .enrolling, .enrolled, .checkingIn, .applyingPolicy:
            state = .acquiringUnenrollToken(wipe: reason)
            return stepAction()
        case .unregistered, .awaitingRetry, .waitingForSlot:
            finishDeregistration(wipe: reason, unenrollStatus: .unenrollmentSuccess)
            return stepAction()
        case .acquiringUnenrollToken(let current):
            // Coalesced; a request to wipe upgrades the one under way (stored with the caller's
            // next commit; the step in flight goes on).
            if current == nil, let reason { state = .acquiringUnenrollToken(wipe: reason) }
            return .none
        case .unenrolling(let current):
            if current == nil, let reason { state = .unenrolling(wipe: reason) }
            return .none
        case .wiping:
            return .none
        case .removed:
            guard let reason else { return .none }
            state = .wiping(reason)
            return stepAction()
        }
    }

    /// ``deregister(wipe:)`` with a Boolean: `true` wipes for ``WipeReason/deregistered``.
    public mutating func deregister(wipe: Bool) -> Action {
        deregister(wipe: wipe ? WipeReason.deregistered : nil)
    }

    /// The account's data must go now, without telling the service (a failed remediation of
    /// an account holding managed data). A deregistration under way ends with this wipe.
    public mutating func wipeRequested(_ reason: WipeReason) -> Action {
        switch state {
        case .unregistered, .enrolling, .awaitingRetry, .waitingForSlot, .enrolled, .checkingIn, .applyingPolicy, .removed:
            state = .wiping(reason)
            return stepAction()
        case .acquiringUnenrollToken(let current):
            if current == nil { state = .acquiringUnenrollToken(wipe: reason) }
            return .none
        case .unenrolling(let current):
            if current == nil { state = .unenrolling(wipe: reason) }
            return .none
        case .wiping:
            return .none
        }
    }

    /// The MAM-service token for the unenroll request is available (the composed machine acquired it).
    public mutating func mamTokenAcquired() -> Action {
        switch state {
        case .acquiringUnenrollToken(let wipe):
            state = .unenrolling(wipe: wipe)
            return .unenroll(account)
        case .removed, .wiping:
            return .none
        default:
            preconditionFailure("mamTokenAcquired() while not deregistering. Invalid state: \(state)")
        }
    }

    /// No MAM-service token could be obtained: the service cannot be told, but local
    /// removal still happens; reported as 203 AuthRequired.
    public mutating func mamTokenFailed() -> Action {
        switch state {
        case .acquiringUnenrollToken(let wipe):
            finishDeregistration(wipe: wipe, unenrollStatus: .authRequired)
            return stepAction()
        case .removed, .wiping:
            return .none
        default:
            preconditionFailure("mamTokenFailed() while not deregistering. Invalid state: \(state)")
        }
    }

    /// The service confirmed the unenrollment.
    public mutating func unenrollmentSucceeded() -> Action {
        unenrollmentFinished(.unenrollmentSuccess)
    }

    /// The unenroll request failed; the account is removed locally all the same.
    public mutating func unenrollmentFailed(_ status: EnrollmentStatus) -> Action {
        unenrollmentFinished(status)
    }

    /// The selective wipe started by ``Action/startWipe(_:_:)`` reached `done`.
    public mutating func wipeCompleted() -> Action {
        switch state {
        case .wiping(let reason):
            if reason == .adminCommand {
                events.append(.unenroll(EnrollmentReport(account: account, status: .unenrollmentSuccess)))
            }
            state = .removed
            return stepAction()
        case .removed:
            return .none
        default:
            preconditionFailure("wipeCompleted() without a wipe running. Invalid state: \(state)")
        }
    }

    /// After a rebuild from a snapshot: re-arms timers and re-issues interrupted steps.
    public mutating func resumed() -> Action {
        return stepAction()
    }

    // MARK: - Internals

    private var isTerminalOrLeaving: Bool {
        switch state {
        case .acquiringUnenrollToken, .unenrolling, .wiping, .removed: true
        default: false
        }
    }

    private mutating func unenrollmentFinished(_ status: EnrollmentStatus) -> Action {
        switch state {
        case .unenrolling(let wipe):
            finishDeregistration(wipe: wipe, unenrollStatus: status)
            return stepAction()
        case .removed, .wiping:
            return .none
        default:
            preconditionFailure("unenrollment result while no unenroll request is in flight. Invalid state: \(state)")
        }
    }

    private mutating func finishDeregistration(wipe: WipeReason?, unenrollStatus: EnrollmentStatus) {
        events.append(.unenroll(EnrollmentReport(account: account, status: unenrollStatus)))
        state = wipe.map { .wiping($0) } ?? .removed
    }

    /// The step the state asks for, after an event or a rebuild (``resumed()``).
    private func stepAction() -> Action {
        switch state {
        case .unregistered, .removed, .waitingForSlot: .none
        case .awaitingRetry, .enrolled, .checkingIn, .applyingPolicy: .none  // waits for ``dueTimer``
        case .enrolling: .enroll(account)
        case .acquiringUnenrollToken, .unenrolling: .acquireMAMToken(account)
        case .wiping(let reason): .startWipe(account, reason)
        }
    }

}

// MARK: - Persistence

extension EnrollmentStateMachine {
    /// The lifecycle state to store: converts to and from JSON. A check-in or policy
    /// application in flight is stored as "enrolled, check-in due", so it is redone.
    public struct Snapshot: Sendable, Hashable, Codable {
        fileprivate let account: AccountID
        fileprivate let state: State

        fileprivate init(account: AccountID, state: State) {
            self.account = account
            switch state {
            case .checkingIn(let dueAt), .applyingPolicy(_, let dueAt): self.state = .enrolled(checkInAt: dueAt)
            case .unenrolling(let wipe): self.state = .acquiringUnenrollToken(wipe: wipe)
            default: self.state = state
            }
        }

        /// `{"machine":"enrollment","version":1,"account":…,"state":…, …}`.
        public var json: JSONValue {
            var object = JSONObject([("machine", "enrollment"), ("version", 1), ("account", account.stored)])
            switch state {
            case .unregistered: object["state"] = "unregistered"
            case .enrolling: object["state"] = "enrolling"
            case .awaitingRetry(let retryAt, let lastFailure):
                object["state"] = "awaitingRetry"
                object["retryAt"] = .int(retryAt.millisecondsSinceEpoch)
                object["lastFailure"] = .int(Int64(lastFailure.rawValue))
            case .waitingForSlot(let lastStatus):
                object["state"] = "waitingForSlot"
                object["lastFailure"] = .int(Int64(lastStatus.rawValue))
            case .enrolled(let checkInAt), .checkingIn(let checkInAt), .applyingPolicy(_, let checkInAt):
                object["state"] = "enrolled"
                object["checkInAt"] = .int(checkInAt.millisecondsSinceEpoch)
            case .acquiringUnenrollToken(let wipe), .unenrolling(let wipe):
                object["state"] = "deregistering"
                object["wipe"] = .bool(wipe != nil)
                if let wipe { object["wipeReason"] = .string(wipe.rawValue) }
            case .wiping(let reason):
                object["state"] = "wiping"
                object["reason"] = .string(reason.rawValue)
            case .removed: object["state"] = "removed"
            }
            return .object(object)
        }

        public init(json: JSONValue) throws(StoredValueError) {
            let reader = try StoredReader(json, path: "enrollment")
            guard try reader.string("machine") == "enrollment" else { throw reader.invalid("machine", "not an enrollment snapshot") }
            try reader.checkVersion(1)
            account = try reader.account("account")
            let name = try reader.string("state")
            switch name {
            case "unregistered": state = .unregistered
            case "enrolling": state = .enrolling
            case "awaitingRetry", "waitingForSlot":
                let code = try reader.int("lastFailure")
                guard let status = EnrollmentStatus(rawValue: Int(truncatingIfNeeded: code)) else {
                    throw reader.invalid("lastFailure", "unknown enrollment status \(code)")
                }
                state = name == "awaitingRetry"
                    ? .awaitingRetry(retryAt: try reader.instant("retryAt"), lastFailure: status) : .waitingForSlot(lastStatus: status)
            case "enrolled": state = .enrolled(checkInAt: try reader.instant("checkInAt"))
            case "deregistering":
                var reason: WipeReason?
                if try reader.bool("wipe") {
                    reason = .deregistered
                    if reader.has("wipeReason") {
                        let text = try reader.string("wipeReason")
                        guard let parsed = WipeReason(rawValue: text) else { throw reader.invalid("wipeReason", "unknown reason \"\(text)\"") }
                        reason = parsed
                    }
                }
                state = .acquiringUnenrollToken(wipe: reason)
            case "wiping":
                let text = try reader.string("reason")
                guard let reason = WipeReason(rawValue: text) else { throw reader.invalid("reason", "unknown reason \"\(text)\"") }
                state = .wiping(reason)
            case "removed": state = .removed
            default: throw reader.invalid("state", "unknown state \"\(name)\"")
            }
        }
    }

    public var snapshot: Snapshot { Snapshot(account: account, state: state) }

    /// True when a stored snapshot says the account holds the managed slot (enrolled, or
    /// still enrolled while it deregisters).
    public static func holdsManagedSlot(stored json: JSONValue) -> Bool {
        guard let snapshot = try? Snapshot(json: json) else { return false }
        return EnrollmentStateMachine(restoring: snapshot).holdsManagedSlot
    }

    /// Rebuilds the machine from a stored snapshot; call ``resumed()`` next.
    public init(restoring snapshot: Snapshot) {
        account = snapshot.account
        state = snapshot.state
    }
}
