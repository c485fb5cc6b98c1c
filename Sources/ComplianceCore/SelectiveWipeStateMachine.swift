import JSON

/// The journaled selective wipe of one account: intent → tokens → the app's hook → vault →
/// enrollment → done.
///
/// The app's wipe hook (the SDK's `wipeDataForAccount`) runs before the daemon touches the
/// account's files. Its answer (seed 004: `true`, exit status 0, says the app removed the
/// account's data itself) covers the app's own storage only: the vault is the daemon's, so
/// every wipe then removes the account's vault directory — its key, its manifest and any file
/// the app left there — whatever the hook answered. Nothing written before a wipe is readable
/// after it. `wipeFinished` comes after the vault step in every case.
///
/// Each step is persisted before its side effect runs, and every side effect is
/// idempotent, so a machine rebuilt from the last stored ``Snapshot`` and sent
/// ``resumed()`` re-issues the step that may not have finished and reaches `done`
/// whatever the crash point; a wipe stored `done` is never run again. Only the account's
/// own tokens, vault files and enrollment are named in actions; another account's data is
/// never touched. Each wipe has a ``Wipe/generation`` (1, 2, … per account), so a step can
/// be told apart from the same step of a later wipe.
///
/// Protocol: an event returns the step to run; the composed machine stores the changed
/// snapshot with its step before the step runs, and when the step completes it calls the
/// matching event (`tokensRemoved()`, …).
public struct SelectiveWipeStateMachine: Sendable, Hashable, Codable {
    /// Commands for the composed machine (``ComplianceMachine``), which runs this one.
    public enum Action: Sendable, Hashable, Codable {
        /// Delete the account's access, refresh and id tokens; then call ``tokensRemoved()``.
        case removeTokens(AccountID)
        /// Run the app's wipe hook for the account; then call ``appHookFinished(removedData:outcome:)``.
        case runAppHook(AccountID)
        /// Delete the account's vault files; then call ``vaultRemoved()``.
        case removeVaultFiles(AccountID)
        /// Delete the account's enrollment record and policy; then call ``enrollmentRemoved()``.
        case removeEnrollment(AccountID)
        /// The wipe is complete (the journal says `done`).
        case finished(AccountID)
        /// Nothing to do.
        case none
    }

    /// What a wipe was asked for.
    public struct Wipe: Sendable, Hashable, Codable {
        public var account: AccountID
        public var reason: WipeReason
        public var runAppHook: Bool
        /// 1 for the account's first wipe, 2 for the next, …
        public var generation: Int

        public init(account: AccountID, reason: WipeReason, runAppHook: Bool, generation: Int = 1) {
            self.account = account
            self.reason = reason
            self.runAppHook = runAppHook
            self.generation = generation
        }
    }

    fileprivate enum State: Sendable, Hashable, Codable {
        /// No wipe recorded. Valid transitions:
        ///  - `.intentRecorded` on `wipeRequested`
        case idle(AccountID)
        /// The intent is journaled; tokens are being removed. Valid transitions:
        ///  - `.tokensRemoved` on `tokensRemoved`
        case intentRecorded(Wipe)
        /// Tokens are gone; the app's hook runs (when it has one), else the vault files go.
        /// Valid transitions:
        ///  - `.appHookFinished` on `appHookFinished` (whatever the app answered)
        ///  - `.vaultRemoved` on `vaultRemoved` (no hook)
        case tokensRemoved(Wipe)
        /// The hook answered: the daemon removes the account's vault directory (key, manifest,
        /// files), whatever the answer. Valid transitions:
        ///  - `.vaultRemoved` on `vaultRemoved`
        case appHookFinished(Wipe)
        /// Vault files are gone; the enrollment is being removed. Valid transitions:
        ///  - `.done` on `enrollmentRemoved`
        case vaultRemoved(Wipe)
        /// Terminal for this wipe; late step events are ignored. Valid transitions:
        ///  - `.intentRecorded` on `wipeRequested` (the account is wiped again later)
        case done(Wipe)
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("idle", "intentRecorded", "wipeRequested"),
        .init("intentRecorded", "tokensRemoved", "tokensRemoved"),
        .init("tokensRemoved", "appHookFinished", "appHookFinished"),
        .init("tokensRemoved", "vaultRemoved", "vaultRemoved"),
        .init("appHookFinished", "vaultRemoved", "vaultRemoved"),
        .init("vaultRemoved", "done", "enrollmentRemoved"),
        .init("done", "intentRecorded", "wipeRequested"),
    ]

