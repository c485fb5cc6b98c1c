import ComplianceCore

extension ExploreState {
    /// The events possible from this state.
    public func events(in universe: Universe) -> [ExploreEvent] {
        guard let script else {
            return universe.scripts.enumerated().map { .choose($0.offset, $0.element.name) }
        }
        var events: [ExploreEvent] = []
        let steps = universe.scripts[script].steps
        if scriptPosition < steps.count {
            switch steps[scriptPosition] {
            case .command(let command):
                if openTickets.count < budget.concurrentCommands, !launching { events.append(.command(command)) }
            case .admin(let change):
                events.append(.admin(change))
            }
        }
        for action in pending {
            guard let step = Self.step(of: action) else { continue }
            for answer in Self.answers(to: action, in: universe) {
                if case .failure = answer, budget.failures == 0 { continue }
                events.append(.complete(step, answer))
            }
        }
        if budget.timers > 0, pending.isEmpty, !launching, machine.nextDueTimer() != nil { events.append(.timer) }
        if budget.crashes > 0, world.durableApp != nil { events.append(.crash) }
        if budget.storageFailures > 0, !failNextPersist { events.append(.storageFails) }
        if restartAsked != nil {
            events += [.restartAnswered(appHandlesRestart: true), .restartAnswered(appHandlesRestart: false)]
            if universe.hookFailures { events += HookFailure.allCases.map(ExploreEvent.restartHookFailed) }
        }
        if machine.restartOwed != nil, openTickets.count < budget.concurrentCommands, !launching { events.append(.appReportsRestart) }
        return events
    }

    /// The answer classes of an I/O action.
    static func answers(to action: ComplianceMachine.Action, in universe: Universe) -> [Answer] {
        switch action {
        case .requestToken(_, .refreshToken, _, let scopes, _, _, _):
            [.normal, .failure(.capabilityMissing), .failure(.interactionRequired), .failure(.issuerUnavailable), .failure(.issuerUnreachable),
             .failure(.upnReassigned)]
                + (declinable(scopes) ? [.failure(.scopesDeclined)] : [])
        case .requestToken(_, .interactive, _, let scopes, _, _, _):
            [.normal, .failure(.capabilityMissing), .failure(.issuerUnavailable), .failure(.issuerUnreachable), .failure(.userCancelled),
             .failure(.issuerMisconfigured), .failure(.anotherPerson), .failure(.wrongPassword)]
                + (declinable(scopes) ? [.failure(.scopesDeclined)] : [])
        case .callMAM:
            [.normal, .failure(.mamServerError), .failure(.mamUnreachable), .failure(.mamMalformed)]
                + (universe.claimsChallenges ? [.failure(.claimsChallenge)] : [])
        case .removeTokens, .removeVaultFiles, .encryptPlainFiles:
            [.normal, .failure(.diskFull)]
        case .runAppHook:
            [.hook(removedData: true), .hook(removedData: false)] + (universe.hookFailures ? HookFailure.allCases.map(Answer.hookFailed) : [])
        case .askApp:
            // The identity hook's Success or Failed.
            [.hook(removedData: true), .hook(removedData: false)]
        default:
            [.normal]
        }
    }

    /// A request whose scopes an issuer can decline (a `.default` request gets what it stands for).
    static func declinable(_ scopes: [String]) -> Bool {
        !scopes.contains { $0.hasSuffix("/.default") } && !DeclinedScopes.declined(requested: scopes, granted: ["openid"]).isEmpty
    }

    public static func step(of action: ComplianceMachine.Action) -> ComplianceMachine.StepID? {
        switch action {
        case .readTokenCache(let step, _, _, _), .requestToken(let step, _, _, _, _, _, _), .removeRefreshToken(let step, _, _), .callMAM(let step, _, _),
             .removeTokens(let step, _), .removeVaultFiles(let step, _), .runAppHook(let step, _), .encryptPlainFiles(let step, _),
             .askApp(let step, _):
            step
        default:
            nil
        }
    }

