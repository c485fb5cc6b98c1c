import ComplianceCore
import JSON

/// What the control API asks of the engine.
extension Engine {
    /// Validates a UPN from a request.
    func parseAccount(_ upn: String) throws(EngineError) -> AccountID {
        do {
            return try AccountID(upn)
        } catch {
            throw EngineError(.invalidAccount, "\(error)")
        }
    }

    /// A known account (one the engine has a row for), or `unknown_account`.
    func knownAccount(_ upn: String) throws(EngineError) -> AccountID {
        let account = try parseAccount(upn)
        let row = try? store.readSync { try $0.account(account) }
        guard row != nil else { throw EngineError(.unknownAccount, "no account \(account.upn) has signed in to this app") }
        return account
    }

    /// Signs `upn` in: the allowed-accounts check, a token for `scopes` (remediating on
    /// 53005), then registration with the MAM service (one managed account at a time).
    public func signIn(_ upn: String, scopes: [String]?, silent: Bool, user: InteractiveUser?) async throws(EngineError) -> SignInOutcome {
        let account = try parseAccount(upn)
        guard !wipesRunning.contains(account) else { throw EngineError(.conflict, "\(account.upn) is being wiped; sign in again when the wipe finished") }
        if case .refuseSignIn(let refusal) = allowedAccountsStep({ $0.signInRequested(account) }) {
            record("signInRefused", account: account, ["code": .string(refusal.code.description), "message": .string(refusal.message)])
            throw EngineError(.signInRefused, refusal.message)
        }
        // No account row yet: a sign-in that fails (unknown user, wrong password) leaves none.
        // Storing tokens, starting a remediation and the sign-in below each create it.
        let outcome = await token(account, scopes: scopes ?? configuration.defaultSignInScopes, silent: silent, remediate: true, user: user)
        guard outcome.status == .compliant else { return SignInOutcome(account: account, signedIn: false, token: outcome) }
        do {
            try store.writeSync { transaction in
                let existing = try transaction.account(account)
                try transaction.upsertAccount(account, signedIn: true, managed: existing?.managed ?? false)
            }
        } catch {
            throw EngineError(.internalError, "cannot record the sign-in of \(account.upn): \(error)")
        }
        record("signedIn", account: account, [:])
        await runAllowedAccounts(allowedAccountsStep { $0.signedIn(account) })
        let state = enrollments[account]?.stateName ?? "unregistered"
        if state == "unregistered" || state == "removed" {
            if let other = managedAccount(besides: account) {
                pendingEvents.append(.enrollment(EnrollmentReport(account: account, status: .singleManagedAccountMode)))
                flushEvents()
                logger.notice("not enrolling a second managed account", metadata: ["account.id": "\(account)", "account.managed": "\(other)"])
            } else {
                await runEnrollment(account, enrollmentStep(account) { $0.register(now: clock.now) })
            }
        }
        let signedIn = (try? store.readSync { try $0.account(account) })??.signedIn ?? false
        return SignInOutcome(account: account, signedIn: signedIn, token: outcome)
    }

    /// A token for `scopes`; a 53005 answer starts (or joins) a remediation unless
    /// `remediate` is false.
    public func acquireToken(_ upn: String, scopes: [String], silent: Bool, remediate: Bool, user: InteractiveUser?) async throws(EngineError) -> TokenOutcome {
        let account = try parseAccount(upn)
        guard !scopes.isEmpty else { throw EngineError(.badRequest, "scopes must name at least one scope") }
        // The row comes with the first stored token or remediation, not with the request.
        return await token(account, scopes: scopes, silent: silent, remediate: remediate, user: user)
    }

    func token(_ account: AccountID, scopes: [String], silent: Bool, remediate: Bool, user: InteractiveUser?) async -> TokenOutcome {
        let interactiveUser = silent ? nil : user
        let result = await runTokenRequest(tokenRequest(account, scopes: scopes, allowInteraction: interactiveUser != nil), user: interactiveUser)
        recordTokenResult(account, scopes: scopes, result)
        switch result {
        case .success(let tokens):
            return TokenOutcome(account: account, scopes: scopes, status: .compliant, tokens: tokens, failure: nil, report: nil, remediated: false)
        case .failure(let failure):
            if case .protectionPolicyRequired = failure, remediate {
                let outcome = await remediateAndWait(account, silent: silent, user: interactiveUser, retryScopes: scopes)
                return TokenOutcome(
                    account: account, scopes: scopes, status: outcome.report.status, tokens: outcome.tokens, failure: failure,
                    report: outcome.report, remediated: true)
            }
            return TokenOutcome(account: account, scopes: scopes, status: failure.complianceStatus, tokens: nil, failure: failure, report: nil, remediated: false)
        }
    }

