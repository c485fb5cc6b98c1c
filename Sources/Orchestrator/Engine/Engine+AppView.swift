import ComplianceCore
import JSON

/// The app's view of its accounts, as the SDK's `IntuneMAMEnrollmentManager` and
/// `IntuneMAMPolicyManager` give it: `registeredAccounts`, `allowedAccounts`, the managed account.
extension Engine {
    /// `{"registeredAccounts": [upn…], "allowedAccounts": [upn…] | null, "managedAccount": upn | null,
    /// "policyVersion": string | null}`.
    public func appView() -> JSONObject {
        [
            "registeredAccounts": .array(machine.registeredAccounts.map { .string($0.key) }),
            "allowedAccounts": machine.allowedAccounts.json,
            "managedAccount": machine.managedAccount.map { .string($0.key) } ?? .null,
            "policyVersion": machine.appPolicy.map { .string($0.version) } ?? .null,
            "restartOwed": machine.restartOwed.map { .string($0.key) } ?? .null,
        ]
    }
}