    /// Takes `event`: returns the transition (for the invariants) and the facts to check it with.
    public mutating func apply(_ event: ExploreEvent, in universe: Universe) -> (ComplianceInvariants.Transition, ComplianceInvariants.Facts) {
        let before = machine
        let factsBefore = world.facts
        var persistFailed = false
        var fed: (account: AccountID, kind: ComplianceInvariants.NotificationKind)?
        var read: ComplianceInvariants.DataRead?
        let now = world.now

        switch event {
        case .choose(let index, _):
            script = index
        case .command(.readData(let name)):
            scriptPosition += 1
            read = readData(name, universe: universe)
        case .command(let command):
            scriptPosition += 1
            issue(command, universe: universe, now: now)
        case .admin(let change):
            scriptPosition += 1
            administer(change, universe: universe)
        case .complete(let step, let answer):
            if case .failure = answer { budget.failures -= 1 }
            guard let index = pending.firstIndex(where: { Self.step(of: $0) == step }) else { break }
            let action = pending.remove(at: index)
            let result = answerResult(action, answer, universe: universe)
            fed = result.fed
            machine.completed(step, result.result, now: now)
        case .timer:
            budget.timers -= 1
            if let due = machine.nextDueTimer() {
                if due.at > world.now { world.now = due.at }
                let ticket = newTicket(.token("timer"))
                machine.timerFired(due.account, due.timer, ticket: ticket, now: world.now)
            }
        case .crash:
            budget.crashes -= 1
            restartAsked = nil  // the hook's answer dies with the process: the start is the restart
            pending = []
            openTickets = [:]
            failNextPersist = false
            reload(now: now)
            launching = true
        case .storageFails:
            budget.storageFailures -= 1
            failNextPersist = true
        case .restartAnswered(let yes):
            restartAsked = nil
            machine.restartApplicationAnswered(RestartAnswer.hook(exitStatus: yes ? 0 : 1, outcome: yes ? "exited with status 0" : "exited with status 1"), now: now)
        case .restartHookFailed(let failure):
            restartAsked = nil
            machine.restartApplicationAnswered(RestartAnswer.hook(exitStatus: nil, outcome: failure.outcome), now: now)
        case .appReportsRestart:
            machine.appReportedRestart(ticket: newTicket(.token("app restart")), now: now)
        }
        let credentialed = Set(openTickets.filter { $0.value.carriesCredentials }.keys)
        drain()
        finishLaunchWhenResumed()
        let actions = drainLog.actions
        let failedPersistIndex = drainLog.failedPersistIndex
        drainLog = DrainLog()
        persistFailed = failedPersistIndex != nil

        var facts = world.facts
        facts.answeredTickets = factsBefore.answeredTickets
        facts.wipesCommittedDone = factsBefore.wipesCommittedDone
        facts.tokenKeys = world.tokenKeys
        world.facts.strangerTokens = []  // reported once, with this transition
        world.facts.identitiesAtReload = nil
        world.facts.claimsChallenge = nil  // this transition's alone
        facts.dataKeys = world.vault
        facts.plainDataKeys = world.plainFiles
        facts.dataRead = read
        facts.credentialedTickets = credentialed
        if case .crash = event { facts.crashed = true }
        let transition = ComplianceInvariants.Transition(
            before: before, after: machine, actions: actions, persistFailed: persistFailed, failedPersistIndex: failedPersistIndex,
            fedMAMAnswer: fed)
        return (transition, facts)
    }

    /// While launching: once the resumed work's I/O is all answered (``pending`` empty, the
    /// restart hook not asking), the launch finishes, as `Engine.start()` runs it after its
    /// start-up jobs; its step is part of the transition that answered the last of them.
    mutating func finishLaunchWhenResumed() {
        guard launching, pending.isEmpty, restartAsked == nil else { return }
        launching = false
        machine.launchFinished(resumed: launchResumed, clock: "virtual", now: world.now)
        launchResumed = 0
        drain()
    }

    private mutating func newTicket(_ command: Command) -> ComplianceMachine.Ticket {
        let ticket = ComplianceMachine.Ticket(nextTicket)
        nextTicket += 1
        openTickets[ticket] = command
        return ticket
    }

    /// The Orchestrator's read of `name`'s file: it asks the machine, then reads the vault.
    /// Returns the read when it happened and the file held managed data.
    private func readData(_ name: String, universe: Universe) -> ComplianceInvariants.DataRead? {
        guard let owner = universe.spelling(named: name)?.account, world.vault.contains(ComplianceInvariants.storeKey(owner)),
            machine.dataReadRefusal(owner) == nil
        else { return nil }
        return ComplianceInvariants.DataRead(
            owner: owner, fileIdentity: machine.effectiveFileIdentity, processIdentityUnset: machine.identities.process == .unset,
            managed: owner == machine.managedAccount)
    }

