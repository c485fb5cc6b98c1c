/// Token requests (a ``TokenAcquisitionStateMachine`` each, in memory only) and the MAM calls
/// they precede.
extension ComplianceMachine {
    /// Starts a token request for `purpose`; interaction is allowed when `interaction` names
    /// the caller whose user answers the sign-in page. An account that may not receive a
    /// token fails at once (``TokenAcquisitionFailure/accountRemoved``), except for the MAM
    /// token of its unenrollment: leaving needs it.
    /// With `prompt` (the caller carries credentials) the request goes to the issuer's sign-in
    /// at once, never to the cache.
    mutating func startTokenRequest(
        _ account: AccountID, scopes: [String], interaction: Ticket?, prompt: Bool = false, claimsChallenge: String? = nil, purpose: TokenPurpose,
        now: Instant
    ) {
        let id = newStep()
        volatile.currentRequest[purpose] = id
        guard mayReceiveToken(account) || purpose.servesLeaving else {
            volatile.currentRequest[purpose] = nil
            finishToken(
                purpose, current: true, account: account, scopes: scopes, interaction: interaction, environment: tokenEnvironment, .failure(.accountRemoved),
                now: now)
            return
        }
        var machine = TokenAcquisitionStateMachine(request: .init(
            account: account, scopes: scopes, capabilities: configuration.capabilities, claimsChallenge: claimsChallenge,
            allowInteraction: interaction != nil, prompt: prompt))
        let action = machine.start()
        volatile.tokenRequests[id] = TokenRequest(machine: machine, purpose: purpose, interaction: interaction, environment: tokenEnvironment)
        runToken(id, action, now: now)
    }

    /// Runs a token request's actions until it waits for I/O or ends.
    mutating func runToken(_ id: StepID, _ action: TokenAcquisitionStateMachine.Action, now: Instant) {
        guard let request = volatile.tokenRequests[id] else { return }
        let account = request.machine.request.account
        let scopes = request.machine.request.scopes
        switch action {
        case .readCache(let account, let scopes):
            let step = newStep()
            volatile.outstanding[step] = .token(id)
            emit(.readTokenCache(step, account, scopes: scopes, environment: request.environment))
        case .requestToken(let grant, let account, let scopes, let claims):
            if let hold = volatile.holds.hold(.issuer(request.environment), now: now) {
                // The issuer asked to wait (Retry-After): the grant fails unsent, as MSAL's does.
                var held = request
                let next = held.machine.tokenResponseReceived(.serviceFailure(ServiceFailure(status: hold.status, retryAfter: hold.wait)))
                volatile.tokenRequests[id] = held
                runToken(id, next, now: now)
                return
            }
            let step = newStep()
            volatile.outstanding[step] = .token(id)
            emit(.requestToken(
                step, grant, account, scopes: scopes, claims: claims, interaction: grant.isInteractive ? request.interaction : nil,
                environment: request.environment))
        case .removeRefreshToken(let account):
            let step = newStep()
            volatile.outstanding[step] = .token(id)
            emit(.removeRefreshToken(step, account, environment: request.environment))
        case .deliverTokens(let tokens, let store):
            volatile.tokenRequests[id] = nil
            let current = endRequest(id, request.purpose)
            guard mayReceiveToken(account) || request.purpose.servesLeaving else {
                finishToken(request.purpose, current: current, account: account, scopes: scopes, interaction: request.interaction, environment: request.environment, .failure(.accountRemoved), now: now)
                return
            }
            // A leaving account's tokens serve its unenrollment only: never cached again.
            if store, mayReceiveToken(account) {
                keep(tokens, scopes: scopes, for: account, environment: request.environment)
            }
            // A cache hit (`store` false) changes nothing: it notes no event, so its step commits nothing.
            finishToken(
                request.purpose, current: current, account: account, scopes: scopes, interaction: request.interaction, environment: request.environment,
                .success(tokens),
                fromCache: !store, now: now)
        case .keepGranted(let tokens, let granted, let failure):
            volatile.tokenRequests[id] = nil
            let current = endRequest(id, request.purpose)
            // Kept under the granted scopes only (none: the refresh token only), never under
            // the request's; a leaving account's tokens are not kept at all.
            if mayReceiveToken(account) {
                keep(tokens, scopes: granted, for: account, environment: request.environment)
            }
            finishToken(request.purpose, current: current, account: account, scopes: scopes, interaction: request.interaction, environment: request.environment, .failure(failure), now: now)
        case .fail(let failure):
            volatile.tokenRequests[id] = nil
            let current = endRequest(id, request.purpose)
            finishToken(request.purpose, current: current, account: account, scopes: scopes, interaction: request.interaction, environment: request.environment, .failure(failure), now: now)
        case .none:
            volatile.tokenRequests[id] = nil
            endRequest(id, request.purpose)
        }
    }

