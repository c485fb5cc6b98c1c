import ComplianceCore
import JSON

/// The app's ``RemediationStateMachine``: MAM token → enroll → policy → apply (first
/// policy: restart) → report compliance → retry the original request → one report.
extension Engine {
    /// Starts (or joins, or queues) `account`'s remediation and waits for its report.
    ///
    /// - Parameters:
    ///   - retryScopes: the token request the remediation retries at its end (stored with
    ///     the machine, so a resumed remediation retries it too); nil keeps the stored one or
    ///     uses the sign-in scopes.
    func remediateAndWait(_ account: AccountID, silent: Bool, user: InteractiveUser?, retryScopes: [String]?) async -> RemediationOutcome {
        ensureAccountRow(account)
        if remediation.currentManagedAccount == nil, let other = managedAccount(besides: account) {
            // Another account's registration is still pending (enrolling, or awaiting its 24 h
            // retry): the machine learns of it only once enrolled (`accountEnrolled`), so the
            // one-managed-account rule is applied here, with the machine's report.
            let report = ComplianceStatusReport(
                account: account, status: .notCompliant, enrollmentStatus: .singleManagedAccountMode,
                detail: "\(other.upn) is the managed account of this app.")
            pendingEvents.append(.compliance(report))
            lastCompliance[account] = report.status
            let compliance = complianceJSON()
            try? commit("remediation", state: "refused") { try $0.saveAppState(StateKey.compliance, compliance) }
            return RemediationOutcome(report: report, tokens: nil)
        }
        if !silent, let user { remediationUsers[account] = user }
        if let retryScopes, retryRequests[account] != retryScopes {
            retryRequests[account] = retryScopes
            saveRetryRequests()
        }
        return await withCheckedContinuation { continuation in
            remediationWaiters[account, default: []].append(continuation)
            let action = remediationStep { $0.remediate(account, silent: silent) }
            // Written with the machine's first commit, ahead of its events: a report delivered
            // at once (227) commits with the snapshot that records it, after this event.
            if action != .none {
                pendingRecords.append(("remediationStarted", account, ["silent": .bool(silent)]))
            }
            let pending = settleRemediation(action)
            flushEvents()
            if let pending {
                Task { await self.runRemediation(pending) }
            }
        }
    }

    /// Drives the machine from `action` until it waits for nothing.
    func runRemediation(_ action: RemediationStateMachine.Action) async {
        var next = settleRemediation(action)
        while let action = next {
            next = settleRemediation(await performRemediation(action))
        }
    }

    /// Handles, on the spot, every action that needs no I/O (persist, deliver); returns the
    /// first one that does, or nil.
    func settleRemediation(_ first: RemediationStateMachine.Action) -> RemediationStateMachine.Action? {
        var action = first
        while true {
            switch action {
            case .none:
                return nil
            case .persist(let snapshot):
                // A delivery's report is committed with the snapshot that records it.
                for case .compliance(let report) in pendingEvents {
                    lastCompliance[report.account] = report.status
                    retryRequests[report.account] = nil
                }
                let compliance = complianceJSON()
                let requests = retryRequestsJSON()
                do {
                    try commit("remediation", state: remediation.stateName) { transaction in
                        try transaction.saveAppState(StateKey.remediation, snapshot.json)
                        try transaction.saveAppState(StateKey.compliance, compliance)
                        try transaction.saveAppState(StateKey.retryRequests, requests)
                    }
                } catch {
                    return nil
                }
                action = remediationStep { $0.persisted() }
            case .deliverStatus(let report, let tokens):
                deliver(report, tokens: tokens)
                action = remediationStep { $0.statusDelivered() }
            default:
                return action
            }
        }
    }

