/// The app's process and UI identities (``AppIdentities``) and the rule they keep: no managed
/// data is readable under an identity the policy does not allow (invariant 15).
///
/// - `setUIPolicyIdentity` answers Success, Canceled, NotAllowed or Failed (``identitySwitch(to:userCancels:)``);
///   a cancelled conditional launch makes the SDK ask the app to switch to no user
///   (`identitySwitchRequired`, empty string), which the daemon, as the app, does.
/// - `setProcessIdentity` returns nothing in the SDK; the daemon refuses what a UI switch would
///   answer NotAllowed or Failed, so no identity the policy does not allow is ever in force.
/// - An identity in force whose account starts to leave (a wipe, a deregistration, the allowed
///   accounts excluding it) is replaced by no user in the same step, and the app is told
///   (`identitySwitchRequired`, reason `accountRemoved`).
/// - Managed data (the managed account's), a file or a protected buffer, is readable only while
///   the effective file identity (the process identity) is its owner (``dataReadRefusal(_:)``),
///   or while the app has set no process identity since it started; unmanaged accounts' data
///   under any identity. The UI identity plays no part: "The UI identity doesn't affect file
///   tasks like encryption and backup".
extension ComplianceMachine {
    /// The process identity in force: the one set, else, in an app that is not `MultiIdentity`,
    /// the enrolled user (nil while none is, or while it leaves).
    public var effectiveProcessIdentity: AccountID? {
        switch identities.process {
        case .account(let account): account
        case .noUser: nil
        case .unset: configuration.multiIdentity ? nil : managedAccount.flatMap { mayBeInForce($0) ? $0 : nil }
        }
    }

    /// The identity UI tasks run under: the UI identity set, else the process identity.
    public var effectiveUIIdentity: AccountID? {
        switch identities.ui {
        case .account(let account): account
        case .noUser: nil
        case .unset: effectiveProcessIdentity
        }
    }

    /// True while `account` may be an identity in force: the allowed accounts allow it and it
    /// is not leaving (deregistering or being wiped).
    public func mayBeInForce(_ account: AccountID) -> Bool {
        allowed.allowed.allows(account) && !isLeaving(account)
    }

    /// What a `setUIPolicyIdentity` to `identity` (nil: no user) would answer now, without
    /// changing anything. `userCancels`: the user cancels a conditional launch if one prompts.
    ///
    /// - no user, or the identity already in force: Success, nothing asked;
    /// - an identity leaving or not in the allowed accounts: NotAllowed;
    /// - another registered work account while one account is managed is unmanaged, as the
    ///   data-protection answers treat it: "Other users in the app will be treated as unmanaged
    ///   with unrestricted policy settings" (issue 38, C3): Success, no conditional launch;
    /// - `MAMPolicyRequired` and no policy in force: Failed;
    /// - the managed account under a policy with `pinRequired`: the PIN is asked (Canceled when
    ///   the user cancels);
    /// - any other account is unmanaged ("no policies will be applied"): Success.
    public func identitySwitch(to identity: AccountID?, userCancels: Bool) -> IdentitySwitch {
        func answer(_ result: SwitchIdentityResult, _ prompt: ConditionalLaunch = .none, _ detail: String? = nil) -> IdentitySwitch {
            IdentitySwitch(identity: identity, result: result, conditionalLaunch: prompt, detail: detail)
        }
        guard let identity else { return answer(.success) }
        if let refusal = identityRefusal(identity) { return answer(refusal.result, .none, refusal.detail) }
        if identity == effectiveUIIdentity { return answer(.success) }
        guard identity == managedAccount, appPolicy?.document["pinRequired"]?.boolValue == true else { return answer(.success) }
        if userCancels {
            return answer(.canceled, .pin, "the user cancelled the PIN that \(identity.upn)'s policy requires")
        }
        return answer(.success, .pin)
    }

    /// Why `identity` may not be put in force now (NotAllowed or Failed, with why), or nil.
    func identityRefusal(_ identity: AccountID) -> (result: SwitchIdentityResult, detail: String)? {
        if isLeaving(identity) {
            return (.notAllowed, "\(identity.upn) is being removed from this app")
        }
        if !allowed.allowed.allows(identity) {
            return (.notAllowed, "\(identity.upn) is not allowed in this app by your organization's policy")
        }
        if configuration.launch.policyRequired, appPolicy == nil {
            return (.failed, "this app requires an app protection policy (MAMPolicyRequired) and none is in force yet")
        }
        return nil
    }

    /// True when `account` is registered with the MAM service (``registeredAccounts``).
    func isRegistered(_ account: AccountID) -> Bool {
        guard let phase = accounts[account]?.enrollment.phase else { return false }
        return Self.registeredPhases.contains(phase)
    }

    /// The enrollment phases of a registered account.
    static let registeredPhases: Set<EnrollmentStateMachine.Phase> = [.enrolling, .awaitingRetry, .waitingForSlot, .enrolled, .checkingIn, .applyingPolicy]

