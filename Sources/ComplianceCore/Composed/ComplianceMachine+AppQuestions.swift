/// The SDK's questions to a MultiIdentity app about identities (``AppIdentityQuestion``,
/// decided for issue 38), asked through the app's identity hook
/// (``Configuration/hasIdentityHook``) and answered by the app's Success or Failed:
///
/// - **`identitySwitchRequired`** after the user cancelled a conditional launch (the PIN of a
///   switch to the managed identity): the SDK asks the app to switch to no user. The header:
///   "The SDK will block the operation which required the identity switch until the
///   application calls the completion handler", so the `setUIPolicyIdentity` call that was
///   Canceled is answered only once the app answered. **Success**: the UI identity becomes no
///   user ("The app doesn't have to call setUIPolicyIdentity in response to this call").
///   **Failed**: the app cannot switch, the SDK's request is dropped: the UI identity stays
///   what it was before the cancelled switch (the managed identity whose PIN was cancelled was
///   never put in force, so nothing of it is shown).
/// - The daemon's own reason `accountRemoved` (an identity in force starts to leave) is not a
///   question: the identity leaves with its account in the same step whatever the app could
///   answer (invariant 15), and the app is told (`identitySwitchRequired`).
/// - **`addIdentity`** when the SDK enrolled an account on its own ("When the SDK needs to
///   auto-enroll a user in the app to perform an action", ``sdkEnrollmentRequested(_:ticket:now:)``):
///   **Success**: the app has the account: it is registered and enrolled as a sign-in's
///   registration is (227 while another account is managed); **Failed**: the app cannot add it,
///   so the SDK does not enroll it: nothing of the account is registered. An account the app
///   already has (registered) is not asked about again; a second request for an account whose
///   question is in flight waits for the same answer (the app is asked once); an account that
///   began to leave, or that the allowed accounts came to exclude, while the app was asked is
///   refused as it would have been before the question (`identity_not_allowed`).
///
/// Without a hook the daemon, playing the app, answers Success at once (no event), as before.
/// A question in flight dies with the process (as the SDK's completion handler would); its
/// caller is answered `storage_unavailable` after a failed commit, like any waiting caller.
/// Invariant 23 holds the answers to these consequences.
extension ComplianceMachine {
    /// A question the app has not answered yet, and what waits for its answer.
    public struct PendingAppQuestion: Sendable, Hashable, Codable {
        public var question: AppIdentityQuestion
        /// The callers whose operations required it (a second `addIdentity` request for the same
        /// account joins the first); answered once the app answered.
        var tickets: [Ticket]
        /// The `setUIPolicyIdentity` answer that caller gets (a Canceled switch).
        var outcome: IdentitySwitch?
        /// `addIdentity`: the account started to leave (deregistered, wiped) while the app was
        /// asked; it is refused whatever the app answers, also once it has left.
        var accountLeft = false
    }

    /// Every question asked of the app and not answered yet, with the step that waits for its
    /// answer: the one walk over the outstanding steps the questions' rules share.
    private var pendingAppQuestions: some Sequence<(step: StepID, pending: PendingAppQuestion)> {
        volatile.outstanding.lazy.compactMap { step, outstanding in
            if case .appQuestion(let pending) = outstanding { (step: step, pending: pending) } else { nil }
        }
    }

    /// The questions asked of the app and not answered yet.
    public var appQuestionsInFlight: [AppIdentityQuestion] { pendingAppQuestions.map(\.pending.question) }

    /// The accounts whose `addIdentity` question is in flight and that started to leave while
    /// it was asked (refused whatever the app answers).
    public var addIdentityAccountsLeftWhileAsked: Set<AccountID> {
        Set(pendingAppQuestions.compactMap { asked in
            guard case .addIdentity(let account) = asked.pending.question, asked.pending.accountLeft else { return nil }
            return account
        })
    }

    /// The user cancelled the conditional launch of a switch (`outcome`, Canceled): the SDK
    /// asks the app to switch to no user; `ticket` (the switch's caller) hears after the app.
    mutating func conditionalLaunchCancelled(_ outcome: IdentitySwitch, ticket: Ticket) {
        let question = AppIdentityQuestion.switchRequired(nil, .cancelConditionalLaunch)
        note(.identitySwitchRequired(nil, .cancelConditionalLaunch))
        guard configuration.hasIdentityHook else {
            identities.ui = .noUser  // the daemon, as the app, switches
            reply(ticket, .identity(outcome))
            return
        }
        ask(PendingAppQuestion(question: question, tickets: [ticket], outcome: outcome))
    }