    private var state: State
    private var events: [ComplianceEvent] = []

    /// A machine for `account` with nothing to wipe.
    public init(account: AccountID) {
        self.state = .idle(account)
    }

    /// The account this machine wipes.
    public var account: AccountID {
        switch state {
        case .idle(let account): account
        case .intentRecorded(let wipe), .tokensRemoved(let wipe), .appHookFinished(let wipe), .vaultRemoved(let wipe), .done(let wipe): wipe.account
        }
    }

    /// The wipe under way or last done, if any.
    public var wipe: Wipe? {
        switch state {
        case .idle: nil
        case .intentRecorded(let wipe), .tokensRemoved(let wipe), .appHookFinished(let wipe), .vaultRemoved(let wipe), .done(let wipe): wipe
        }
    }

    /// The state's name as drawn in README.md.
    public var stateName: String { Self.name(of: state) }

    /// True once the journal says `done` and nothing of the account's data is left.
    public var isFinished: Bool {
        if case .done = state { return true }
        return false
    }

    /// True while a wipe is under way (journaled, not done).
    public var isRunning: Bool {
        switch state {
        case .idle, .done: false
        case .intentRecorded, .tokensRemoved, .appHookFinished, .vaultRemoved: true
        }
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
        switch state {
        case .idle(let account):
            return start(Wipe(account: account, reason: reason, runAppHook: runAppHook, generation: 1))
        case .done(let last):
            return start(Wipe(account: last.account, reason: reason, runAppHook: runAppHook, generation: last.generation + 1))
        case .intentRecorded, .tokensRemoved, .appHookFinished, .vaultRemoved:
            return .none
        }
    }

    /// After a rebuild from a snapshot: the step to (re-)run; `.none` for a wipe stored done.
    public mutating func resumed() -> Action {
        if case .done = state { return .none }
        return stepAction()
    }

    /// The account's tokens are deleted.
    public mutating func tokensRemoved() -> Action {
        switch state {
        case .intentRecorded(let wipe):
            state = .tokensRemoved(wipe)
            return stepAction()
        case .done:
            return .none
        case .idle, .tokensRemoved, .appHookFinished, .vaultRemoved:
            preconditionFailure("tokensRemoved() while not removing tokens. Invalid state: \(state)")
        }
    }

    /// The app's hook answered: `removedData` is `wipeDataForAccount`'s return (exit status 0);
    /// `outcome` says how it ended, for the event. The vault step follows in either case: the
    /// app's YES covers its own files, never the daemon's key and records.
    public mutating func appHookFinished(removedData: Bool, outcome: String) -> Action {
        switch state {
        case .tokensRemoved(let wipe) where wipe.runAppHook:
            state = .appHookFinished(wipe)
            events.append(.wipeHookRan(wipe.account, outcome: outcome, appRemovedData: removedData))
            return stepAction()
        case .done:
            return .none
        default:
            preconditionFailure("appHookFinished() while no hook runs. Invalid state: \(state)")
        }
    }

    /// The account's vault files are deleted (or the app removed its data itself).
    public mutating func vaultRemoved() -> Action {
        switch state {
        case .tokensRemoved(let wipe) where !wipe.runAppHook:
            state = .vaultRemoved(wipe)
            return stepAction()
        case .appHookFinished(let wipe):
            state = .vaultRemoved(wipe)
            return stepAction()
        case .done:
            return .none
        default:
            preconditionFailure("vaultRemoved() while not removing vault files. Invalid state: \(state)")
        }
    }