    private mutating func issue(_ command: Command, universe: Universe, now: Instant) {
        if case .switchUI(let name) = command {
            let account = name.flatMap { universe.spelling(named: $0)?.account }
            machine.setUIPolicyIdentity(account, userCancels: false, ticket: newTicket(command), now: now)
            return
        }
        if case .switchProcess(let name) = command {
            let account = name.flatMap { universe.spelling(named: $0)?.account }
            machine.setProcessIdentity(account, ticket: newTicket(command), now: now)
            return
        }
        if case .overrideAuthority(let url) = command {
            var overrides = machine.settingsOverrides
            overrides.authority = url
            machine.setSettingsOverrides(overrides, ticket: newTicket(command), now: now)
            return
        }
        guard let spelling = universe.spelling(named: command.spelling) else { return }
        let account = spelling.account
        switch command {
        case .signIn:
            machine.signIn(account, scopes: nil, interactive: true, ticket: newTicket(command), now: now)
        case .token:
            machine.acquireToken(account, scopes: [universe.apiScope], interactive: false, remediate: true, ticket: newTicket(command), now: now)
        case .remediate:
            machine.remediate(account, interactive: true, ticket: newTicket(command), now: now)
        case .deregister(_, let wipe):
            machine.deregister(account, wipe: wipe, ticket: newTicket(command), now: now)
        case .putData:
            // The Orchestrator asks the machine, then writes the vault under the account's key.
            // Plain unless the account's policy requires encryption now (the vault's rule).
            if machine.dataRefusal(account) == nil {
                world.vault.insert(ComplianceInvariants.storeKey(account))
                if !machine.isFileEncryptionRequired(for: account) { world.plainFiles.insert(ComplianceInvariants.storeKey(account)) }
            }
        case .switchUICancelled:
            machine.setUIPolicyIdentity(account, userCancels: true, ticket: newTicket(command), now: now)
        case .sdkEnrolls:
            machine.sdkEnrollmentRequested(account, ticket: newTicket(command), now: now)
        case .readData, .switchUI, .switchProcess, .overrideAuthority:
            break  // handled above
        }
    }

    private mutating func administer(_ change: AdminChange, universe: Universe) {
        switch change {
        case .excludeJose:
            world.allowedAccounts = ["alice@contoso.com"]
            world.policyVersion += 1
        case .queueWipe(let name):
            if let spelling = universe.spelling(named: name) { world.wipeQueued.insert(World.user(spelling.upn)) }
        case .targetCA(let name):
            if let spelling = universe.spelling(named: name) { world.caTargeted.insert(World.user(spelling.upn)) }
        case .unassignPolicy:
            world.policyAssigned = false
        case .changePolicy:
            world.policyVersion += 1
        }
    }

    /// The machine rebuilt from the committed records and resumed, as after a restart.
    private mutating func reload(now: Instant) {
        // The records were written by this machine: they read back (a failure here is a bug the explorer reports).
        machine = (try? ComplianceMachine(restoring: world.durable, configuration: machine.configuration))
            ?? ComplianceMachine(configuration: machine.configuration)
        launchResumed = machine.resumableWork
        machine.resumed(now: now)
    }

