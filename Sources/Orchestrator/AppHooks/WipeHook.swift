import ComplianceCore
import Logging

/// What names the wipe hook (``WipeHook``).
public enum WipeHookPurpose {}

/// The app's own clean-up, run on selective wipe (the SDK's `wipeDataForAccount`): a shell
/// command (`/bin/sh -c`) that gets the account's UPN in `COMPLIANCE_WIPE_ACCOUNT` and its
/// managed files' directory in `COMPLIANCE_WIPE_DIRECTORY` (it exists), bounded in time. Exit
/// status 0 answers YES (the app removed its own data for the account); anything else NO.
/// Either way the daemon then removes the account's vault directory and key.
public typealias WipeHook = AppHookCommand<WipeHookPurpose>

extension AppHookCommand where Purpose == WipeHookPurpose {
    /// How the command ended.
    public typealias Outcome = HookOutcome

    /// Runs the command for `account` and waits for it, at most ``timeout`` plus a short grace
    /// for the kill to be reaped. Its standard input and output are `/dev/null`.
    /// - Parameter directory: the account's vault directory (`COMPLIANCE_WIPE_DIRECTORY`).
    /// - Throws: ``VaultError/Code/io`` when `/bin/sh` cannot be started.
    /// - Parameter stateDirectory: where the hook's process group is recorded while it runs.
    public func run(for account: AccountID, directory: String? = nil, stateDirectory: String? = nil, logger: Logger) async throws -> Outcome {
        var environment = ["COMPLIANCE_WIPE_ACCOUNT": account.upn]
        if let directory { environment["COMPLIANCE_WIPE_DIRECTORY"] = directory }
        do {
            return try await HookProcess.run(
                command, environment: environment, timeout: timeout, label: "wipe", account: account.upn, stateDirectory: stateDirectory, logger: logger)
        } catch {
            throw VaultError(code: .io, account: account.upn, message: "cannot start the wipe hook: \(error.underlying)")
        }
    }
}
