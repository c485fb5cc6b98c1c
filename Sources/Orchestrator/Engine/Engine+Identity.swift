import ComplianceCore

/// The app's process and UI identities (`IntuneMAMPolicyManager` `setProcessIdentity`,
/// `setUIPolicyIdentity`), and `loginAndEnrollAccount(nil)`'s choice of account.
extension Engine {
    /// An identity as the SDK takes it: "" is no user (nil), anything else a UPN.
    func parseIdentity(_ identity: String) throws(EngineError) -> AccountID? {
        identity.isEmpty ? nil : try parseAccount(identity)
    }

    /// The app's process and UI identities, and the one the UI runs under.
    public func identityView() -> IdentityView {
        IdentityView(
            multiIdentity: machine.configuration.multiIdentity, process: machine.identities.process, ui: machine.identities.ui,
            effectiveUI: machine.effectiveUIIdentity)
    }

    /// `setUIPolicyIdentity`: the switch's answer (Success, Canceled, NotAllowed, Failed).
    /// `userCancels`: the user cancels the conditional launch (the PIN) if one is shown.
    public func setUIPolicyIdentity(_ identity: String, userCancels: Bool) async throws(EngineError) -> IdentitySwitch {
        let account = try parseIdentity(identity)
        return try await ask("an identity switch") { machine, ticket in
            machine.setUIPolicyIdentity(account, userCancels: userCancels, ticket: ticket, now: clock.now)
        } narrow: {
            if case .identity(let outcome) = $0 { outcome } else { nil }
        }
    }

    /// `setProcessIdentity`; refused (`identity_not_allowed`, `policy_required`) for an
    /// identity a UI switch would not be allowed to.
    public func setProcessIdentity(_ identity: String) async throws(EngineError) {
        let account = try parseIdentity(identity)
        try await ask("a process identity") { machine, ticket in
            machine.setProcessIdentity(account, ticket: ticket, now: clock.now)
        } narrow: {
            if case .identity = $0 { () } else { nil }
        }
    }
}
