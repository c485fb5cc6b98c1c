import ComplianceCore

extension Engine {
    /// The app's answer to an SDK question about identities (its identity hook): exit status 0
    /// is Success. Without a hook the machine asks nothing (it answers for the app itself).
    nonisolated func askIdentityHook(_ question: AppIdentityQuestion) async -> ComplianceMachine.StepResult {
        guard let hook = configuration.identityHook else {
            preconditionFailure("the machine asked the identity hook \(question.call), but none is configured (hasIdentityHook false)")
        }
        let answer = await hook.ask(question, stateDirectory: store.stateDirectory, logger: logger)
        logger.notice("the app answered an identity question", metadata: [
            "identity.call": "\(question.call)", "identity.result": "\(answer.result)", "identity.outcome": "\(answer.outcome)",
        ])
        return .appAnswered(answer)
    }
}

extension Engine {
    /// `addIdentity:completionHandler:` for an account the SDK enrolled on its own: asks the
    /// app (its identity hook; Success without one); on Success the account is registered and
    /// enrolled as a sign-in's registration is. Returns the account and whether it is registered now.
    /// Refused (`identity_not_allowed`) for an account the allowed accounts exclude or that leaves.
    public func sdkEnrolled(_ upn: String) async throws(EngineError) -> (account: AccountID, registered: Bool) {
        let account = try parseAccount(upn)
        try await ask("an SDK enrollment") { machine, ticket in
            machine.sdkEnrollmentRequested(account, ticket: ticket, now: clock.now)
        } narrow: {
            if case .settled = $0 { () } else { nil }
        }
        return (account, machine.registeredAccounts.contains(account))
    }
}
