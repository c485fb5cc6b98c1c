/// I/O results: each comes back with the step it answers; a step the machine no longer waits
/// for changes nothing, except that a late MAM answer is still reported once.
extension ComplianceMachine {
    /// The result of the I/O step `step`.
    public mutating func completed(_ step: StepID, _ result: StepResult, now: Instant) {
        beginStep()
        defer { endStep(now: now) }
        guard let outstanding = volatile.outstanding.removeValue(forKey: step) else { return }  // unknown or answered: stale
        switch outstanding {
        case .token(let id):
            tokenStepCompleted(id, result, now: now)
        case .mam(let intent, let environment):
            let answer: MAMResult
            switch result {
            case .mam(let result): answer = result
            case .mamAskedToWait(let result, let wait):
                volatile.holds.failed(.mam(environment), wait, now: now)
                answer = result
            default: return
            }
            guard volatile.currentStep[intent] == step else {
                reportLate(intent, answer.challengeRefused(retried: false), now: now)
                return
            }
            volatile.currentStep[intent] = nil
            if case .claimsChallenge(let claims, _) = answer, retriesClaimsChallenge(intent) {
                // Continuous access evaluation: the service refused the token with the claims
                // it needs. A cp1 app asks the issuer again with them, past the cache, and
                // sends the call once more with what it gets (MSAL's silent call with claims).
                volatile.claimsRetried.insert(intent)
                startMAMCall(intent, claimsChallenge: claims, now: now)
                return
            }
            mamCallEnded(intent, answer.challengeRefused(retried: volatile.claimsRetried.contains(intent)), now: now)
        case .wipe(let account, let wipeStep):
            guard volatile.wipeStep[account] == step else { return }
            volatile.wipeStep[account] = nil
            wipeStepCompleted(account, wipeStep, result, now: now)
        case .reprotect(let account):
            reprotectionCompleted(account, result)
        case .appQuestion(let pending):
            appAnswered(pending, result, now: now)
        }
    }

    private mutating func tokenStepCompleted(_ id: StepID, _ result: StepResult, now: Instant) {
        guard var request = volatile.tokenRequests[id] else { return }  // the request ended meanwhile
        let action: TokenAcquisitionStateMachine.Action
        switch result {
        case .cache(let entry): action = request.machine.cacheRead(entry, now: now)
        case .grant(.response(.success(let tokens))):
            // The tokens must be the account's person's before anything keeps them.
            let account = request.machine.request.account
            if let mismatch = tokens.identity?.mismatch(for: account, knownSubject: accounts[account]?.subject) {
                action = request.machine.tokenResponseReceived(.accountMismatch(mismatch))
            } else {
                action = request.machine.tokenResponseReceived(.success(tokens))
            }
        case .grant(.response(let response)):
            if case .serviceFailure(let failure) = response, let wait = failure.retryAfter {
                volatile.holds.failed(.issuer(request.environment), .init(status: failure.status, wait: wait), now: now)
            }
            action = request.machine.tokenResponseReceived(response)
        case .grant(.transportFailed(let reason)): action = request.machine.transportFailed(reason)
        case .grant(.cancelled): action = request.machine.userCancelled()
        case .grant(.misconfigured(let answer)): action = request.machine.issuerMisconfigured(answer)
        case .done: action = request.machine.refreshTokenRemoved()
        case .failed(let reason): action = request.machine.storeFailed(reason)
        case .mam, .mamAskedToWait, .hook, .encrypted, .appAnswered: return
        }
        volatile.tokenRequests[id] = request
        runToken(id, action, now: now)
    }

