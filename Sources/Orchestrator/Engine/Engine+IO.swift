import ComplianceCore
import HTTPClient
import JSON

/// The I/O the service performs: grants at the issuer, MAM calls, the vault's wipe step, the
/// app's wipe hook, the real clock's wake-ups. Each ends in the machine's next event.
extension Engine {
    nonisolated func perform(_ job: Job) async {
        switch job.kind {
        case .grant(let step, let grant, let account, let scopes, let claims, let user, let environment):
            let started = ContinuousClock.now
            let result = await sendGrant(grant, account: account, scopes: scopes, claims: claims, user: user, environment: environment)
            metrics.issuerRequest(grant: grant.name, took: ContinuousClock.now - started)
            await completed(step, .grant(result))
        case .mam(let step, let request, let environment):
            let started = ContinuousClock.now
            let result = await callMAM(request, environment: environment)
            metrics.mamRequest(EngineMetrics.name(of: request), took: ContinuousClock.now - started)
            await completed(step, result)
        case .removeTokens(let step, let account):
            await removeTokensCompleted(step, account)
        case .removeVaultFiles(let step, let account):
            await completed(step, await removeVaultFiles(account))
        case .runAppHook(let step, let account):
            await completed(step, await runAppHook(account))
        case .encryptPlainFiles(let step, let account):
            await completed(step, await encryptPlainFiles(account))
        case .askRestartHook(let account):
            await restartHookAnswered(await askRestartHook(account))
        case .askApp(let step, let question):
            await completed(step, await askIdentityHook(question))
        case .wake(let at, let generation):
            // In short sleeps, so a stop of the service ends the wait (it does not wait hours).
            while !Task.isCancelled, !stopping.withLock({ $0 }) {
                let delay = at - clock.milliseconds
                guard delay > 0 else { break }
                try? await Task.sleep(for: .milliseconds(min(delay, 200)))
            }
            guard !Task.isCancelled, !stopping.withLock({ $0 }) else { return }
            await woke(generation)
        }
    }

    // MARK: - Grants

    /// Sends a grant to `environment`'s issuer, as `environment`'s client; a refresh grant
    /// carries that environment's refresh token, never another issuer's.
    private nonisolated func sendGrant(
        _ grant: TokenAcquisitionStateMachine.Grant, account: AccountID, scopes: [String], claims: String?, user: InteractiveUser?,
        environment: TokenEnvironment
    ) async -> ComplianceMachine.GrantResult {
        let issuer = issuers.client(for: environment)
        // The reserved scopes (`openid profile offline_access`) go with every grant, as MSAL
        // sends them; the cache keys on the request's own scopes.
        let wireScopes = scopes + configuration.reservedScopes.filter { !scopes.contains($0) }
        do throws(IssuerError) {
            let reply: TokenEndpointReply
            var nonce: String?
            switch grant {
            case .refreshToken(let refreshToken):
                reply = try await issuer.requestToken(.refreshToken(refreshToken.reveal()), scopes: wireScopes, claims: claims)
            case .interactive:
                guard let user else { return GrantResultClassifier.nobodyToAsk() }
                if case .passwordGrant(let password) = user {
                    reply = try await issuer.requestToken(.password(username: account.upn, password: password), scopes: wireScopes, claims: claims)
                    break
                }
                if case .deviceCode(let session) = user {
                    switch try await signInOnAnotherDevice(issuer, scopes: wireScopes, claims: claims, session: session) {
                    case .reply(let answer): reply = answer
                    case .cancelled: return .cancelled
                    case .expired(let detail): return GrantResultClassifier.interactionEnded(detail)
                    }
                    break
                }
                switch try await signInInteractively(issuer, account, scopes: wireScopes, claims: claims, user: user) {
                case .code(let code, let verifier, let sent, let redirectURI):
                    nonce = sent
                    reply = try await issuer.requestToken(
                        .authorizationCode(code: code, verifier: verifier, redirectURI: redirectURI), scopes: wireScopes, claims: claims)
                case .cancelled:
                    return .cancelled
                case .error(let code, let description):
                    return GrantResultClassifier.redirectError(code, description)
                case .timedOut(let detail):
                    return GrantResultClassifier.interactionEnded(detail)
                }
            }
            let response = TokenResponseClassifier.classify(
                status: reply.status, headers: reply.headers, body: reply.body, receivedAt: clock.now,
                authority: issuer.configuration.authority.url)
            guard case .success(var tokens) = response else { return .response(response) }
            guard let idToken = tokens.idToken else {
                return GrantResultClassifier.withoutIDToken(response, status: reply.status, openIDSignIn: nonce != nil)
            }
            tokens.identity = try await issuer.validate(idToken: idToken.reveal(), nonce: nonce, at: clock.idTokenTimes)
            return .response(.success(tokens))
        } catch {
            let problem: GrantResultClassifier.Problem = switch error.code {
            case .network: .network(error.message)
            case .misconfigured: .misconfigured(error.message)
            case .invalidIDToken: .invalidIDToken(error.message)
            case .signInFailed: .signInFailed(status: error.httpStatus, message: error.message)
            case .serviceFailure where error.httpStatus != nil: .serviceFailure(status: error.httpStatus ?? 0, retryAfterSeconds: error.retryAfterSeconds)
            default: .other(code: "\(error.code)", message: error.message)
            }
            return GrantResultClassifier.result(of: problem)
        }
    }