    /// Queues `tokens` to be saved for `account` under `scopes` with this step's persist (no
    /// scopes: the refresh token only).
    private mutating func keep(_ tokens: TokenSet, scopes: [String], for account: AccountID, environment: TokenEnvironment) {
        let known = ensureAccount(account.homeAccountID == nil ? tokens.clientInfo?.homeAccountID.map { account.with(homeAccountID: $0) } ?? account : account)
        volatile.tokens.append(TokenWrite(known, scopes, tokens, environment))
        accounts[known]?.holdsTokens = true
        if let subject = tokens.identity?.subject, accounts[known]?.subject == nil { accounts[known]?.subject = subject }
        markDirty(known)
    }

    /// Forgets the request; true when it was the one its purpose waited for.
    @discardableResult
    private mutating func endRequest(_ id: StepID, _ purpose: TokenPurpose) -> Bool {
        guard volatile.currentRequest[purpose] == id else { return false }
        volatile.currentRequest[purpose] = nil
        return true
    }

    /// Ends every token request of the account (it is being wiped): each fails with
    /// ``TokenAcquisitionFailure/accountRemoved``.
    mutating func cancelTokenRequests(of account: AccountID, now: Instant) {
        for id in volatile.tokenRequests.keys.sorted() where volatile.tokenRequests[id]?.machine.request.account == account {
            if volatile.tokenRequests[id]?.purpose.servesLeaving == true { continue }
            guard var request = volatile.tokenRequests[id] else { continue }
            let action = request.machine.accountRemoved()
            volatile.tokenRequests[id] = request
            runToken(id, action, now: now)
        }
    }

    /// A 53005 whose answer carried no `client_info` gets the account's known home account id
    /// (and its tenant), as MSAL fills `MSALHomeAccountIdKey` from the request's account.
    func withKnownIdentifiers(_ failure: TokenAcquisitionFailure, of account: AccountID) -> TokenAcquisitionFailure {
        guard case .protectionPolicyRequired(var details) = failure, details.homeAccountID == nil,
            let home = accounts[account]?.account.homeAccountID ?? account.homeAccountID
        else { return failure }
        details.homeAccountID = home
        details.tenantID = home.tenantID
        return .protectionPolicyRequired(details)
    }

