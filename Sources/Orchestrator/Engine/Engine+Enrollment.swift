import ComplianceCore
import JSON

/// Each account's ``EnrollmentStateMachine``: enroll (retried every 24 h), check in every
/// 8 h (100/101/102), deregister (unenroll, optionally wipe).
extension Engine {
    /// Drives `account`'s machine from `action` until it waits for nothing (a timer or an
    /// outside event).
    func runEnrollment(_ account: AccountID, _ action: EnrollmentStateMachine.Action) async {
        var next = settleEnrollment(account, action)
        while let action = next {
            next = settleEnrollment(account, await performEnrollment(account, action))
        }
    }

    /// Handles persist and timer actions on the spot; returns the first I/O action, or nil.
    func settleEnrollment(_ account: AccountID, _ first: EnrollmentStateMachine.Action) -> EnrollmentStateMachine.Action? {
        var action = first
        while true {
            switch action {
            case .none:
                return nil
            case .persist(let snapshot):
                let state = enrollments[account]?.stateName ?? "unregistered"
                let lastStatus = latestStatus(of: account)
                do {
                    try commit("enrollment", state: state) { transaction in
                        if try transaction.account(account) == nil {
                            try transaction.upsertAccount(account, signedIn: false, managed: false)
                        }
                        if state == "removed" {
                            try transaction.deleteRegistration(for: account)
                            _ = try transaction.removeSchedules(.checkIn, account: account)
                            _ = try transaction.removeSchedules(.enrollmentRetry, account: account)
                        }
                        try transaction.saveEnrollment(for: account, state: snapshot.json, lastStatus: lastStatus?.rawValue, nextDueAt: nil)
                        if state == "enrolled", let existing = try transaction.account(account), !existing.managed {
                            try transaction.upsertAccount(account, signedIn: existing.signedIn, managed: true)
                        }
                    }
                } catch {
                    return nil
                }
                action = enrollmentStep(account) { $0.persisted() }
            case .scheduleTimer(let timer, let dueAt):
                let kind = Self.scheduleKind(timer)
                let due = dueAt.millisecondsSinceEpoch
                // A resumed machine re-arms the timer the store already holds (every enrolled
                // account at start-up): a read then, not a write transaction.
                if (try? store.readSync({ try $0.scheduleDue(kind, account: account) })) == due { rearmTimers(); return nil }
                do {
                    try store.writeSync { transaction in
                        _ = try transaction.removeSchedules(kind, account: account)
                        _ = try transaction.schedule(kind, account: account, at: due)
                    }
                } catch {
                    logger.error("cannot schedule a timer", metadata: ["account.id": "\(account)", "timer.kind": "\(kind)", "error.message": "\(error)"])
                }
                rearmTimers()
                return nil
            default:
                return action
            }
        }
    }

    /// The newest enrollment status among the events not yet committed, else the last known.
    private func latestStatus(of account: AccountID) -> EnrollmentStatus? {
        for event in pendingEvents.reversed() {
            switch event {
            case .enrollment(let report), .policy(let report), .unenroll(let report):
                if report.account == account { return report.status }
            default:
                continue
            }
        }
        return lastEnrollmentStatus[account]
    }

    private func enrollmentIsAt(_ account: AccountID, _ state: String) -> Bool {
        enrollments[account]?.stateName == state
    }

