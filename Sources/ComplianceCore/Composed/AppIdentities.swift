/// The identities the app runs under (the SDK guide, "Identity overview"): the process identity
/// (`setProcessIdentity`) and the UI identity (`setUIPolicyIdentity`). The effective UI identity
/// is the UI identity when one is set, else the process identity; in an app that is not
/// `MultiIdentity`, an unset process identity is the enrolled user ("The SDK sets the process
/// identity to the enrolled user"). Like the SDK's, they live in the process: a restart of the
/// app (its first policy, or the daemon's) begins again with both unset.
public struct AppIdentities: Sendable, Hashable, Codable {
    /// `setProcessIdentity`.
    public var process: IdentitySetting = .unset
    /// The last successful `setUIPolicyIdentity`.
    public var ui: IdentitySetting = .unset

    public init(process: IdentitySetting = .unset, ui: IdentitySetting = .unset) {
        self.process = process
        self.ui = ui
    }
}

/// One identity setting of the app.
///
/// Valid values and their meaning:
/// - `unset`: never set since the app started (the next level decides);
/// - `noUser`: set to the empty string, "no user" or an unknown unmanaged account;
/// - `account`: set to this account, managed or not.
public enum IdentitySetting: Sendable, Hashable, CustomStringConvertible, Codable {
    case unset
    case noUser
    case account(AccountID)

    /// The setting for an identity as the SDK takes it: nil or "" is no user.
    public init(_ account: AccountID?) {
        self = account.map { .account($0) } ?? .noUser
    }

    /// The account, if the setting names one.
    public var account: AccountID? {
        if case .account(let account) = self { return account }
        return nil
    }

    public var description: String {
        switch self {
        case .unset: "unset"
        case .noUser: "no user"
        case .account(let account): account.upn
        }
    }
}

/// `IntuneMAMSwitchIdentityResult`: how a `setUIPolicyIdentity` ended.
public enum SwitchIdentityResult: String, Sendable, Hashable, CaseIterable, Codable {
    /// The UI identity is now the one asked for.
    case success = "Success"
    /// The user cancelled the conditional launch (the PIN prompt) of a managed identity.
    case canceled = "Canceled"
    /// The SDK does not allow this identity now: another account of the organization is the
    /// one managed identity, the allowed accounts exclude it, or it is being removed.
    case notAllowed = "NotAllowed"
    /// The switch could not be done: the app requires a policy (`MAMPolicyRequired`) and none
    /// is in force.
    case failed = "Failed"
}

/// Why the SDK asks the app to switch identity (`identitySwitchRequired…:reason:`).
public enum IdentitySwitchReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user cancelled the conditional launch of a managed identity: the app must switch to
    /// no user (the SDK's `IntuneMAMIdentitySwitchCancelConditionalLaunch`).
    case cancelConditionalLaunch
    /// The identity in force left the app (a wipe, a deregistration, or the allowed accounts
    /// excluding it): the app must switch to no user. (The daemon's reason: the SDK hides
    /// such an account through `wipeDataForAccount` and `blockAccountId`.)
    case accountRemoved
}

/// What the conditional launch of a switch to a managed identity asked of the user.
public enum ConditionalLaunch: String, Sendable, Hashable, Codable {
    /// Nothing: an unmanaged identity, no user, the identity already in force, or a policy
    /// without `pinRequired`.
    case none
    /// The app PIN (`pinRequired`).
    case pin
}

/// The answer to a `setUIPolicyIdentity`.
public struct IdentitySwitch: Sendable, Hashable, Codable {
    /// The identity asked for (nil: no user).
    public var identity: AccountID?
    public var result: SwitchIdentityResult
    public var conditionalLaunch: ConditionalLaunch
    /// Why the switch did not succeed (nil on success).
    public var detail: String?

    public init(identity: AccountID?, result: SwitchIdentityResult, conditionalLaunch: ConditionalLaunch, detail: String?) {
        self.identity = identity
        self.result = result
        self.conditionalLaunch = conditionalLaunch
        self.detail = detail
    }
}
