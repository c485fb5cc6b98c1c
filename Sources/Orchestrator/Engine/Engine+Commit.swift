import ComplianceCore
import Glibc
import JSON

/// Machine steps and their commits: every machine call drains its observer events; every
/// `.persist` is committed (snapshot + pending events, one transaction) before the machine
/// hears `persisted()`.
extension Engine {
    func remediationStep(_ body: (inout RemediationStateMachine) -> RemediationStateMachine.Action) -> RemediationStateMachine.Action {
        let action = body(&remediation)
        pendingEvents += remediation.takeEvents()
        traceAction("remediation", action, state: remediation.stateName)
        return action
    }

    func allowedAccountsStep(_ body: (inout AllowedAccountsStateMachine) -> AllowedAccountsStateMachine.Action) -> AllowedAccountsStateMachine.Action {
        let action = body(&allowedAccounts)
        pendingEvents += allowedAccounts.takeEvents()
        traceAction("allowedAccounts", action, state: allowedAccounts.stateName)
        return action
    }

    func enrollmentStep(_ account: AccountID, _ body: (inout EnrollmentStateMachine) -> EnrollmentStateMachine.Action) -> EnrollmentStateMachine.Action {
        var machine = enrollments[account] ?? EnrollmentStateMachine(account: account)
        let action = body(&machine)
        pendingEvents += machine.takeEvents()
        enrollments[account] = machine
        traceAction("enrollment", action, state: machine.stateName, account: account)
        return action
    }

    func wipeStep(_ account: AccountID, _ body: (inout SelectiveWipeStateMachine) -> SelectiveWipeStateMachine.Action) -> SelectiveWipeStateMachine.Action {
        var machine = wipes[account] ?? SelectiveWipeStateMachine(account: account)
        let action = body(&machine)
        pendingEvents += machine.takeEvents()
        wipes[account] = machine
        traceAction("wipe", action, state: machine.stateName, account: account)
        return action
    }

    /// Logs each machine action at trace level before it runs (STYLE: as postgres-nio does).
    /// Actions print no secrets: tokens are ``SecretToken``s, which print redacted.
    private func traceAction(_ machine: String, _ action: some Sendable, state: String, account: AccountID? = nil) {
        logger.trace("machine action", metadata: [
            "machine": "\(machine)", "machine.state": "\(state)", "machine.action": "\(action)", "account.id": "\(account.map(\.upn) ?? "-")",
        ])
    }

    /// Commits `write` and the pending events in one transaction, then stops the process if
    /// a crash point matches (`machine:state`). A failed commit is fatal for the step: the
    /// machines are reloaded from the store (the last committed truth) and the error returned.
    func commit(_ machine: String, state: String, _ write: (StoreTransaction) throws -> Void) throws(EngineError) {
        let events = pendingEvents
        let records = pendingRecords
        pendingEvents = []
        pendingRecords = []
        do {
            try store.writeSync { transaction in
                try write(transaction)
                for record in records { _ = try transaction.appendEvent(record.kind, account: record.account, payload: .object(record.payload)) }
                for event in events { try append(event, in: transaction) }
            }
        } catch {
            logger.critical("commit failed; reloading machines from the store", metadata: ["machine.name": "\(machine)", "machine.state": "\(state)", "error.message": "\(error)"])
            try? loadMachines()
            throw EngineError(.internalError, "cannot commit \(machine) state \(state): \(error)")
        }
        logger.debug("committed", metadata: ["machine.name": "\(machine)", "machine.state": "\(state)"])
        commitCounts["\(machine):\(state)", default: 0] += 1
        crashIfArmed(machine: machine, state: state)
    }

    /// Writes the pending observer events (when a step had nothing else to commit).
    func flushEvents() {
        guard !pendingEvents.isEmpty || !pendingRecords.isEmpty else { return }
        try? commit("events", state: "flush") { _ in }
    }