    private enum Authorization {
        case code(String, verifier: String, nonce: String, redirectURI: String)
        case cancelled
        case error(String, String?)
        /// Nobody finished the sign-in in time.
        case timedOut(String)
    }

    /// Authorization code + PKCE with the scripted user at the issuer's sign-in page.
    private nonisolated func signInInteractively(_ issuer: IssuerClient, _ account: AccountID, scopes: [String], claims: String?, user: InteractiveUser) async throws(IssuerError) -> Authorization {
        let pkce = PKCE()
        let state = RandomToken.make()
        let nonce = RandomToken.make()
        let location: String
        let redirectURI: String
        if case .browser(let session, let timeout) = user {
            // A person in a browser: the issuer redirects it to our loopback listener.
            let listener = try LoopbackRedirectListener(port: configuration.redirectPort ?? 0)
            redirectURI = listener.redirectURI
            let url = try await issuer.authorizeURL(
                scopes: scopes, state: state, nonce: nonce, pkce: pkce, claims: claims, loginHint: account.upn, redirectURI: redirectURI)
            guard session.prompt(InteractionSession.Prompt(url: url, expiresAt: OrchestratorStore.wallClock() + timeout.milliseconds)) else { return .cancelled }
            let answer = await listener.waitForRedirect(expectedState: state, until: ContinuousClock.now + timeout, cancelled: { session.isCancelled })
            switch answer {
            case nil:
                if session.isCancelled { return .cancelled }
                return .timedOut("no browser sign-in reached \(redirectURI) within \(timeout.milliseconds / 1000) s")
            case .repeated(let parameter)?:
                throw IssuerError(.badRedirect, "the sign-in's answer repeats the parameter '\(parameter)'; sign-in refused", endpoint: redirectURI)
            case .redirect(let target)?:
                location = "http://127.0.0.1:\(listener.port)" + target
            }
        } else {
            let choice: ScriptedUser.Choice = switch user {
            case .signIn(let password): .signIn(username: account.upn, password: password)
            default: .cancel
            }
            redirectURI = issuer.configuration.redirectURI
            let url = try await issuer.authorizeURL(scopes: scopes, state: state, nonce: nonce, pkce: pkce, claims: claims, loginHint: account.upn)
            location = try await ScriptedUser(choice, http: browserHTTP).authorize(url: url, redirectURI: redirectURI)
        }
        switch try AuthorizationRedirect.parse(location, redirectURI: redirectURI, expectedState: state) {
        case .code(let code, _): return .code(code, verifier: pkce.verifier, nonce: nonce, redirectURI: redirectURI)
        case .cancelled: return .cancelled
        case .error(let code, let description): return .error(code, description)
        }
    }

    // MARK: - MAM

    /// Sends a MAM request. Transport failures are 205 (enroll) / 212 (the others), 5xx 201,
    /// an unusable answer 206, a refused token 203.
    /// The MAM service for a token of `environment`: the configured one, or, when its URL was
    /// derived from the authority, the one at the overriding authority's origin (its tokens
    /// are that issuer's, and go to no other service).
    nonisolated func mamClient(for environment: TokenEnvironment) -> MAMClient? {
        guard let mam, mamFollowsAuthority, let authority = environment.authority, let origin = IssuerConfiguration.origin(of: authority) else { return mam }
        return mam.at(baseURL: origin + "/mam/v1")
    }

