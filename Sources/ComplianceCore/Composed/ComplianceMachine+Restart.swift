/// The app's restart after a first policy, when the app is asked (`restartApplication`, its
/// restart hook) instead of being restarted by the SDK at once:
/// - ``Action/restartApp(_:)`` → the Orchestrator runs the hook (the app saves its state) and
///   calls ``restartApplicationAnswered(_:now:)``.
/// - NO: the SDK restarts the app after telling the user: the same as ``appRestarted(now:)``.
/// - YES: the app **owes** the restart (stored: a process restart of the daemon does not pay
///   it). Every caller waiting on it is answered `restart_pending`; while it is owed no reply
///   hands out a token and sign-in, token and remediation calls are refused `restart_pending`;
///   the remediation waiting for it stays `awaitingRestart`. ``appReportedRestart(ticket:now:)``
///   (the app says it has restarted) pays it: the remediation goes on, and that call gets its
///   one report.
extension ComplianceMachine {
    /// The account whose restart the machine itself waits for (the SDK's restart, or the app's
    /// answer); nil while the app owes it.
    var restartAwaitedBySDK: AccountID? {
        restartOwedByApp == nil ? restartPending : nil
    }

    /// True while the remediation waits for a restart the app owes.
    var remediationWaitsForApp: Bool {
        restartOwedByApp != nil && remediation.activeStep == .awaitingRestart
    }

    /// The account whose remediation runs now; nil when it only waits for the app's restart.
    var runningRemediationAccount: AccountID? {
        remediationWaitsForApp ? nil : remediation.activeAccount
    }

    /// The account a first policy restarts the app for now, if any.
    private var restartUnderWay: AccountID? {
        if let restartPending { return restartPending }
        return remediation.activeStep == .awaitingRestart ? remediation.activeAccount : nil
    }

    /// Whether ``Action/restartApp(_:)`` asks the app (its restart hook, `restartApplication`)
    /// now, or the SDK restarts it at once (``appRestarted(now:)``): the app is asked only when
    /// it has a restart hook and has finished launching. A first policy the launch's own work
    /// brings (an `AutoEnrollOnLaunch` enrollment, a resumed remediation) comes before the app
    /// finished launching: "If you choose this option for your app, you don't have to handle
    /// restarting your app after enrolling" (the guide, "Let Intune handle authentication and
    /// enrollment at launch").
    public var asksAppToRestart: Bool {
        configuration.hasRestartHook && !volatile.launching
    }

    /// The account whose restart the app owes (its `restartApplication` answered YES and it
    /// has not reported the restart yet).
    public var restartOwed: AccountID? { restartOwedByApp }

    /// The app answered `restartApplication` for the restart of ``Action/restartApp(_:)``.
    /// NO: the SDK restarts it now (``appRestarted(now:)``). YES: the app owes the restart;
    /// the callers waiting for it are answered `restart_pending`. Late (no restart under way,
    /// or one already owed): nothing.
    public mutating func restartApplicationAnswered(_ answer: RestartAnswer, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        guard restartOwedByApp == nil, let account = restartUnderWay ?? restartAsked else { return }
        note(.restartApplicationAnswered(account, answer))
        guard answer.appHandlesRestart else {
            restartHappened(now: now)
            return
        }
        restartOwedByApp = account
        // Asked and answered: the app owes it now. Another account's restart asked earlier (see
        // askRestart) stays asked: it happens with the owed one.
        if restartAsked == account { restartAsked = nil }
        markAppDirty()
        let refusal = Self.restartPendingRefusal(account, owed: account)
        for waiting in volatile.remediationWaiters.keys.sorted() {
            for waiter in volatile.remediationWaiters.removeValue(forKey: waiting) ?? [] {
                reply(waiter.ticket, .refused(refusal))
            }
            volatile.remediationInteraction[waiting] = nil
        }
    }