    /// Appends an event of the engine's own to the log.
    func record(_ kind: String, account: AccountID?, _ payload: JSONObject) {
        flushEvents()
        do {
            try store.writeSync { _ = try $0.appendEvent(kind, account: account, payload: .object(payload)) }
        } catch {
            logger.error("cannot record event", metadata: ["event.kind": "\(kind)", "error.message": "\(error)"])
        }
    }

    private func append(_ event: ComplianceEvent, in transaction: StoreTransaction) throws {
        let entry = EngineJSON.event(event)
        switch event {
        case .enrollment(let report), .policy(let report), .unenroll(let report):
            lastEnrollmentStatus[report.account] = report.status
            try transaction.setLastEnrollmentStatus(report.status.rawValue, for: report.account)
        default:
            break
        }
        _ = try transaction.appendEvent(entry.kind, account: entry.account, payload: entry.payload)
    }

    // MARK: - Crash points (test hook)

    /// Every `machine:state` a snapshot is committed in.
    public static var crashPoints: [String] {
        func points(_ machine: String, _ transitions: [DocumentedTransition]) -> [String] {
            var seen: [String] = []
            for state in transitions.map(\.to) where !seen.contains(state) { seen.append(state) }
            return seen.map { "\(machine):\($0)" }
        }
        return (points("remediation", RemediationStateMachine.documentedTransitions)
            + points("enrollment", EnrollmentStateMachine.documentedTransitions)
            + points("wipe", SelectiveWipeStateMachine.documentedTransitions)
            + points("allowedAccounts", AllowedAccountsStateMachine.documentedTransitions))
            .filter { !neverPersisted.contains($0) }
    }

    /// States the machines pass through without asking to persist: a check-in and a policy it
    /// brings are stored as the `enrolled` they return to, an unenroll request as the
    /// deregistration that started it, and a wipe's first snapshot is already its intent. A
    /// remediation's enroll, compliance report and token retry are idempotent and resume from
    /// the stored step before them (`acquiringMAMToken`, `applyingPolicy`, `awaitingRestart`).
    static let neverPersisted: Set<String> = [
        "enrollment:checkingIn", "enrollment:applyingPolicy", "enrollment:unenrolling", "wipe:idle",
        "remediation:enrolling", "remediation:reportingCompliance", "remediation:retryingTokenRequest",
    ]

    /// Arms the test hook: the process kills itself (SIGKILL) right after the `occurrence`-th
    /// commit of `point`.
    public func armCrash(at point: String, occurrence: Int = 1) throws(EngineError) {
        guard Self.crashPoints.contains(point) else {
            throw EngineError(.badRequest, "unknown crash point \(point); known: \(Self.crashPoints.joined(separator: ", "))")
        }
        guard occurrence >= 1 else { throw EngineError(.badRequest, "occurrence must be at least 1") }
        crashPoint = CrashPoint(point: point, remaining: occurrence)
        logger.warning("crash point armed", metadata: ["test.crashPoint": "\(point)", "test.occurrence": "\(occurrence)"])
    }

    /// How often each `machine:state` was committed since start (for crash-point coverage).
    public func committedPoints() -> [String: Int] {
        commitCounts
    }

    private func crashIfArmed(machine: String, state: String) {
        guard var armed = crashPoint, armed.point == "\(machine):\(state)" else { return }
        armed.remaining -= 1
        crashPoint = armed
        guard armed.remaining == 0 else { return }
        logger.warning("crash point reached: killing the process", metadata: ["test.crashPoint": "\(armed.point)"])
        Self.leaveCrashMarker(armed.point, in: store.stateDirectory)
        kill(getpid(), SIGKILL)
    }

    /// The file a daemon leaves in its state directory right before it kills itself at an
    /// armed crash point, holding that point's name: how a test tells this death from any other.
    public static let crashMarkerName = "crash-point-reached"

    /// Writes ``crashMarkerName`` (the point and a newline) with plain system calls; the
    /// kernel keeps the page after the SIGKILL that follows.
    private static func leaveCrashMarker(_ point: String, in directory: String) {
        let descriptor = open(directory + "/" + crashMarkerName, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let line = Array((point + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}

/// An armed test crash point.
struct CrashPoint: Sendable {
    var point: String
    var remaining: Int
}