    /// The account's enrollment record is deleted.
    public mutating func enrollmentRemoved() -> Action {
        switch state {
        case .vaultRemoved(let wipe):
            state = .done(wipe)
            events.append(.wipeFinished(wipe.account))
            return stepAction()
        case .done:
            return .none
        case .idle, .intentRecorded, .tokensRemoved, .appHookFinished:
            preconditionFailure("enrollmentRemoved() while not removing the enrollment. Invalid state: \(state)")
        }
    }

    // MARK: - Internals

    private mutating func start(_ wipe: Wipe) -> Action {
        state = .intentRecorded(wipe)
        events.append(.wipeStarted(wipe.account, wipe.reason))
        return stepAction()
    }

    /// The step the state asks for, after an event or a rebuild (``resumed()``).
    private func stepAction() -> Action {
        switch state {
        case .idle: .none
        case .intentRecorded(let wipe): .removeTokens(wipe.account)
        case .tokensRemoved(let wipe): wipe.runAppHook ? .runAppHook(wipe.account) : .removeVaultFiles(wipe.account)
        case .appHookFinished(let wipe): .removeVaultFiles(wipe.account)
        case .vaultRemoved(let wipe): .removeEnrollment(wipe.account)
        case .done(let wipe): .finished(wipe.account)
        }
    }

}

// MARK: - Persistence

extension SelectiveWipeStateMachine {
    /// The journal entry to store: converts to and from JSON.
    public struct Snapshot: Sendable, Hashable, Codable {
        fileprivate let state: State

        /// `{"machine":"selectiveWipe","version":2,"step":…,"account":…,"reason":…,"runAppHook":…,
        /// "generation":…}`; version 1 (no generation, no hook step) is read too.
        public var json: JSONValue {
            var object = JSONObject([("machine", "selectiveWipe"), ("version", 2)])
            switch state {
            case .idle(let account):
                object["step"] = "idle"
                object["account"] = account.stored
            case .intentRecorded(let wipe), .tokensRemoved(let wipe), .appHookFinished(let wipe), .vaultRemoved(let wipe), .done(let wipe):
                object["step"] = .string(SelectiveWipeStateMachine.name(of: state))
                object["account"] = wipe.account.stored
                object["reason"] = .string(wipe.reason.rawValue)
                object["runAppHook"] = .bool(wipe.runAppHook)
                object["generation"] = .int(Int64(wipe.generation))
            }
            return .object(object)
        }

        fileprivate init(state: State) { self.state = state }

        /// Reads a stored journal entry.
        public init(json: JSONValue) throws(StoredValueError) {
            let reader = try StoredReader(json, path: "selectiveWipe")
            guard try reader.string("machine") == "selectiveWipe" else { throw reader.invalid("machine", "not a selective wipe journal") }
            let version = try reader.checkVersion(1...2)
            let account = try reader.account("account")
            let step = try reader.string("step")
            if step == "idle" {
                state = .idle(account)
                return
            }
            let reasonText = try reader.string("reason")
            guard let reason = WipeReason(rawValue: reasonText) else { throw reader.invalid("reason", "unknown reason \"\(reasonText)\"") }
            let runAppHook = version == 1 && step == "done" ? false : try reader.bool("runAppHook")
            let generation = version == 1 ? 1 : Int(clamping: try reader.int("generation"))
            let wipe = Wipe(account: account, reason: reason, runAppHook: runAppHook, generation: generation)
            switch step {
            case "intentRecorded": state = .intentRecorded(wipe)
            case "tokensRemoved": state = .tokensRemoved(wipe)
            case "appHookFinished": state = .appHookFinished(wipe)
            case "vaultRemoved": state = .vaultRemoved(wipe)
            case "done": state = .done(wipe)
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
        case .appHookFinished: "appHookFinished"
        case .vaultRemoved: "vaultRemoved"
        case .done: "done"
        }
    }
}
