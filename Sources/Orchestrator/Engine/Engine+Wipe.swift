import ComplianceCore
import JSON

/// Selective wipe, per account and journaled: intent → tokens → vault (wipe hook) →
/// enrollment → done. Another account's rows and files are never touched.
extension Engine {
    /// Who asked for a wipe (to tell the other machines the account left, except the asker
    /// when it learns it another way).
    enum WipeSource {
        case remediation, enrollment, allowedAccounts, resume
    }

    /// Wipes `account` to the end. A wipe already running for the account covers this request.
    func runWipe(_ account: AccountID, reason: WipeReason, source: WipeSource) async {
        guard !wipesRunning.contains(account) else { return }
        wipesRunning.insert(account)
        record("signedOut", account: account, ["reason": .string(reason.rawValue)])
        let hook = configuration.wipeHook != nil
        await driveWipe(account, wipeStep(account) { $0.wipeRequested(reason: reason, runAppHook: hook) }, source: source)
    }

    /// Finishes a wipe journaled before a restart.
    func resumeWipe(_ account: AccountID) async {
        guard !wipesRunning.contains(account) else { return }
        wipesRunning.insert(account)
        await driveWipe(account, wipeStep(account) { $0.resumed() }, source: .resume)
    }

    private func driveWipe(_ account: AccountID, _ first: SelectiveWipeStateMachine.Action, source: WipeSource) async {
        var action = first
        while true {
            switch action {
            case .none:
                wipesRunning.remove(account)
                return
            case .persist(let snapshot):
                let state = wipes[account]?.stateName ?? "idle"
                do {
                    try commit("wipe", state: state) { transaction in
                        _ = try transaction.saveJournal(for: account, kind: .wipe, step: state, state: snapshot.json)
                        if state == "intentRecorded", let existing = try transaction.account(account) {
                            try transaction.upsertAccount(account, signedIn: false, managed: false)
                            _ = existing
                        }
                    }
                } catch {
                    wipesRunning.remove(account)
                    return  // the journal resumes it on the next start
                }
                action = wipeStep(account) { $0.persisted() }
            case .removeTokens:
                deliveredCapabilities[account] = nil
                do {
                    try await store.deleteTokens(for: account)
                } catch {
                    logger.error("wipe cannot remove tokens; it resumes on the next start", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
                    wipesRunning.remove(account)
                    return
                }
                action = wipeStep(account) { $0.tokensRemoved() }
            case .removeVaultFiles(_, let runAppHook):
                do {
                    try await vault.wipe(account)
                } catch {
                    logger.error("wipe cannot remove the vault files; it resumes on the next start", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
                    wipesRunning.remove(account)
                    return
                }
                if runAppHook, let hook = configuration.wipeHook {
                    let outcome = try? await hook.run(for: account, logger: logger)
                    record("wipeHook", account: account, ["outcome": .string(outcome?.description ?? "could not start")])
                }
                action = wipeStep(account) { $0.vaultRemoved() }
            case .removeEnrollment:
                let keepRow = enrollments[account]?.stateName == "wiping"  // its own next persist records `removed`
                do {
                    try store.writeSync { transaction in
                        try transaction.deleteRegistration(for: account)
                        _ = try transaction.removeSchedules(.checkIn, account: account)
                        _ = try transaction.removeSchedules(.enrollmentRetry, account: account)
                        _ = try transaction.deletePolicy(for: .account(account))
                        if !keepRow { try transaction.deleteEnrollment(for: account) }
                    }
                } catch {
                    logger.error("wipe cannot remove the enrollment; it resumes on the next start", metadata: ["account.id": "\(account)", "error.message": "\(error)"])
                    wipesRunning.remove(account)
                    return
                }
                if !keepRow { enrollments[account] = nil }
                action = wipeStep(account) { $0.enrollmentRemoved() }
            case .finished:
                wipesRunning.remove(account)
                await accountLeft(account, source: source)
                return
            }
        }
    }

    /// Tells the other machines that `account`'s data is gone.
    private func accountLeft(_ account: AccountID, source: WipeSource) async {
        if source != .remediation {
            await runRemediation(remediationStep { $0.accountRemoved(account) })
        }
        if allowedAccounts.signedInAccounts.contains(account) {
            await runAllowedAccounts(allowedAccountsStep { machine in
                let action = machine.accountRemoved(account)
                return action == .none ? machine.signedOut(account) : action
            }, followRemovals: false)
        }
        if enrollments[account]?.stateName == "wiping" {
            await runEnrollment(account, enrollmentStep(account) { $0.wipeCompleted() })
        }
    }

    // MARK: - Allowed accounts

    /// Drives the app's allowed-accounts machine. `signOutAndWipe` wipes each account (each
    /// wipe reports back with `accountRemoved`); with `followRemovals: false` only the
    /// commit is done (the caller is itself one of those wipes).
    func runAllowedAccounts(_ first: AllowedAccountsStateMachine.Action, followRemovals: Bool = true) async {
        var action = first
        while true {
            switch action {
            case .none, .allowSignIn, .refuseSignIn:
                return
            case .persist(let snapshot):
                do {
                    try commit("allowedAccounts", state: allowedAccounts.stateName) { transaction in
                        try transaction.saveAppState(StateKey.allowedAccounts, snapshot.json)
                    }
                } catch {
                    return
                }
                action = allowedAccountsStep { $0.persisted() }
            case .signOutAndWipe(let accounts):
                guard followRemovals else { return }
                for account in accounts {
                    await runWipe(account, reason: .notAllowed, source: .allowedAccounts)
                }
                return
            }
        }
    }
}