    /// Remediates `upn` and returns its one report.
    public func remediate(_ upn: String, silent: Bool, user: InteractiveUser?) async throws(EngineError) -> RemediationOutcome {
        let account = try parseAccount(upn)
        return await remediateAndWait(account, silent: silent, user: silent ? nil : user, retryScopes: nil)
    }

    /// Deregisters `upn` (unenroll, then wipe when asked).
    public func deregister(_ upn: String, wipe: Bool) async throws(EngineError) -> DeregisterOutcome {
        let account = try knownAccount(upn)
        guard !wipesRunning.contains(account) else { throw EngineError(.conflict, "\(account.upn) is being wiped already") }
        await runEnrollment(account, enrollmentStep(account) { $0.deregister(wipe: wipe) })
        if (enrollments[account]?.stateName ?? "removed") == "removed", lastCompliance.removeValue(forKey: account) != nil {
            // No longer managed: the service forgets the account's compliance at unenrollment,
            // so the last report no longer holds; the next token request finds out afresh.
            saveCompliance()
        }
        if !wipe {
            await runRemediation(remediationStep { $0.accountRemoved(account) })
            try? store.writeSync { transaction in
                if let existing = try transaction.account(account) {
                    try transaction.upsertAccount(account, signedIn: existing.signedIn, managed: false)
                }
            }
        }
        return DeregisterOutcome(account: account, enrollmentStatus: lastEnrollmentStatus[account], wiped: wipe)
    }

    /// Every account the engine knows, by key.
    public func accounts() async throws(EngineError) -> [AccountSummary] {
        let records: [AccountRecord]
        do {
            records = try store.readSync { try $0.accounts() }
        } catch {
            throw EngineError(.internalError, "cannot read the accounts: \(error)")
        }
        var summaries: [AccountSummary] = []
        for record in records { summaries.append(await summary(record)) }
        return summaries
    }

    /// One account.
    public func account(_ upn: String) async throws(EngineError) -> AccountSummary {
        let account = try knownAccount(upn)
        guard let record = (try? store.readSync({ try $0.account(account) })) ?? nil else {
            throw EngineError(.unknownAccount, "no account \(account.upn) has signed in to this app")
        }
        return await summary(record)
    }

    private func summary(_ record: AccountRecord) async -> AccountSummary {
        let account = record.id
        let enrollment = enrollments[account]
        let due = (try? store.readSync { try $0.schedules(for: account) })?.first?.dueAt
        var remediationState = "idle"
        if remediation.activeAccount == account { remediationState = remediation.stateName }
        else if remediation.queuedAccounts.contains(account) { remediationState = "queued" }
        let files = (try? await vault.list(account))?.count ?? 0
        return AccountSummary(
            account: account, homeAccountID: record.homeAccountID, signedIn: record.signedIn,
            managed: record.managed || enrollment?.isEnrolled == true,
            enrollmentState: enrollment?.stateName ?? "unregistered", lastEnrollmentStatus: lastEnrollmentStatus[account],
            nextDueAt: due, compliance: lastCompliance[account], remediation: remediationState,
            wipe: wipes[account]?.stateName ?? "idle", dataFiles: files)
    }

    /// Logs a token request's end without its tokens.
    func recordTokenResult(_ account: AccountID, scopes: [String], _ result: Result<TokenSet, TokenAcquisitionFailure>) {
        let scopeList = JSONValue.array(scopes.map { .string($0) })
        switch result {
        case .success(let tokens):
            let accessToken = tokens.accessToken.reveal()
            let xmsCC: JSONValue
            if let delivered = deliveredCapabilities[account], delivered.accessToken == accessToken {
                xmsCC = delivered.xmsCC
            } else {
                xmsCC = JWTClaims.payload(of: accessToken)?["xms_cc"] ?? .null
                deliveredCapabilities[account] = (accessToken, xmsCC)
            }
            record("tokenAcquired", account: account, ["scopes": scopeList, "xmsCC": xmsCC])
        case .failure(let failure):
            var payload = EngineJSON.failure(failure)
            payload["scopes"] = scopeList
            record("tokenFailed", account: account, payload)
        }
    }
}
