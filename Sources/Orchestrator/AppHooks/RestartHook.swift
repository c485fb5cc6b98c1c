import ComplianceCore
import Logging

/// What names the restart hook (``RestartHook``).
public enum RestartHookPurpose {}

/// The app's `restartApplication` (IntuneMAMPolicyDelegate), asked when a first policy needs
/// the app to restart, and its save-state point: a shell command (`/bin/sh -c`) that gets the
/// account whose first policy it is in `COMPLIANCE_RESTART_ACCOUNT`, that account's managed
/// files' directory in `COMPLIANCE_RESTART_DIRECTORY` and the daemon's state directory in
/// `COMPLIANCE_STATE_DIRECTORY`, bounded in time (killed past it: NO). Exit status 0 answers
/// YES (the app restarts itself and reports it); anything else NO (the SDK restarts it after
/// telling the user). The decision is ComplianceCore's ``RestartAnswer``.
public typealias RestartHook = AppHookCommand<RestartHookPurpose>

extension AppHookCommand where Purpose == RestartHookPurpose {
    /// Runs the command for `account` and returns the app's answer; a command that cannot
    /// start answers NO (`could not start`).
    public func ask(for account: AccountID, directory: String, stateDirectory: String, logger: Logger) async -> RestartAnswer {
        let environment = [
            "COMPLIANCE_RESTART_ACCOUNT": account.upn, "COMPLIANCE_RESTART_DIRECTORY": directory,
            "COMPLIANCE_STATE_DIRECTORY": stateDirectory,
        ]
        do {
            let outcome = try await HookProcess.run(
                command, environment: environment, timeout: timeout, label: "restart", account: account.upn, stateDirectory: stateDirectory, logger: logger)
            return .hook(exitStatus: outcome.exitStatus, outcome: outcome.description)
        } catch {
            logger.error("cannot start the restart hook", metadata: ["account.id": "\(account.upn)", "error.message": "\(error.underlying)"])
            return .hook(exitStatus: nil, outcome: "could not start")
        }
    }
}
