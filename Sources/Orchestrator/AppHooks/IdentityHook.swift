import ComplianceCore
import Logging

/// What names the identity hook (``IdentityHook``).
public enum IdentityHookPurpose {}

/// The app's IntuneMAMPolicyDelegate answers about identities (``AppIdentityQuestion``):
/// `identitySwitchRequired` and `addIdentity:completionHandler:`. A shell command (`/bin/sh -c`)
/// that gets the delegate method in `COMPLIANCE_IDENTITY_CALL` (`identitySwitchRequired` or
/// `addIdentity`), the identity in `COMPLIANCE_IDENTITY_ACCOUNT` (normalised; empty: no user), the switch's
/// reason in `COMPLIANCE_IDENTITY_REASON` (`cancelConditionalLaunch`; empty for `addIdentity`)
/// and the daemon's state directory in `COMPLIANCE_STATE_DIRECTORY`, bounded in time (killed
/// past it: Failed). Exit status 0 answers Success; anything else Failed. The consequences are
/// ComplianceCore's (ComplianceMachine+AppQuestions.swift).
public typealias IdentityHook = AppHookCommand<IdentityHookPurpose>

extension AppHookCommand where Purpose == IdentityHookPurpose {
    /// Runs the command for `question` and returns the app's answer; a command that cannot
    /// start answers Failed (`could not start`).
    public func ask(_ question: AppIdentityQuestion, stateDirectory: String, logger: Logger) async -> AppIdentityAnswer {
        var reason = ""
        if case .switchRequired(_, let why) = question { reason = why.rawValue }
        let account = question.identity?.key ?? ""  // normalised: the spelling the daemon keys the account by
        let environment = [
            "COMPLIANCE_IDENTITY_CALL": question.call, "COMPLIANCE_IDENTITY_ACCOUNT": account,
            "COMPLIANCE_IDENTITY_REASON": reason, "COMPLIANCE_STATE_DIRECTORY": stateDirectory,
        ]
        do {
            let outcome = try await HookProcess.run(
                command, environment: environment, timeout: timeout, label: "identity", account: account, stateDirectory: stateDirectory, logger: logger)
            return .hook(exitStatus: outcome.exitStatus, outcome: outcome.description)
        } catch {
            logger.error("cannot start the identity hook", metadata: ["account.id": "\(account)", "error.message": "\(error.underlying)"])
            return .hook(exitStatus: nil, outcome: "could not start")
        }
    }
}