    /// Runs one I/O step and feeds its result back; `.none` when the machine moved on.
    private func performEnrollment(_ account: AccountID, _ action: EnrollmentStateMachine.Action) async -> EnrollmentStateMachine.Action {
        switch action {
        case .enroll:
            let outcome = await callMAM(.enroll, for: account)
            guard enrollmentIsAt(account, "enrolling") else { return .none }
            switch outcome {
            case .reply(let status?, let json) where status == .newPoliciesReceived || status == .alreadyEnrolled || status == .noPolicyReceived:
                guard saveRegistration(account, reply: json) else {
                    return enrollmentStep(account) { $0.enrollmentFailed(.parsingFailure, now: clock.now) }
                }
                let next = settleEnrollment(account, enrollmentStep(account) { $0.enrollmentSucceeded(status, now: clock.now) })
                if let (policy, _) = Self.policy(from: json["policy"]) {
                    await applyPolicy(policy, for: account)
                    await runRemediation(remediationStep { $0.accountEnrolled(account) })
                }
                return next ?? .none
            case .reply(let status?, _) where !status.isSuccess:
                return enrollmentStep(account) { $0.enrollmentFailed(status, now: clock.now) }
            case .reply:
                return enrollmentStep(account) { $0.enrollmentFailed(.parsingFailure, now: clock.now) }
            case .failed(let status, let message):
                logger.notice("enrollment failed", metadata: ["account.id": "\(account)", "mam.status": "\(status)", "error.message": "\(message)"])
                return enrollmentStep(account) { $0.enrollmentFailed(status, now: clock.now) }
            }

        case .checkIn:
            guard let registration = registration(account) else {
                return enrollmentStep(account) { $0.checkInFailed(.appNotEnrolled, now: clock.now) }
            }
            let version = registration.policy?["version"]?.stringValue.flatMap { Int64($0) }
            let outcome = await callMAM(.checkIn(enrollmentID: registration.enrollmentID, policyVersion: version), for: account)
            guard enrollmentIsAt(account, "checkingIn") else { return .none }
            switch outcome {
            case .reply(.newPoliciesReceived?, let json):
                guard let (policy, _) = Self.policy(from: json["policy"]) else {
                    return enrollmentStep(account) { $0.checkInFailed(.parsingFailure, now: clock.now) }
                }
                return enrollmentStep(account) { $0.checkInCompleted(.newPoliciesReceived(policy), now: clock.now) }
            case .reply(.wipeReceived?, _):
                return enrollmentStep(account) { $0.checkInCompleted(.wipeReceived, now: clock.now) }
            case .reply(let status?, _) where !status.isSuccess:
                return enrollmentStep(account) { $0.checkInFailed(status, now: clock.now) }
            case .reply(let status, _):
                // 101, and 103 NoPolicyReceived (the policy was unassigned: nothing new to apply).
                if status != .policiesHaveNotChanged {
                    record("policy", account: account, ["status": .int(Int64(status?.rawValue ?? 0)), "statusName": .string(status?.name ?? "unknown")])
                }
                return enrollmentStep(account) { $0.checkInCompleted(.policiesHaveNotChanged, now: clock.now) }
            case .failed(let status, _):
                return enrollmentStep(account) { $0.checkInFailed(status, now: clock.now) }
            }

        case .applyPolicy(_, let policy):
            await applyPolicy(policy, for: account)
            guard enrollmentIsAt(account, "applyingPolicy") else { return .none }
            return enrollmentStep(account) { $0.policyApplied(now: clock.now) }

        case .acquireMAMToken:
            let result = await runTokenRequest(tokenRequest(account, scopes: [MAMClient.scope], allowInteraction: false), user: nil)
            guard enrollmentIsAt(account, "acquiringUnenrollToken") else { return .none }
            if case .success = result { return enrollmentStep(account) { $0.mamTokenAcquired() } }
            return enrollmentStep(account) { $0.mamTokenFailed() }

        case .unenroll:
            guard let registration = registration(account) else {
                return enrollmentStep(account) { $0.unenrollmentFailed(.appNotEnrolled) }
            }
            let outcome = await callMAM(.unenroll(enrollmentID: registration.enrollmentID), for: account)
            guard enrollmentIsAt(account, "unenrolling") else { return .none }
            switch outcome {
            case .reply(.unenrollmentSuccess?, _): return enrollmentStep(account) { $0.unenrollmentSucceeded() }
            case .reply(let status, _): return enrollmentStep(account) { $0.unenrollmentFailed(status ?? .parsingFailure) }
            case .failed(let status, _): return enrollmentStep(account) { $0.unenrollmentFailed(status) }
            }

        case .startWipe(_, let reason):
            await runWipe(account, reason: reason, source: .enrollment)
            return .none

        case .persist, .scheduleTimer, .none:
            preconditionFailure("settled actions never reach performEnrollment: \(action)")
        }
    }

    static func scheduleKind(_ timer: EnrollmentStateMachine.Timer) -> ScheduleKind {
        switch timer {
        case .enrollmentRetry: .enrollmentRetry
        case .policyCheckIn: .checkIn
        }
    }

    static func timer(for kind: ScheduleKind) -> EnrollmentStateMachine.Timer? {
        switch kind {
        case .enrollmentRetry: .enrollmentRetry
        case .checkIn: .policyCheckIn
        default: nil
        }
    }

    /// The account enrolled or remediated for the app, other than `account` (one managed
    /// account at a time).
    func managedAccount(besides account: AccountID) -> AccountID? {
        if let managed = remediation.currentManagedAccount, managed != account { return managed }
        return enrollments.first { entry in
            entry.key != account && (entry.value.isEnrolled || ["enrolling", "awaitingRetry"].contains(entry.value.stateName))
        }?.key
    }
}