    /// `setUIPolicyIdentity:completionHandler:`: switches the UI identity to `identity` (nil: no
    /// user) when ``identitySwitch(to:userCancels:)`` answers Success. A Canceled switch is
    /// followed by the SDK's `identitySwitchRequired` to no user, which the app performs.
    /// Replies `.identity` with the answer; notes `identitySwitched` (and `identitySwitchRequired`).
    public mutating func setUIPolicyIdentity(_ identity: AccountID?, userCancels: Bool, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        let outcome = identitySwitch(to: identity, userCancels: userCancels)
        note(.identitySwitched(outcome))
        switch outcome.result {
        case .success:
            identities.ui = IdentitySetting(identity)
        case .canceled:
            conditionalLaunchCancelled(outcome, ticket: ticket)  // the SDK asks for no user (ComplianceMachine+AppQuestions.swift)
            return
        case .notAllowed, .failed:
            break
        }
        reply(ticket, .identity(outcome))
    }

    /// `setProcessIdentity:`: sets the process identity (nil: no user). Refused
    /// (`identity_not_allowed`, or `policy_required`) when a UI switch to it would answer
    /// NotAllowed or Failed. Replies `.identity` (Success) or `.refused`.
    public mutating func setProcessIdentity(_ identity: AccountID?, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if let identity, let refusal = identityRefusal(identity) {
            let code: Refusal.Code = refusal.result == .failed ? .policyRequired : .identityNotAllowed
            reply(ticket, .refused(Refusal(code, identity, refusal.detail)))
            return
        }
        identities.process = IdentitySetting(identity)
        reply(ticket, .identity(IdentitySwitch(identity: identity, result: .success, conditionalLaunch: .none, detail: nil)))
    }

    /// The identity file tasks run under (the guide's "effective identity for ... file tasks"):
    /// the process identity in force. The daemon's callers have no threads of their own, so no
    /// thread identity overrides it; the UI identity never does ("The UI identity doesn't
    /// affect file tasks like encryption and backup").
    public var effectiveFileIdentity: AccountID? { effectiveProcessIdentity }

    /// Why the data of `owner` may not be read now, or nil: the one rule of `data get` (a file)
    /// and `unprotect` (a buffer), both file tasks that take the data's owner (the file's or
    /// the buffer's header).
    ///
    /// - nothing while `MAMPolicyRequired` waits for a policy;
    /// - no data of an owner that is leaving (deregistering or being wiped), managed or not:
    ///   a wipe the disk stopped is journaled and its owner is no longer the managed account
    ///   while it waits to run again, but its files and key are still there;
    /// - unmanaged data (any owner but the managed account) under any identity;
    /// - managed data while the effective file identity (``effectiveFileIdentity``) is its
    ///   owner, or while the app has set no process identity since it started (a `MultiIdentity`
    ///   app then runs "under an unknown, unmanaged account... no policies will be enforced";
    ///   an app that is not `MultiIdentity` runs as the enrolled user, the owner).
    /// Data of no user (`owner` nil) is refused only while `MAMPolicyRequired` blocks the app.
    public func dataReadRefusal(_ owner: AccountID?) -> Refusal? {
        if let refusal = policyRequiredRefusal(owner) { return refusal }
        guard let owner else { return nil }
        if isLeaving(owner) { return Refusal(.conflict, owner, "\(owner.upn) is being wiped") }
        guard owner == managedAccount else { return nil }
        if identities.process == .unset { return nil }
        let current = effectiveFileIdentity
        guard current == owner else {
            let now = current.map { "the app's process identity is \($0.upn)" } ?? "the app's process identity is no user"
            return Refusal(
                .identityMismatch, owner,
                "\(owner.upn)'s data is managed and \(now): set the process identity to \(owner.upn) first (setProcessIdentity)")
        }
        return nil
    }

    /// `unprotect:` of a buffer: protected data (`isProtected`) follows ``dataReadRefusal(_:)``
    /// for the owner its header names (nil: no user); data no protect made is returned
    /// unchanged in any state, even while `MAMPolicyRequired` blocks the app: the caller
    /// already holds those bytes, and no policy governs them.
    public func unprotectRefusal(isProtected: Bool, owner: AccountID?) -> Refusal? {
        isProtected ? dataReadRefusal(owner) : nil
    }

    /// The account `loginAndEnrollAccount(nil)` (a sign-in without an account) signs in: "the
    /// existing managed user", else the one account registered with the MAM service; with
    /// neither (or several registered and none managed) `account_required`, where the SDK
    /// would prompt for a user name.
    public func accountForSignInWithoutAccount() -> Result<AccountID, Refusal> {
        if let managed = managedAccount { return .success(managed) }
        let registered = registeredAccounts
        if registered.count == 1 { return .success(registered[0]) }
        let why = registered.isEmpty
            ? "no account is managed or registered in this app"
            : "\(registered.count) accounts are registered and none is managed (\(registered.map(\.upn).joined(separator: ", ")))"
        return .failure(Refusal(.accountRequired, nil, "a sign-in without an account signs in the app's managed user, and \(why): name the account to sign in"))
    }

    /// At the end of every step: an identity in force whose account may no longer be (it
    /// leaves, or the allowed accounts exclude it) becomes no user, and the app is told.
    mutating func enforceIdentities() {
        var removed = false
        if let account = identities.process.account, !mayBeInForce(account) {
            identities.process = .noUser
            removed = true
        }
        if let account = identities.ui.account, !mayBeInForce(account) {
            identities.ui = .noUser
            removed = true
        }
        if removed { note(.identitySwitchRequired(nil, .accountRemoved)) }
    }
}