    /// A token request ended: its result goes to whoever asked. A request its purpose no
    /// longer waits for (`current` false) reaches nobody but its caller. Tokens `fromCache`
    /// note no `tokenAcquired`: a cache hit commits nothing.
    mutating func finishToken(
        _ purpose: TokenPurpose, current: Bool, account: AccountID, scopes: [String], interaction: Ticket?, environment: TokenEnvironment,
        _ result: Result<TokenSet, TokenAcquisitionFailure>, fromCache: Bool = false, now: Instant
    ) {
        if case .caller = purpose {} else if !current { return }
        let result = result.mapError { withKnownIdentifiers($0, of: account) }
        switch purpose {
        case .caller(let ticket, let mode, let remediate):
            if !fromCache { noteTokenResult(account, scopes: scopes, result) }
            switch result {
            case .success(let tokens):
                var answer = TokenAnswer(account: account, scopes: scopes, status: .compliant, tokens: tokens, failure: nil, report: nil, remediated: false)
                answer.fromCache = fromCache
                if mode == .signIn { completeSignIn(ticket, answer, now: now) } else { reply(ticket, .token(answer)) }
            case .failure(let failure):
                if case .protectionPolicyRequired = failure, remediate, configuration.mamService {
                    startRemediation(
                        account, silent: interaction == nil, retryScopes: scopes, interaction: interaction,
                        waiter: .token(ticket, mode, scopes: scopes, failure: failure), now: now)
                    return
                }
                let answer = TokenAnswer(
                    account: account, scopes: scopes, status: failure.complianceStatus, tokens: nil, failure: failure, report: nil, remediated: false)
                reply(ticket, mode == .signIn ? .signIn(signedIn: false, answer) : .token(answer))
            }

        case .remediationMAMToken(let account):
            guard remediation.activeAccount == account, remediation.activeStep == .acquiringMAMToken else { return }
            switch result {
            case .success: runRemediation(remediationStep { $0.mamTokenAcquired() }, now: now)
            case .failure(let failure): runRemediation(remediationStep { $0.mamTokenFailed(failure) }, now: now)
            }

        case .remediationRetry(let account):
            if !fromCache { noteTokenResult(account, scopes: scopes, result) }
            guard remediation.activeAccount == account, remediation.activeStep == .retryingTokenRequest else { return }
            runRemediation(remediationStep { $0.retriedTokenRequestCompleted(result) }, now: now)

        case .unenrollToken(let account):
            guard accounts[account]?.enrollment.phase == .acquiringUnenrollToken else { return }
            switch result {
            case .success: runEnrollment(account, enrollmentStep(account) { $0.mamTokenAcquired() }, now: now)
            case .failure: runEnrollment(account, enrollmentStep(account) { $0.mamTokenFailed() }, now: now)
            }

        case .mamCall(let intent):
            switch result {
            case .success(let tokens):
                guard let request = mamRequest(intent, token: tokens.accessToken) else {
                    mamCallEnded(intent, .failed(.appNotEnrolled, detail: "The account has no enrollment id to call the MAM service with."), now: now)
                    return
                }
                if let hold = volatile.holds.hold(.mam(environment), now: now) {
                    mamCallEnded(intent, .failed(
                        .internalError,
                        detail: "the MAM service asked to wait (HTTP \(hold.status), Retry-After); not contacted for another \(hold.wait.milliseconds / 1000) s"),
                        now: now)
                    return
                }
                let step = newStep()
                volatile.outstanding[step] = .mam(intent, environment)
                volatile.currentStep[intent] = step
                emit(.callMAM(step, request, environment: environment))
            case .failure(let failure):
                mamCallEnded(intent, MAMResponseClassifier.tokenFailed(failure), now: now)
            }
        }
    }

    /// `tokenAcquired` / `tokenFailed` for the app's own requests (not the internal MAM ones,
    /// not the answers of the token cache).
    private mutating func noteTokenResult(_ account: AccountID, scopes: [String], _ result: Result<TokenSet, TokenAcquisitionFailure>) {
        switch result {
        case .success(let tokens):
            note(.tokenAcquired(account, scopes: scopes, xmsCC: JWTClaims.payload(of: tokens.accessToken.reveal())?["xms_cc"] ?? .null))
        case .failure(let failure):
            note(.tokenFailed(account, scopes: scopes, failure))
        }
    }

    // MARK: - MAM calls

    /// A MAM call for `intent`: a silent MAM-service token first, then the call. With
    /// `claimsChallenge` (the service's CAE challenge to the last token) the token is asked
    /// of the issuer with those claims, never read from the cache.
    mutating func startMAMCall(_ intent: Intent, claimsChallenge: String? = nil, now: Instant) {
        volatile.currentStep[intent] = nil
        startTokenRequest(
            intent.account, scopes: [RemediationStateMachine.mamScope], interaction: nil, claimsChallenge: claimsChallenge, purpose: .mamCall(intent),
            now: now)
    }

    /// The request an intent sends, built from what the account's record holds.
    private func mamRequest(_ intent: Intent, token: SecretToken) -> MAMRequest? {
        let account = intent.account
        let state = accounts[account]
        switch intent {
        case .remediationEnroll, .remediationPolicy, .registrationEnroll:
            return .enroll(account, token: token)
        case .checkIn:
            guard let id = state?.enrollmentID else { return nil }
            return .checkIn(account, enrollmentID: id, policyVersion: state?.policy?.version, token: token)
        case .unenroll:
            guard let id = state?.enrollmentID else { return nil }
            return .unenroll(account, enrollmentID: id, token: token)
        case .remediationReport:
            guard let id = state?.enrollmentID else { return nil }
            return .reportCompliance(account, enrollmentID: id, policyVersion: state?.policy?.version, token: token)
        }
    }
}

extension ComplianceMachine.TokenPurpose {
    /// True for the MAM tokens an unenrollment needs (an account on its way out gets them).
    var servesLeaving: Bool {
        switch self {
        case .unenrollToken, .mamCall(.unenroll): true
        default: false
        }
    }
}
