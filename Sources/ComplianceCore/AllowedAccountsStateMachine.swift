import JSON

/// Enforces the policy's allowed-accounts list for the whole app (one per device).
///
/// Refuses sign-in of an account the list does not allow; when the list changes, every
/// signed-in account it no longer allows is signed out and wiped, and an
/// ``ComplianceEvent/allowedAccountsChanged(old:new:removed:)`` event is emitted. A
/// `null` list (``AllowedAccounts/anyone``) allows everyone.
public struct AllowedAccountsStateMachine: Sendable, Hashable, Codable {
    /// Commands for the composed machine (``ComplianceMachine``), which runs this one.
    public enum Action: Sendable, Hashable, Codable {
        /// The account may sign in; call ``signedIn(_:)`` when it has.
        case allowSignIn(AccountID)
        /// The account may not sign in; show the refusal's message.
        case refuseSignIn(SignInRefusal)
        /// Sign these accounts out, drop their tokens and start a selective wipe
        /// (reason ``WipeReason/notAllowed``) for each; call ``accountRemoved(_:)`` per account.
        case signOutAndWipe([AccountID])
        case none
    }

    fileprivate enum State: Sendable, Hashable, Codable {
        /// Every signed-in account is allowed. Valid transitions:
        ///  - `.removing` on `allowedAccountsReceived` (a signed-in account left the list)
        ///    or `signedIn` (an account that is not allowed completed sign-in anyway)
        ///  - `.tracking` on `allowedAccountsReceived`, `signedIn`, `signedOut`
        case tracking(allowed: AllowedAccounts, signedIn: [AccountID])
        /// Accounts no longer allowed are being signed out and wiped. Valid transitions:
        ///  - `.tracking` on `accountRemoved` of the last pending account
        ///  - `.removing` on `accountRemoved`, `allowedAccountsReceived`, `signedIn`, `signedOut`
        case removing(allowed: AllowedAccounts, signedIn: [AccountID], pending: [AccountID])
    }

    /// Edges drawn in README.md; a test checks the diagram lists exactly these.
    public static let documentedTransitions: [DocumentedTransition] = [
        .init("tracking", "tracking", "allowedAccountsReceived / signedIn / signedOut"),
        .init("tracking", "removing", "allowedAccountsReceived / signedIn"),
        .init("removing", "removing", "accountRemoved / allowedAccountsReceived / signedIn / signedOut"),
        .init("removing", "tracking", "accountRemoved"),
    ]

    private var state: State
    private var events: [ComplianceEvent] = []

    /// A machine with no signed-in accounts and the given list (default: anyone).
    public init(allowed: AllowedAccounts = .anyone) {
        state = .tracking(allowed: allowed, signedIn: [])
    }

    public var stateName: String {
        switch state {
        case .tracking: "tracking"
        case .removing: "removing"
        }
    }

    /// The current list.
    public var allowed: AllowedAccounts {
        switch state {
        case .tracking(let allowed, _), .removing(let allowed, _, _): allowed
        }
    }

    /// Accounts currently signed in (sorted).
    public var signedInAccounts: [AccountID] {
        switch state {
        case .tracking(_, let signedIn), .removing(_, let signedIn, _): signedIn
        }
    }

    /// True while `account` is being signed out and wiped after leaving the list.
    public func isBeingRemoved(_ account: AccountID) -> Bool {
        pendingRemovals.contains(account)
    }

    /// True when a token may be handed to `account`: the list allows it and it is not being removed.
    public func mayReceiveToken(_ account: AccountID) -> Bool {
        switch state {
        case .tracking(let allowed, _): allowed.allows(account)
        case .removing(let allowed, _, let pending): allowed.allows(account) && !pending.contains(account)
        }
    }