    /// The result an I/O action gets under `answer`, with its effect on the world.
    private mutating func answerResult(
        _ action: ComplianceMachine.Action, _ answer: Answer, universe: Universe
    ) -> (result: ComplianceMachine.StepResult, fed: (account: AccountID, kind: ComplianceInvariants.NotificationKind)?) {
        switch action {
        case .requestToken(_, let grant, let account, let scopes, _, _, let environment):
            if case .refreshToken(let token) = grant { world.presentRefreshToken(token, of: account, to: environment) }
            switch answer {
            case .failure(.capabilityMissing):
                return (.grant(.response(.capabilityMissing(ServerError(status: 400, error: "invalid_grant", errorCodes: [53009])))), nil)
            case .failure(.interactionRequired):
                return (.grant(.response(.interactionRequired(InteractionRequired(
                    reason: .invalidGrant, serverError: ServerError(status: 400, error: "invalid_grant"))))), nil)
            case .failure(.issuerUnavailable):
                return (.grant(.response(.serviceFailure(ServiceFailure(status: 503)))), nil)
            case .failure(.issuerUnreachable):
                return (.grant(.transportFailed("connection refused")), nil)
            case .failure(.userCancelled):
                return (.grant(grant.isInteractive ? .cancelled : .transportFailed("cancelled")), nil)
            case .failure(.wrongPassword):
                // As the Engine maps a sign-in page that did not let the person in.
                let server = ServerError(status: 200, error: "sign_in_failed", errorDescription: "AADSTS50126: Error validating credentials", errorCodes: [50126])
                return (.grant(.response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: server)))), nil)
            case .failure(.issuerMisconfigured):
                return (.grant(.misconfigured("its authorize endpoint answered HTTP 400: \"AADSTS700016\"")), nil)
            case .failure(.anotherPerson), .failure(.upnReassigned):
                var response = world.grantAnswer(account, scopes: scopes, environment: environment)
                if case .success(var tokens) = response {
                    tokens.identity = answer == .failure(.anotherPerson)
                        ? World.identity(of: "mallory@contoso.com")
                        : TokenIdentity(subject: "oid-newcomer.tenant", username: account.upn)
                    response = .success(tokens)
                }
                return (.grant(.response(response)), nil)
            case .failure(.scopesDeclined):
                var response = world.grantAnswer(account, scopes: scopes, environment: environment)
                if case .success(var tokens) = response {
                    tokens.scopes = ["openid"]
                    response = .success(tokens)
                }
                return (.grant(.response(response)), nil)
            default:
                return (.grant(.response(world.grantAnswer(account, scopes: scopes, environment: environment))), nil)
            }
        case .callMAM(_, let request, _):
            let kind: ComplianceInvariants.NotificationKind? = switch request {
            case .enroll: .enrollment
            case .checkIn: .policy
            case .unenroll: .unenroll
            case .reportCompliance: nil
            }
            let fed = kind.map { (account: request.account, kind: $0) }
            // An unenroll request was sent, whatever became of it (invariant 9 asks for the attempt).
            if case .unenroll = request { world.facts.unenrollSent.insert(ComplianceInvariants.storeKey(request.account)) }
            switch answer {
            case .failure(.mamServerError):
                return (.mam(.failed(.internalError, detail: "HTTP 503")), fed)
            case .failure(.mamUnreachable):
                if case .enroll = request { return (.mam(.failed(.enrollmentEndPointNetworkFailure, detail: "unreachable")), fed) }
                return (.mam(.failed(.policyEndPointNetworkFailure, detail: "unreachable")), fed)
            case .failure(.mamMalformed):
                return (.mam(.failed(.parsingFailure, detail: "malformed")), fed)
            case .failure(.claimsChallenge):
                let claims = #"{"access_token":{"nbf":{"essential":true,"value":"1800000000"}}}"#
                world.facts.claimsChallenge = .init(account: request.account, claims: claims, refusedToken: request.token)
                return (.mam(.claimsChallenge(claims: claims, detail: "HTTP 401 insufficient_claims")), fed)
            default:
                return (.mam(world.mamAnswer(request)), fed)
            }
        case .removeTokens(_, let account):
            if case .failure = answer { return (.failed("disk full"), nil) }
            world.tokens = world.tokens.filter { $0.key.key != ComplianceInvariants.storeKey(account) }
            return (.done, nil)
        case .removeVaultFiles(_, let account):
            if case .failure = answer { return (.failed("disk full"), nil) }
            world.vault.remove(ComplianceInvariants.storeKey(account))
            world.plainFiles.remove(ComplianceInvariants.storeKey(account))
            return (.done, nil)
        case .encryptPlainFiles(_, let account):
            if case .failure = answer { return (.failed("disk full"), nil) }
            let wasPlain = world.plainFiles.remove(ComplianceInvariants.storeKey(account)) != nil
            return (.encrypted(files: wasPlain ? ["data"] : []), nil)
        case .runAppHook:
            // The app's YES covers its own storage: the vault (the daemon's key and files) is
            // untouched by the hook whatever it answers.
            if case .hookFailed(let failure) = answer { return (.hook(removedData: false, outcome: failure.outcome), nil) }
            if case .hook(true) = answer { return (.hook(removedData: true, outcome: "exited with status 0"), nil) }
            return (.hook(removedData: false, outcome: "exited with status 1"), nil)
        case .askApp:
            // The identity hook: `.normal` (a script's default) and YES are Success.
            if case .hook(false) = answer { return (.appAnswered(.hook(exitStatus: 1, outcome: "exited with status 1")), nil) }
            return (.appAnswered(.hook(exitStatus: 0, outcome: "exited with status 0")), nil)
        default:
            return (.done, nil)
        }
    }
}