    private func deliver(_ report: ComplianceStatusReport, tokens: TokenSet?) {
        let account = report.account
        remediationUsers[account] = nil
        do {
            try store.writeSync { transaction in
                if report.status == .compliant, let existing = try transaction.account(account) {
                    try transaction.upsertAccount(account, signedIn: existing.signedIn, managed: true)
                }
            }
        } catch {
            logger.error("cannot store the delivered status", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
        }
        logger.info("remediation finished", metadata: ["account.id": "\(account)", "compliance.status": "\(report.status)"])
        let waiters = remediationWaiters.removeValue(forKey: account) ?? []
        for waiter in waiters { waiter.resume(returning: RemediationOutcome(report: report, tokens: tokens)) }
    }

    /// Runs one I/O step and feeds its result back; `.none` when the machine moved on meanwhile.
    private func performRemediation(_ action: RemediationStateMachine.Action) async -> RemediationStateMachine.Action {
        switch action {
        case .acquireMAMToken(let account, let silent):
            let user = silent ? nil : remediationUsers[account]
            let result = await runTokenRequest(tokenRequest(account, scopes: [MAMClient.scope], allowInteraction: user != nil), user: user)
            guard remediationIsAt(account, "acquiringMAMToken") else { return .none }
            switch result {
            case .success: return remediationStep { $0.mamTokenAcquired() }
            case .failure(let failure): return remediationStep { $0.mamTokenFailed(failure) }
            }

        case .enroll(let account):
            let outcome = await callMAM(.enroll, for: account)
            guard remediationIsAt(account, "enrolling") else { return .none }
            switch outcome {
            case .reply(let status?, let json) where status == .newPoliciesReceived || status == .alreadyEnrolled || status == .noPolicyReceived:
                guard saveRegistration(account, reply: json) else {
                    return remediationStep { $0.enrollmentFailed(.parsingFailure, detail: "The enroll answer carries no enrollmentId.") }
                }
                pendingEvents.append(.enrollment(EnrollmentReport(account: account, status: status)))
                await runEnrollment(account, enrollmentStep(account) { $0.remediationEnrolled(now: clock.now) })
                guard remediationIsAt(account, "enrolling") else { return .none }
                return remediationStep { $0.enrollmentSucceeded() }
            case .reply(let status?, _):
                pendingEvents.append(.enrollment(EnrollmentReport(account: account, status: status)))
                return remediationStep { $0.enrollmentFailed(status) }
            case .reply(nil, _):
                return remediationStep { $0.enrollmentFailed(.parsingFailure) }
            case .failed(let status, let message):
                return remediationStep { $0.enrollmentFailed(status, detail: message) }
            }

        case .fetchPolicy(let account):
            var document = registration(account)?.policy
            if document == nil, case .reply(_, let json) = await callMAM(.enroll, for: account) {  // 208 carries it again
                _ = saveRegistration(account, reply: json)
                document = json["policy"]
            }
            guard remediationIsAt(account, "awaitingPolicy") else { return .none }
            guard let (policy, _) = Self.policy(from: document) else {
                return remediationStep { $0.policyFetchFailed(.noPolicyReceived) }
            }
            return remediationStep { $0.policyReceived(policy) }

        case .applyPolicy(let account, let policy):
            await applyPolicy(policy, for: account)
            guard remediationIsAt(account, "applyingPolicy") else { return .none }
            return remediationStep { $0.policyApplied() }

        case .restartApp(let account):
            record("appRestarted", account: account, [:])
            do {
                try loadMachines()
            } catch {
                logger.critical("the app restart cannot reload the machines", metadata: ["error.message": "\(error)"])
                return .none
            }
            return remediationStep { $0.resumed() }

        case .reportCompliance(let account):
            guard let registration = registration(account) else {
                return remediationStep { $0.complianceReportFailed(.appNotEnrolled) }
            }
            let version = registration.policy?["version"]?.stringValue.flatMap { Int64($0) }
            let outcome = await callMAM(.reportCompliance(enrollmentID: registration.enrollmentID, policyVersion: version), for: account)
            guard remediationIsAt(account, "reportingCompliance") else { return .none }
            switch outcome {
            case .reply(nil, let json) where json["complianceStatus"]?.intValue == 0:
                return remediationStep { $0.complianceReported() }
            case .reply(nil, let json):
                let reason = json["reason"]?.stringValue ?? "unknown"
                let status: EnrollmentStatus = reason == "noPolicy" ? .licensedNotTargeted : .notEnrolledAccount
                return remediationStep { $0.complianceReportFailed(status, detail: "The MAM service reports the app not compliant (\(reason)).") }
            case .reply(let status?, _):
                return remediationStep { $0.complianceReportFailed(status) }
            case .failed(let status, let message):
                return remediationStep { $0.complianceReportFailed(status, detail: message) }
            }

        case .retryTokenRequest(let account):
            let scopes = retryRequests[account] ?? configuration.defaultSignInScopes
            let user = remediationUsers[account]
            let result = await runTokenRequest(tokenRequest(account, scopes: scopes, allowInteraction: user != nil), user: user)
            recordTokenResult(account, scopes: scopes, result)
            guard remediationIsAt(account, "retryingTokenRequest") else { return .none }
            return remediationStep { $0.retriedTokenRequestCompleted(result) }

        case .startWipe(let account, let reason):
            await runWipe(account, reason: reason, source: .remediation)
            guard remediationIsAt(account, "wipingManagedData") else { return .none }
            return remediationStep { $0.wipeStarted() }

        case .persist, .deliverStatus, .none:
            preconditionFailure("settled actions never reach performRemediation: \(action)")
        }
    }

    private func remediationIsAt(_ account: AccountID, _ state: String) -> Bool {
        remediation.activeAccount == account && remediation.stateName == state
    }

    func complianceJSON() -> JSONValue {
        .object(JSONObject(lastCompliance.sorted { $0.key < $1.key }.map { ($0.key.key, JSONValue.int(Int64($0.value.rawValue))) }))
    }

    func retryRequestsJSON() -> JSONValue {
        .object(JSONObject(retryRequests.sorted { $0.key < $1.key }.map { ($0.key.key, JSONValue.array($0.value.map { .string($0) })) }))
    }

    /// Stores ``lastCompliance`` on its own (outside a remediation's commit).
    func saveCompliance() {
        saveAppState(StateKey.compliance, complianceJSON(), what: "the accounts' compliance")
    }

    func saveRetryRequests() {
        saveAppState(StateKey.retryRequests, retryRequestsJSON(), what: "the remediation's token request")
    }

    /// One app-wide value in a write of its own; a failure is logged (the memory copy stays).
    private func saveAppState(_ key: String, _ value: JSONValue, what: String) {
        do {
            try store.writeSync { try $0.saveAppState(key, value) }
        } catch {
            logger.error("cannot store \(what)", metadata: ["error.message": "\(error)"])
        }
    }

    /// Makes sure the account has a row (enrollments and schedules reference it). Only a
    /// remediation's start comes here; the row is usually there, and a read answers that
    /// without a write transaction.
    func ensureAccountRow(_ account: AccountID) {
        if case .some(.some) = try? store.readSync({ try $0.account(account) }) { return }
        do {
            try store.writeSync { transaction in
                if try transaction.account(account) == nil {
                    try transaction.upsertAccount(account, signedIn: false, managed: false)
                }
            }
        } catch {
            logger.error("cannot create the account row", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
        }
    }
}
