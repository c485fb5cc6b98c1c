import ComplianceCore
import JSON

/// The app's process and UI identities (`IntuneMAMPolicyManager` `setProcessIdentity`,
/// `setUIPolicyIdentity`), and `loginAndEnrollAccount(nil)`'s choice of account.
extension Engine {
    /// An identity as the SDK takes it: "" is no user (nil), anything else a UPN.
    func parseIdentity(_ identity: String) throws(EngineError) -> AccountID? {
        identity.isEmpty ? nil : try parseAccount(identity)
    }

    /// `{"multiIdentity", "processIdentity", "uiIdentity", "effectiveUIIdentity"}`: a setting is
    /// a UPN, "" (no user) or null (unset); the effective identity is a UPN or "".
    public func identityView() -> JSONObject {
        func setting(_ value: IdentitySetting) -> JSONValue {
            switch value {
            case .unset: .null
            case .noUser: .string("")
            case .account(let account): .string(account.key)
            }
        }
        return [
            "multiIdentity": .bool(machine.configuration.multiIdentity),
            "processIdentity": setting(machine.identities.process),
            "uiIdentity": setting(machine.identities.ui),
            "effectiveUIIdentity": .string(machine.effectiveUIIdentity?.key ?? ""),
        ]
    }

    /// `setUIPolicyIdentity`: the switch's answer (Success, Canceled, NotAllowed, Failed).
    /// `userCancels`: the user cancels the conditional launch (the PIN) if one is shown.
    public func setUIPolicyIdentity(_ identity: String, userCancels: Bool) async throws(EngineError) -> IdentitySwitch {
        let account = try parseIdentity(identity)
        let reply = await submit { machine, ticket in
            machine.setUIPolicyIdentity(account, userCancels: userCancels, ticket: ticket, now: clock.now)
        }
        switch reply {
        case .identity(let outcome): return outcome
        case .refused(let refusal): throw Self.error(refusal)
        default: throw EngineError(.internalError, "the machine answered an identity switch with \(reply)")
        }
    }

    /// `setProcessIdentity`; refused (`identity_not_allowed`, `policy_required`) for an
    /// identity a UI switch would not be allowed to.
    public func setProcessIdentity(_ identity: String) async throws(EngineError) {
        let account = try parseIdentity(identity)
        let reply = await submit { machine, ticket in
            machine.setProcessIdentity(account, ticket: ticket, now: clock.now)
        }
        switch reply {
        case .identity: return
        case .refused(let refusal): throw Self.error(refusal)
        default: throw EngineError(.internalError, "the machine answered a process identity with \(reply)")
        }
    }

    /// The account `loginAndEnrollAccount(nil)` signs in: "the existing managed user", that is
    /// the managed account, else the one account registered with the MAM service. With none,
    /// `account_required` (the SDK would prompt the user for a user name: the caller must).
    func accountForAnonymousSignIn() throws(EngineError) -> String {
        if let managed = machine.managedAccount { return managed.upn }
        let registered = machine.registeredAccounts
        if registered.count == 1 { return registered[0].upn }
        let why = registered.isEmpty
            ? "no account is managed or registered in this app"
            : "\(registered.count) accounts are registered and none is managed (\(registered.map(\.upn).joined(separator: ", ")))"
        throw EngineError(.accountRequired, "a sign-in without an account signs in the app's managed user, and \(why): name the account to sign in")
    }
}