    /// A late MAM answer (its machine moved on): the app is told, once, and nothing changes.
    private mutating func reportLate(_ intent: Intent, _ answer: MAMResult, now: Instant) {
        let account = intent.account
        guard accounts[account] != nil else { return }
        let notification: ComplianceEvent
        switch (intent, answer) {
        case (.registrationEnroll, .enrolled(let status, _, _)), (.remediationEnroll, .enrolled(let status, _, _)), (.remediationPolicy, .enrolled(let status, _, _)):
            notification = .enrollment(EnrollmentReport(account: account, status: status))
        case (.registrationEnroll, .failed(let status, _)), (.remediationEnroll, .failed(let status, _)), (.remediationPolicy, .failed(let status, _)):
            notification = .enrollment(EnrollmentReport(account: account, status: status))
        case (.checkIn, .checkedIn(let outcome)):
            notification = .policy(EnrollmentReport(account: account, status: outcome.status))
        case (.checkIn, .failed(let status, _)):
            notification = .policy(EnrollmentReport(account: account, status: status))
        case (.unenroll, .unenrolled):
            notification = .unenroll(EnrollmentReport(account: account, status: .unenrollmentSuccess))
        case (.unenroll, .failed(let status, _)):
            notification = .unenroll(EnrollmentReport(account: account, status: status))
        default:
            return  // a compliance report has no notification
        }
        runEnrollment(account, enrollmentStep(account) { $0.lateAnswerReported(notification) }, now: now)
    }

    /// A MAM call (its token included) ended for `intent`.
    mutating func mamCallEnded(_ intent: Intent, _ answer: MAMResult, now: Instant) {
        volatile.claimsRetried.remove(intent)
        let account = intent.account
        switch intent {
        case .registrationEnroll:
            guard accounts[account]?.enrollment.phase == .enrolling else {
                reportLate(intent, answer, now: now)
                return
            }
            switch answer {
            case .enrolled(let status, let enrollmentID, let policy):
                accounts[account]?.enrollmentID = enrollmentID
                markDirty(account)
                runEnrollment(account, enrollmentStep(account) { $0.enrollmentSucceeded(status, now: now) }, now: now)
                if let policy {
                    applyPolicy(policy, to: account, viaRemediation: false, now: now)
                    remediation.accountEnrolled(account)
                }
            case .failed(let status, _) where !status.isSuccess:
                runEnrollment(account, enrollmentStep(account) { $0.enrollmentFailed(status, now: now) }, now: now)
            default:
                runEnrollment(account, enrollmentStep(account) { $0.enrollmentFailed(.parsingFailure, now: now) }, now: now)
            }

        case .remediationEnroll:
            guard remediation.activeAccount == account, remediation.activeStep == .enrolling else {
                reportLate(intent, answer, now: now)
                return
            }
            switch answer {
            case .enrolled(let status, let enrollmentID, let policy):
                note(.enrollment(EnrollmentReport(account: account, status: status)))
                accounts[account]?.enrollmentID = enrollmentID
                accounts[account]?.offeredPolicy = policy
                markDirty(account)
                runEnrollment(account, enrollmentStep(account) { $0.remediationEnrolled(now: now) }, now: now)
                runRemediation(remediationStep { $0.enrollmentSucceeded() }, now: now)
            case .failed(let status, let detail) where !status.isSuccess:
                note(.enrollment(EnrollmentReport(account: account, status: status)))
                runRemediation(remediationStep { $0.enrollmentFailed(status, detail: detail) }, now: now)
            default:
                note(.enrollment(EnrollmentReport(account: account, status: .parsingFailure)))
                runRemediation(remediationStep { $0.enrollmentFailed(.parsingFailure) }, now: now)
            }

        case .remediationPolicy:
            guard remediation.activeAccount == account, remediation.activeStep == .awaitingPolicy else {
                reportLate(intent, answer, now: now)
                return
            }
            switch answer {
            case .enrolled(let status, let enrollmentID, let policy):
                note(.enrollment(EnrollmentReport(account: account, status: status)))
                accounts[account]?.enrollmentID = enrollmentID
                markDirty(account)
                if let policy {
                    runRemediation(remediationPolicyReceived(account, policy, now: now), now: now)
                } else {
                    runRemediation(remediationStep { $0.policyFetchFailed(.noPolicyReceived) }, now: now)
                }
            case .failed(let status, let detail) where !status.isSuccess:
                note(.enrollment(EnrollmentReport(account: account, status: status)))
                runRemediation(remediationStep { $0.policyFetchFailed(status, detail: detail) }, now: now)
            default:
                runRemediation(remediationStep { $0.policyFetchFailed(.parsingFailure) }, now: now)
            }

        case .remediationReport:
            guard remediation.activeAccount == account, remediation.activeStep == .reportingCompliance else { return }
            switch answer {
            case .complianceReported:
                runRemediation(remediationStep { $0.complianceReported() }, now: now)
            case .failed(let status, let detail):
                runRemediation(remediationStep { $0.complianceReportFailed(status.isSuccess ? .internalError : status, detail: detail) }, now: now)
            default:
                runRemediation(remediationStep { $0.complianceReportFailed(.parsingFailure) }, now: now)
            }

        case .checkIn:
            guard accounts[account]?.enrollment.phase == .checkingIn else {
                reportLate(intent, answer, now: now)
                return
            }
            switch answer {
            case .checkedIn(let outcome):
                runEnrollment(account, enrollmentStep(account) { $0.checkInCompleted(outcome, now: now) }, now: now)
            case .failed(let status, _) where !status.isSuccess:
                runEnrollment(account, enrollmentStep(account) { $0.checkInFailed(status, now: now) }, now: now)
            default:
                runEnrollment(account, enrollmentStep(account) { $0.checkInFailed(.parsingFailure, now: now) }, now: now)
            }

        case .unenroll:
            guard accounts[account]?.enrollment.phase == .unenrolling else {
                reportLate(intent, answer, now: now)
                return
            }
            switch answer {
            case .unenrolled:
                runEnrollment(account, enrollmentStep(account) { $0.unenrollmentSucceeded() }, now: now)
            case .failed(let status, _):
                runEnrollment(account, enrollmentStep(account) { $0.unenrollmentFailed(status) }, now: now)
            default:
                runEnrollment(account, enrollmentStep(account) { $0.unenrollmentFailed(.parsingFailure) }, now: now)
            }
        }
    }

