extension ComplianceInvariants {
    // MARK: - 23

    /// 23. An SDK question to the app about identities (ComplianceMachine+AppQuestions.swift)
    /// changes things only by the app's answer: after `identitySwitchRequired` answered Success
    /// the UI identity is the one asked for (unless it may no longer be in force), after Failed
    /// it is what it was; after `addIdentity` answered Failed the account is no more registered
    /// than before, after Success it is registered (unless it is leaving or not allowed, or
    /// started to leave while the app was asked). The
    /// `setUIPolicyIdentity` whose cancelled conditional launch needed the answer is not answered
    /// in the step that asks.
    public static func appAnswersDecide(_ transition: Transition) -> [Violation] {
        guard let before = transition.before, !transition.persistFailed else { return [] }
        let after = transition.after
        var found: [Violation] = []
        // A step that restarted the app or removed an identity changes the identities for its own reasons.
        let identitiesMovedOtherwise = transition.events.contains { event in
            switch event {
            case .appRestarted, .identitySwitchRequired(_, .accountRemoved): true
            default: false
            }
        }
        for event in transition.events {
            guard case .appAnsweredIdentity(let question, let answer) = event else { continue }
            switch question {
            case .switchRequired(let identity, _):
                guard !identitiesMovedOtherwise else { continue }
                let mayBeInForce = identity.map { after.mayBeInForce($0) } ?? true
                if answer.success, mayBeInForce, after.identities.ui != IdentitySetting(identity) {
                    found.append(Violation(.appAnswersDecide, "the app answered Success to \(question), and the UI identity is \(after.identities.ui)"))
                }
                if !answer.success, after.identities.ui != before.identities.ui {
                    found.append(Violation(.appAnswersDecide, "the app answered Failed to \(question), and the UI identity moved from \(before.identities.ui) to \(after.identities.ui)"))
                }
            case .addIdentity(let account):
                let registeredBefore = before.registeredAccounts.contains(account)
                let registeredAfter = after.registeredAccounts.contains(account)
                if !answer.success, registeredAfter, !registeredBefore {
                    found.append(Violation(.appAnswersDecide, "the app answered Failed to \(question), and \(account.upn) was registered"))
                }
                let leftWhileAsked = before.addIdentityAccountsLeftWhileAsked.contains(account)
                if answer.success, !registeredAfter, after.mayBeInForce(account), after.configuration.mamService, !leftWhileAsked {
                    found.append(Violation(.appAnswersDecide, "the app answered Success to \(question), and \(account.upn) is not registered"))
                }
            }
        }
        let asked = transition.actions.contains { if case .askApp(_, .switchRequired) = $0 { true } else { false } }
        let cancelledAnswered = transition.actions.contains { action in
            if case .reply(_, .identity(let outcome)) = action { outcome.result == .canceled } else { false }
        }
        if asked, cancelledAnswered {
            found.append(Violation(.appAnswersDecide, "a cancelled switch was answered before the app answered the SDK's identitySwitchRequired"))
        }
        return found
    }
}