    /// Sends a MAM request: its answer classified (``MAMResponseClassifier``), with the wait a
    /// failing service asked for (`Retry-After` on a 429 or 5xx), which the machine holds.
    private nonisolated func callMAM(_ request: ComplianceMachine.MAMRequest, environment: TokenEnvironment) async -> ComplianceMachine.StepResult {
        guard let mam = mamClient(for: environment) else {
            // Only a store written while a MAM service was configured leads here.
            return MAMResponseClassifier.stepResult(request, failure: .noService, detail: "no MAM service is configured (--mam-url)")
        }
        let reply: MAMReply
        do {
            switch request {
            case .enroll(_, let token):
                // As the client the token was issued to (an overriding client id's registration).
                reply = try await mam.enroll(appID: environment.clientID ?? issuers.base.configuration.clientID, token: token.reveal())
            case .checkIn(_, let id, let version, let token):
                reply = try await mam.checkIn(enrollmentID: id, policyVersion: version.flatMap { Int64($0) }, token: token.reveal())
            case .unenroll(_, let id, let token):
                reply = try await mam.unenroll(enrollmentID: id, token: token.reveal())
            case .reportCompliance(_, let id, let version, let token):
                reply = try await mam.reportCompliance(enrollmentID: id, policyVersion: version.flatMap { Int64($0) }, token: token.reveal())
            }
        } catch {
            let failure: MAMResponseClassifier.CallFailure = switch error.code {
            case .network: .network
            case .malformed: .malformed
            case .unauthorized: MAMResponseClassifier.refused(status: error.httpStatus ?? 401, wwwAuthenticate: error.wwwAuthenticate)
            default: .status(error.httpStatus ?? 0, retryAfterSeconds: error.retryAfterSeconds)
            }
            return MAMResponseClassifier.stepResult(request, failure: failure, detail: error.message)
        }
        return .mam(MAMResponseClassifier.classify(request, answer: reply.json))
    }

    // MARK: - Wipe steps

    /// A wipe's token step, on the actor (the store's writes are synchronous there).
    private func removeTokensCompleted(_ step: ComplianceMachine.StepID, _ account: AccountID) {
        completed(step, removeTokens(account))
    }

    private nonisolated func removeVaultFiles(_ account: AccountID) async -> ComplianceMachine.StepResult {
        do {
            try await takeStorageFault(.vault)
            try await vault.wipe(account)
            return .done
        } catch {
            logger.error("a wipe cannot remove the vault files; it runs again later", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
            return .failed("the vault files cannot be removed: \(error)")
        }
    }

    private func takeStorageFault(_ kind: StorageFaults.Kind) throws {
        try testHooks.storageFaults.take(kind)
    }

    /// The app's `restartApplication`: exit status 0 says the app restarts itself. Only asked
    /// when the machine asks the app (``ComplianceMachine/asksAppToRestart``: a restart hook).
    private nonisolated func askRestartHook(_ account: AccountID) async -> RestartAnswer {
        guard let hook = configuration.restartHook else {
            preconditionFailure("the machine asked the restart hook for \(account.upn), but none is configured (hasRestartHook false)")
        }
        return await hook.ask(for: account, directory: vault.directory(for: account), stateDirectory: store.stateDirectory, logger: logger)
    }

    private func restartHookAnswered(_ answer: RestartAnswer) {
        logger.notice("the app answered restartApplication", metadata: ["restart.appHandlesRestart": "\(answer.appHandlesRestart)", "restart.outcome": "\(answer.outcome)"])
        machine.restartApplicationAnswered(answer, now: clock.now)
        drain()
    }

    /// The app's `wipeDataForAccount`: exit status 0 says the app removed the data itself. Only
    /// run when the machine asks (a wipe hook: ``ComplianceMachine/Configuration/hasWipeHook``).
    private nonisolated func runAppHook(_ account: AccountID) async -> ComplianceMachine.StepResult {
        guard let hook = configuration.wipeHook else {
            preconditionFailure("the machine asked the wipe hook for \(account.upn), but none is configured (hasWipeHook false)")
        }
        do {
            // The hook is always given a directory that exists (0700, with its owner record),
            // also for an account that stored nothing; the vault step removes it after the hook.
            let directory = (try? await vault.prepareDirectory(for: account)) ?? vault.directory(for: account)
            let outcome = try await hook.run(for: account, directory: directory, stateDirectory: store.stateDirectory, logger: logger)
            return .hook(removedData: outcome.succeeded, outcome: outcome.description)
        } catch {
            return .hook(removedData: false, outcome: "could not start")
        }
    }
}