    private mutating func wipeStepCompleted(_ account: AccountID, _ step: WipeStep, _ result: StepResult, now: Instant) {
        switch (step, result) {
        case (_, .failed(let why)):
            volatile.stalledWipes[account] = why  // journaled at this step: runs again on the next start or deregistration
        case (.removeTokens, .done):
            runWipe(account, wipeStep(account) { $0.tokensRemoved() }, now: now)
        case (.runAppHook, .hook(let removedData, let outcome)):
            runWipe(account, wipeStep(account) { $0.appHookFinished(removedData: removedData, outcome: outcome) }, now: now)
        case (.removeVaultFiles, .done):
            runWipe(account, wipeStep(account) { $0.vaultRemoved() }, now: now)
        default:
            volatile.stalledWipes[account] = "the \(step) step got an answer of another kind"
        }
    }
}

extension ComplianceMachine {
    /// True when a claims challenge to `intent`'s call is answered by asking the issuer again:
    /// the app declares `cp1` (it handles claims challenges, so resources send it them) and
    /// the call is not already the retry of one.
    func retriesClaimsChallenge(_ intent: Intent) -> Bool {
        ComplianceCore.declaresContinuousAccess(configuration.capabilities) && !volatile.claimsRetried.contains(intent)
    }
}

extension ComplianceMachine.MAMResult {
    /// A claims challenge that is not retried, as the failure it stands for: 203 AuthRequired
    /// (the token was refused), saying why it was not asked for again.
    func challengeRefused(retried: Bool) -> Self {
        guard case .claimsChallenge(_, let detail) = self else { return self }
        let why = retried
            ? "the MAM service refused even the token asked for with its claims challenge"
            : "the MAM service refused the token with a claims challenge, which only an app declaring cp1 answers"
        return .failed(.authRequired, detail: [detail, why].compactMap { $0 }.joined(separator: "; "))
    }
}
