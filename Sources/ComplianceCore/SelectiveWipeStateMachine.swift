import JSON

/// The journaled selective wipe of one account: intent → tokens → vault → enrollment → done.
///
/// Each step is persisted before its side effect runs, and every side effect is
/// idempotent, so a machine rebuilt from the last stored ``Snapshot`` and sent
/// ``resumed()`` re-issues the step that may not have finished and reaches `done`
/// whatever the crash point. Only the account's own tokens, vault files and enrollment
/// are named in actions; another account's data is never touched.
///
/// Protocol: an event returns ``Action/persist(_:)``; the Orchestrator stores the
/// snapshot and calls ``persisted()``, which returns the step to run; when the step
/// completes it calls the matching event (`tokensRemoved()`, …).
public struct SelectiveWipeStateMachine: Sendable {
    /// Commands for the Orchestrator.
    public enum Action: Sendable, Hashable {
        /// Store the snapshot (replacing the previous one), then call ``persisted()``.
        case persist(Snapshot)
        /// Delete the account's access, refresh and id tokens; then call ``tokensRemoved()``.
        case removeTokens(AccountID)
        /// Delete the account's vault files (running the app's wipe hook first when asked);
        /// then call ``vaultRemoved()``.
        case removeVaultFiles(AccountID, runAppHook: Bool)
        /// Delete the account's enrollment record and policy; then call ``enrollmentRemoved()``.
        case removeEnrollment(AccountID)
        /// The wipe is complete (the journal says `done`).
        case finished(AccountID)
        /// Nothing to do.
        case none
    }

    /// What a wipe was asked for.
    public struct Wipe: Sendable, Hashable {
        public var account: AccountID
        public var reason: WipeReason
        public var runAppHook: Bool

        public init(account: AccountID, reason: WipeReason, runAppHook: Bool) {
            self.account = account
            self.reason = reason
            self.runAppHook = runAppHook
        }
    }

    fileprivate enum State: Sendable, Hashable {
        /// No wipe recorded. Valid transitions:
        ///  - `.intentRecorded` on `wipeRequested`
        case idle(AccountID)
        /// The intent is journaled; tokens are being removed. Valid transitions:
        ///  - `.tokensRemoved` on `tokensRemoved`
        case intentRecorded(Wipe)
        /// Tokens are gone; vault files are being removed. Valid transitions:
        ///  - `.vaultRemoved` on `vaultRemoved`
        case tokensRemoved(Wipe)
        /// Vault files are gone; the enrollment is being removed. Valid transitions:
        ///  - `.done` on `enrollmentRemoved`
        case vaultRemoved(Wipe)
        /// Terminal for this wipe; late step events are ignored. Valid transitions:
        ///  - `.intentRecorded` on `wipeRequested` (the account is wiped again later)
        case done(AccountID, WipeReason)
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("idle", "intentRecorded", "wipeRequested"),
        .init("intentRecorded", "tokensRemoved", "tokensRemoved"),
        .init("tokensRemoved", "vaultRemoved", "vaultRemoved"),
        .init("vaultRemoved", "done", "enrollmentRemoved"),
        .init("done", "intentRecorded", "wipeRequested"),
    ]

    private var state: State
    private var awaitingPersist = false
    private var events: [ComplianceEvent] = []

    /// A machine for `account` with nothing to wipe.
    public init(account: AccountID) {
        self.state = .idle(account)
    }

    /// The account this machine wipes.
    public var account: AccountID {
        switch state {
        case .idle(let account), .done(let account, _): account
        case .intentRecorded(let wipe), .tokensRemoved(let wipe), .vaultRemoved(let wipe): wipe.account
        }
    }

    /// The state's name as drawn in README.md.
    public var stateName: String { Self.name(of: state) }

    /// True once the journal says `done` and nothing of the account's data is left.
    public var isFinished: Bool {
        if case .done = state { return true }
        return false
    }