    public mutating func takeEvents() -> [ComplianceEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: - Events

    /// The user asked to sign `account` in. Pure decision; nothing is stored.
    public mutating func signInRequested(_ account: AccountID) -> Action {
        guard allowed.allows(account) else {
            return .refuseSignIn(SignInRefusal(code: .notAllowed, account: account, allowed: allowed))
        }
        guard mayReceiveToken(account) else {
            return .refuseSignIn(SignInRefusal(code: .removalInProgress, account: account, allowed: allowed))
        }
        return .allowSignIn(account)
    }

    /// `account` completed sign-in. If the list does not allow it (the list changed in
    /// between), it is removed at once.
    public mutating func signedIn(_ account: AccountID) -> Action {
        var signedIn = signedInAccounts
        if !signedIn.contains(account) { signedIn = (signedIn + [account]).sorted() }
        var pending = pendingRemovals
        if !allowed.allows(account), !pending.contains(account) { pending.append(account) }
        setState(allowed: allowed, signedIn: signedIn, pending: pending)
        return stepAction()
    }

    /// `account` signed out on its own.
    public mutating func signedOut(_ account: AccountID) -> Action {
        guard signedInAccounts.contains(account) else { return .none }
        setState(allowed: allowed, signedIn: signedInAccounts.filter { $0 != account }, pending: pendingRemovals)
        return stepAction()
    }

    /// A policy arrived with `list`. An unchanged list does nothing.
    public mutating func allowedAccountsReceived(_ list: AllowedAccounts) -> Action {
        let old = allowed
        guard list != old else { return .none }
        let removed = signedInAccounts.filter { !list.allows($0) }
        var pending = pendingRemovals
        for account in removed where !pending.contains(account) { pending.append(account) }
        events.append(.allowedAccountsChanged(old: old, new: list, removed: removed))
        setState(allowed: list, signedIn: signedInAccounts, pending: pending)
        return stepAction()
    }

    /// `account` is signed out and its wipe has been started (or finished).
    public mutating func accountRemoved(_ account: AccountID) -> Action {
        guard case .removing(let allowed, let signedIn, let pending) = state, pending.contains(account) else {
            return .none  // late or duplicate report
        }
        setState(allowed: allowed, signedIn: signedIn.filter { $0 != account }, pending: pending.filter { $0 != account })
        return stepAction()
    }

    /// After a rebuild from a snapshot: finishes removals that were under way.
    public mutating func resumed() -> Action {
        return stepAction()
    }

    // MARK: - Internals

    private var pendingRemovals: [AccountID] {
        if case .removing(_, _, let pending) = state { return pending }
        return []
    }

    private mutating func setState(allowed: AllowedAccounts, signedIn: [AccountID], pending: [AccountID]) {
        state = pending.isEmpty
            ? .tracking(allowed: allowed, signedIn: signedIn)
            : .removing(allowed: allowed, signedIn: signedIn, pending: pending)
    }

    /// The step the state asks for, after an event or a rebuild (``resumed()``).
    private func stepAction() -> Action {
        if case .removing(_, _, let pending) = state { return .signOutAndWipe(pending) }
        return .none
    }

}

/// A sign-in the allowed-accounts policy forbids.
public struct SignInRefusal: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    fileprivate enum Base: String, Sendable, Hashable, Codable {
        case notAllowed, removalInProgress
    }

    /// Why the sign-in was refused, comparable with the static constants.
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        fileprivate let base: Base
        /// The policy's list does not contain the account.
        public static let notAllowed = Code(base: .notAllowed)
        /// The account is still being signed out and wiped after leaving the list.
        public static let removalInProgress = Code(base: .removalInProgress)
        public var description: String { base.rawValue }
    }

    public let code: Code
    public let account: AccountID
    /// The list in force when the sign-in was refused.
    public let allowed: AllowedAccounts

    public init(code: Code, account: AccountID, allowed: AllowedAccounts) {
        self.code = code
        self.account = account
        self.allowed = allowed
    }

    /// What happened and what to do.
    public var message: String {
        let list = allowed.accounts?.map(\.upn).joined(separator: ", ") ?? "any account"
        switch code.base {
        case .notAllowed:
            return "\(account.upn) is not allowed in this app by your organization's policy. Sign in with an allowed account (\(list)) or contact your IT administrator."
        case .removalInProgress:
            return "\(account.upn) is being signed out and its work data removed; wait for it to finish, then sign in with an allowed account (\(list))."
        }
    }

    public var description: String { message }
}

// MARK: - Persistence

extension AllowedAccountsStateMachine {
    /// The list and the signed-in accounts: converts to and from JSON.
    public struct Snapshot: Sendable, Hashable, Codable {
        fileprivate let state: State

        fileprivate init(state: State) { self.state = state }

        /// `{"machine":"allowedAccounts","version":1,"allowed":…,"signedIn":[…],"pending":[…]}`.
        public var json: JSONValue {
            let (allowed, signedIn, pending): (AllowedAccounts, [AccountID], [AccountID]) = switch state {
            case .tracking(let allowed, let signedIn): (allowed, signedIn, [])
            case .removing(let allowed, let signedIn, let pending): (allowed, signedIn, pending)
            }
            return .object(JSONObject([
                ("machine", "allowedAccounts"), ("version", 1), ("allowed", allowed.json),
                ("signedIn", .array(signedIn.map(\.stored))), ("pending", .array(pending.map(\.stored))),
            ]))
        }

        public init(json: JSONValue) throws(StoredValueError) {
            let reader = try StoredReader(json, path: "allowedAccounts")
            guard try reader.string("machine") == "allowedAccounts" else { throw reader.invalid("machine", "not an allowed-accounts snapshot") }
            try reader.checkVersion(1)
            let allowed = try AllowedAccounts(json: json["allowed"] ?? .null, path: "allowedAccounts.allowed")
            var signedIn: [AccountID] = []
            for (index, element) in try reader.array("signedIn").enumerated() {
                signedIn.append(try AccountID(stored: element, path: "allowedAccounts.signedIn[\(index)]"))
            }
            var pending: [AccountID] = []
            for (index, element) in try reader.array("pending").enumerated() {
                pending.append(try AccountID(stored: element, path: "allowedAccounts.pending[\(index)]"))
            }
            state = pending.isEmpty
                ? .tracking(allowed: allowed, signedIn: signedIn.sorted())
                : .removing(allowed: allowed, signedIn: signedIn.sorted(), pending: pending)
        }
    }

    public var snapshot: Snapshot { Snapshot(state: state) }

    /// Rebuilds the machine from a stored snapshot; call ``resumed()`` next.
    public init(restoring snapshot: Snapshot) {
        state = snapshot.state
    }
}
