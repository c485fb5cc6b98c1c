import ComplianceCore

/// The app's view of its accounts, as the SDK's `IntuneMAMEnrollmentManager` and
/// `IntuneMAMPolicyManager` give it: `registeredAccounts`, `allowedAccounts`, the managed account.
extension Engine {
    /// The registered and allowed accounts, the managed one, its policy's version, and the
    /// account whose restart the app owes.
    public func appView() -> AppView {
        AppView(
            registeredAccounts: machine.registeredAccounts, allowedAccounts: machine.allowedAccounts, managedAccount: machine.managedAccount,
            policyVersion: machine.appPolicy?.version, restartOwed: machine.restartOwed)
    }
}

/// The app's accounts (``Engine/appView()``).
public struct AppView: Sendable, Hashable {
    /// `registeredAccounts`.
    public var registeredAccounts: [AccountID]
    /// The policy's list (``AllowedAccounts/anyone`` when none is set).
    public var allowedAccounts: AllowedAccounts
    /// The enrolled account whose policy is in force.
    public var managedAccount: AccountID?
    /// The version of the policy in force.
    public var policyVersion: String?
    /// The account whose restart the app owes (its restart hook answered YES).
    public var restartOwed: AccountID?
}