    /// `addIdentity:completionHandler:`: the SDK enrolled `account` on its own and asks the app
    /// to add it. Refused (`identity_not_allowed`) for an account that may not be in force (the
    /// allowed accounts exclude it, or it is leaving), and `policy_required` never (adding is
    /// how a policy arrives). Replies `.settled` once the app answered and, on Success, the
    /// account's registration settled; the event `appAnsweredIdentity` says the answer.
    public mutating func sdkEnrollmentRequested(_ account: AccountID, ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        if let refusal = addIdentityRefusal(account) {
            reply(ticket, .refused(refusal))
            return
        }
        if let (step, pending) = pendingQuestion(.addIdentity(account)) {
            var joined = pending
            joined.tickets.append(ticket)
            volatile.outstanding[step] = .appQuestion(joined)
            return
        }
        guard configuration.hasIdentityHook, !isRegistered(account) else {
            addIdentity(account, tickets: [ticket], now: now)
            return
        }
        ask(PendingAppQuestion(question: .addIdentity(account), tickets: [ticket], outcome: nil))
    }

    /// Why `account` may not be added now: the allowed accounts exclude it, or it is leaving
    /// (or left while the app was asked).
    private func addIdentityRefusal(_ account: AccountID, leftMeanwhile: Bool = false) -> Refusal? {
        guard leftMeanwhile || isLeaving(account) || !allowed.allowed.allows(account) else { return nil }
        return Refusal(.identityNotAllowed, account, "\(account.upn) may not be added: it is not allowed in this app by your organization's policy, or it is being removed")
    }

    /// Marks every `addIdentity` question in flight whose account is leaving now (called at the
    /// end of every step, so an account that leaves and is gone before the app answers is
    /// still refused).
    mutating func noteAccountsLeavingWhileAsked() {
        let leaving = pendingAppQuestions.filter { asked in
            guard case .addIdentity(let account) = asked.pending.question else { return false }
            return !asked.pending.accountLeft && isLeaving(account)
        }
        for (step, var pending) in leaving {
            pending.accountLeft = true
            volatile.outstanding[step] = .appQuestion(pending)
        }
    }

    /// The step and question in flight asking `question`, if one is.
    private func pendingQuestion(_ question: AppIdentityQuestion) -> (StepID, PendingAppQuestion)? {
        pendingAppQuestions.first { $0.pending.question == question }
    }

    /// Asks the app (``Action/askApp(_:_:)``); its answer comes to ``appAnswered(_:_:now:)``.
    private mutating func ask(_ pending: PendingAppQuestion) {
        let step = newStep()
        volatile.outstanding[step] = .appQuestion(pending)
        emit(.askApp(step, pending.question))
    }

    /// The app answered `pending` (`.appAnswered`; any other result is a Failed answer).
    mutating func appAnswered(_ pending: PendingAppQuestion, _ result: StepResult, now: Instant) {
        let answer: AppIdentityAnswer
        if case .appAnswered(let given) = result { answer = given } else { answer = AppIdentityAnswer(success: false, outcome: "no answer") }
        note(.appAnsweredIdentity(pending.question, answer))
        switch pending.question {
        case .switchRequired(let identity, _):
            // Success: the SDK switches (no user, or an identity that may still be in force).
            if answer.success, identity.map({ identityRefusal($0) == nil }) ?? true {
                identities.ui = IdentitySetting(identity)
            }
            if let outcome = pending.outcome {
                for ticket in pending.tickets { reply(ticket, .identity(outcome)) }
            }
        case .addIdentity(let account):
            if let refusal = addIdentityRefusal(account, leftMeanwhile: pending.accountLeft) {
                for ticket in pending.tickets { reply(ticket, .refused(refusal)) }
            } else if answer.success {
                addIdentity(account, tickets: pending.tickets, now: now)
            } else {
                for ticket in pending.tickets { reply(ticket, .settled) }
            }
        }
    }

    /// The app has the account the SDK enrolled: registered and enrolled as a sign-in's
    /// registration is; `tickets` hear once that settled.
    private mutating func addIdentity(_ account: AccountID, tickets: [Ticket], now: Instant) {
        ensureAccount(account)
        registerIfUnregistered(account, now: now)
        for ticket in tickets { volatile.waiters.append(.timer(ticket, account)) }
    }
}