    /// Observer notifications collected since the last call (`wipeStarted`, `wipeFinished`).
    public mutating func takeEvents() -> [ComplianceEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: - Events

    /// A wipe was asked for (deregister, admin command, allowed-list change, failed remediation).
    /// A request while a wipe is under way is coalesced into it.
    public mutating func wipeRequested(reason: WipeReason, runAppHook: Bool) -> Action {
        checkNotAwaitingPersist()
        switch state {
        case .idle(let account), .done(let account, _):
            state = .intentRecorded(Wipe(account: account, reason: reason, runAppHook: runAppHook))
            events.append(.wipeStarted(account, reason))
            return persist()
        case .intentRecorded, .tokensRemoved, .vaultRemoved:
            return .none
        }
    }

    /// The snapshot from the last ``Action/persist(_:)`` is stored.
    public mutating func persisted() -> Action {
        guard awaitingPersist else {
            preconditionFailure("persisted() without a pending persist action. Invalid state: \(state)")
        }
        awaitingPersist = false
        return stepAction()
    }

    /// After a rebuild from a snapshot: the step to (re-)run.
    public mutating func resumed() -> Action {
        checkNotAwaitingPersist()
        return stepAction()
    }

    /// The account's tokens are deleted.
    public mutating func tokensRemoved() -> Action {
        checkNotAwaitingPersist()
        switch state {
        case .intentRecorded(let wipe):
            state = .tokensRemoved(wipe)
            return persist()
        case .done:
            return .none
        case .idle, .tokensRemoved, .vaultRemoved:
            preconditionFailure("tokensRemoved() while not removing tokens. Invalid state: \(state)")
        }
    }

    /// The account's vault files are deleted (and the app hook ran, if asked).
    public mutating func vaultRemoved() -> Action {
        checkNotAwaitingPersist()
        switch state {
        case .tokensRemoved(let wipe):
            state = .vaultRemoved(wipe)
            return persist()
        case .done:
            return .none
        case .idle, .intentRecorded, .vaultRemoved:
            preconditionFailure("vaultRemoved() while not removing vault files. Invalid state: \(state)")
        }
    }

    /// The account's enrollment record is deleted.
    public mutating func enrollmentRemoved() -> Action {
        checkNotAwaitingPersist()
        switch state {
        case .vaultRemoved(let wipe):
            state = .done(wipe.account, wipe.reason)
            events.append(.wipeFinished(wipe.account))
            return persist()
        case .done:
            return .none
        case .idle, .intentRecorded, .tokensRemoved:
            preconditionFailure("enrollmentRemoved() while not removing the enrollment. Invalid state: \(state)")
        }
    }

    // MARK: - Internals

    private func stepAction() -> Action {
        switch state {
        case .idle: .none
        case .intentRecorded(let wipe): .removeTokens(wipe.account)
        case .tokensRemoved(let wipe): .removeVaultFiles(wipe.account, runAppHook: wipe.runAppHook)
        case .vaultRemoved(let wipe): .removeEnrollment(wipe.account)
        case .done(let account, _): .finished(account)
        }
    }

    private mutating func persist() -> Action {
        awaitingPersist = true
        return .persist(snapshot)
    }

    private func checkNotAwaitingPersist() {
        if awaitingPersist {
            preconditionFailure("event before persisted() for the pending persist action. Invalid state: \(state)")
        }
    }
}

// MARK: - Persistence

extension SelectiveWipeStateMachine {
    /// The journal entry to store: converts to and from JSON.
    public struct Snapshot: Sendable, Hashable {
        fileprivate let state: State

        /// `{"machine":"selectiveWipe","version":1,"step":…,"account":…,"reason":…,"runAppHook":…}`.
        public var json: JSONValue {
            var object = JSONObject([("machine", "selectiveWipe"), ("version", 1)])
            switch state {
            case .idle(let account):
                object["step"] = "idle"
                object["account"] = account.stored
            case .intentRecorded(let wipe), .tokensRemoved(let wipe), .vaultRemoved(let wipe):
                object["step"] = .string(SelectiveWipeStateMachine.name(of: state))
                object["account"] = wipe.account.stored
                object["reason"] = .string(wipe.reason.rawValue)
                object["runAppHook"] = .bool(wipe.runAppHook)
            case .done(let account, let reason):
                object["step"] = "done"
                object["account"] = account.stored
                object["reason"] = .string(reason.rawValue)
            }
            return .object(object)
        }

        fileprivate init(state: State) { self.state = state }

        /// Reads a stored journal entry.
        public init(json: JSONValue) throws(StoredValueError) {
            let reader = try StoredReader(json, path: "selectiveWipe")
            guard try reader.string("machine") == "selectiveWipe" else { throw reader.invalid("machine", "not a selective wipe journal") }
            try reader.checkVersion(1)
            let account = try reader.account("account")
            let step = try reader.string("step")
            if step == "idle" {
                state = .idle(account)
                return
            }
            let reasonText = try reader.string("reason")
            guard let reason = WipeReason(rawValue: reasonText) else { throw reader.invalid("reason", "unknown reason \"\(reasonText)\"") }
            if step == "done" {
                state = .done(account, reason)
                return
            }
            let wipe = Wipe(account: account, reason: reason, runAppHook: try reader.bool("runAppHook"))
            switch step {
            case "intentRecorded": state = .intentRecorded(wipe)
            case "tokensRemoved": state = .tokensRemoved(wipe)
            case "vaultRemoved": state = .vaultRemoved(wipe)
            default: throw reader.invalid("step", "unknown step \"\(step)\"")
            }
        }
    }

    /// The current state as a snapshot.
    public var snapshot: Snapshot { Snapshot(state: state) }

    /// Rebuilds the machine from a stored snapshot; call ``resumed()`` next.
    public init(restoring snapshot: Snapshot) {
        self.state = snapshot.state
    }

    fileprivate static func name(of state: State) -> String {
        switch state {
        case .idle: "idle"
        case .intentRecorded: "intentRecorded"
        case .tokensRemoved: "tokensRemoved"
        case .vaultRemoved: "vaultRemoved"
        case .done: "done"
        }
    }
}