    /// The app reports it has restarted (the restart it owed). Replies with the report of the
    /// remediation that waited for the restart, once it is delivered; `.settled` when none
    /// waited; `conflict` when the app owes no restart.
    public mutating func appReportedRestart(ticket: Ticket, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        guard restartOwedByApp != nil else {
            reply(ticket, .refused(Refusal(
                .conflict, nil,
                "the app owes no restart: report a restart only after the restart hook answered YES (restartApplication) to a first policy")))
            return
        }
        let owed = restartOwedByApp
        restartOwedByApp = nil
        markAppDirty()
        if remediation.activeStep == .awaitingRestart, let account = remediation.activeAccount {
            volatile.remediationWaiters[account, default: []].append(.command(ticket))
        } else {
            reply(ticket, .settled)
        }
        // The owed restart is recorded here unless restartHappened records it (it is the pending
        // one, or a remediation still waits for it): what waited for it may have left meanwhile
        // (a wipe, a deregistration), and another account's restart may be pending beside it;
        // the app restarted all the same.
        let awaitingOwed = remediation.activeStep == .awaitingRestart && remediation.activeAccount == owed
        if let owed, owed != restartPending, !awaitingOwed {
            note(.appRestarted(owed))
        }
        restartHappened(now: now)
    }

    /// Asks for the app's restart (``Action/restartApp(_:)``) and remembers it until it happens.
    /// A restart asked before and not yet happened stays the one remembered: the app restarts
    /// once, for both, and that earlier account's restart is recorded when it does even if the
    /// account left meanwhile (its remediation no longer waits for it). This account's restart
    /// is remembered where it waits: ``restartPending`` or the remediation awaiting it.
    mutating func askRestart(_ account: AccountID) {
        if restartAsked == nil {
            restartAsked = account
            markAppDirty()
        }
        emit(.restartApp(account))
    }

    /// The restart asked for has happened (or the app owes it now): a restart not yet recorded
    /// this step is recorded as `appRestarted`, also when what waited for it left meanwhile.
    mutating func restartAskedEnded() {
        guard let asked = restartAsked else { return }
        restartAsked = nil
        markAppDirty()
        if !volatile.events.contains(.appRestarted(asked)) { note(.appRestarted(asked)) }
    }

    /// The app has restarted: a pending restart is over and the remediation that waited for
    /// it goes on.
    mutating func restartHappened(now: Instant) {
        defer { restartAskedEnded() }
        identities = AppIdentities()  // the process started again: no identity is set
        if restartOwedByApp != nil {
            restartOwedByApp = nil
            markAppDirty()
        }
        if let account = restartPending {
            restartPending = nil
            markAppDirty()
            note(.appRestarted(account))
        }
        if remediation.activeStep == .awaitingRestart, let account = remediation.activeAccount {
            note(.appRestarted(account))
            runRemediation(remediationStep { $0.appRestarted() }, now: now)
        }
    }

    /// While the app owes a restart: the refusal of a sign-in, token or remediation call.
    public func restartOwedRefusal(_ account: AccountID) -> Refusal? {
        restartOwedByApp.map { Self.restartPendingRefusal(account, owed: $0) }
    }

    private static func restartPendingRefusal(_ account: AccountID, owed: AccountID) -> Refusal {
        Refusal(
            .restartPending, account,
            "the app must restart first: its restartApplication answered YES to the first policy of \(owed.upn), and the app has not reported the restart (POST /v1/app/restarted, compliancectl app restarted)")
    }

    /// A reply as it may leave while the app owes a restart: no token reaches the app (a
    /// token or sign-in answer carrying one is refused `restart_pending`; a report keeps no token).
    func withheldWhileRestartOwed(_ reply: Reply) -> Reply {
        guard let owed = restartOwedByApp else { return reply }
        switch reply {
        case .token(let answer) where answer.tokens != nil, .signIn(_, let answer) where answer.tokens != nil:
            return .refused(Self.restartPendingRefusal(answer.account, owed: owed))
        case .remediation(let report, .some):
            return .remediation(report, tokens: nil)
        default:
            return reply
        }
    }
}
