/// Re-protection: when the managed account's policy requires file encryption, its files
/// stored plain (written before the policy, or before the account was managed) are encrypted,
/// as the SDK encrypts a managed identity's files when `fileEncryptionRequired` comes into
/// force. The machine decides when (``Action/encryptPlainFiles(_:_:)``); the host encrypts and
/// answers `.encrypted(files:)`, and the machine records ``ComplianceEvent/dataReprotected(_:files:)``.
/// Invariant 22 (``ComplianceInvariants/managedFilesEncrypted(_:facts:)``) checks that no plain
/// file of the managed account remains once a step settles.
extension ComplianceMachine {
    /// Where the re-protection of the managed account's plain files stands. In memory only: every
    /// start (``resumed(now:)``) asks for one, so a run a crash interrupted is finished.
    ///
    /// Transitions: `idle` → `due` (a policy came into force, or the process started);
    /// `due` → `running` (the step ends with a managed account whose policy requires encryption
    /// and that is not leaving) or `idle` (no such account); `running` → `idle` (its files are
    /// encrypted) or `retryOwed` (the disk refused); `retryOwed` → `due` when the next event
    /// begins (a full disk is not retried in a loop).
    enum Reprotection: Sendable, Hashable, Codable {
        case idle
        case due
        case running(StepID, AccountID)
        case retryOwed
    }

    /// True while the managed account's plain files may still await encryption for a reason the
    /// machine knows of: a re-protection is due, running, or owed again after the disk refused.
    public var reprotectionPending: Bool {
        if case .idle = volatile.reprotection { return false }
        return true
    }

    /// A policy came into force, or the process started: encrypt at the end of the step.
    mutating func reprotectionDue() {
        if case .running = volatile.reprotection { return }  // it reads the files when it runs: it sees this policy's
        volatile.reprotection = .due
    }

    /// At the start of every event: a re-protection the disk refused is tried again.
    mutating func retryOwedReprotection() {
        if case .retryOwed = volatile.reprotection { volatile.reprotection = .due }
    }

    /// At the end of a step: starts a due re-protection when the managed account's policy
    /// requires encryption. The step's replies (and any until the result) wait for it.
    mutating func startDueReprotection() {
        guard case .due = volatile.reprotection else { return }
        guard let managed = managedAccount, isFileEncryptionRequired(for: managed), !isLeaving(managed) else {
            volatile.reprotection = .idle
            return
        }
        let step = newStep()
        volatile.reprotection = .running(step, managed)
        volatile.outstanding[step] = .reprotect(managed)
        volatile.parkedReplies += volatile.held.filter { if case .reply = $0 { true } else { false } }
        volatile.held.removeAll { if case .reply = $0 { true } else { false } }
        emit(.encryptPlainFiles(step, managed))
    }

    /// True when a caller's reply must wait for the running re-protection.
    var repliesWaitForReprotection: Bool {
        if case .running = volatile.reprotection { return true }
        return false
    }

    /// The re-protection's result: the files it encrypted are recorded; a refusal of the disk
    /// is tried again at the next event. The replies it held follow this step's persist.
    mutating func reprotectionCompleted(_ account: AccountID, _ result: StepResult) {
        switch result {
        case .encrypted(let files):
            volatile.reprotection = .idle
            if !files.isEmpty { note(.dataReprotected(account, files: files)) }
        default:
            volatile.reprotection = .retryOwed
        }
        volatile.held += volatile.parkedReplies
        volatile.parkedReplies = []
    }
}
