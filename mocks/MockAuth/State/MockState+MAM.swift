import Foundation

/// An app's enrollment with the MAM service for one account.
public struct Enrollment: Sendable, Hashable {
    public var id: String
    public var account: AccountApp
    /// The policy version last delivered to the app.
    public var deliveredPolicyVersion: Int?
    public var enrolledAt: Date
}

extension MockState {
    /// True when (user, app) has reported compliance since the last reset or wipe.
    public func isCompliant(_ account: AccountApp) -> Bool {
        locked { $0.compliant.contains(account) }
    }

    func markCompliant(_ account: AccountApp) {
        locked { _ = $0.compliant.insert(account) }
    }

    /// Records compliance for the account of enrollment `id` while that enrollment still
    /// exists, in one locked step: a wipe or unenroll that removed it since the caller looked
    /// it up wins. False when it is gone.
    func markCompliant(enrollmentId id: String) -> Bool {
        locked { state in
            guard let enrollment = state.enrollments[id] else { return false }
            state.compliant.insert(enrollment.account)
            return true
        }
    }

    /// Forgets a compliance report (admin reset); returns whether one was recorded.
    @discardableResult
    public func resetCompliance(_ account: AccountApp) -> Bool {
        locked { $0.compliant.remove(account) != nil }
    }

    /// Queues a selective wipe for the next check-in of (user, app).
    public func queueWipe(_ account: AccountApp) {
        locked { _ = $0.pendingWipes.insert(account) }
    }

    /// Every enrollment, by id.
    public var enrollments: [String: Enrollment] { locked { $0.enrollments } }

    func enrollment(id: String) -> Enrollment? {
        locked { $0.enrollments[id] }
    }

    /// The account's enrollment, created when missing — one locked step, so concurrent
    /// enroll calls for one account cannot create two. Records the delivered policy version.
    func enrollOrExisting(_ account: AccountApp, policyVersion: Int?) -> (enrollment: Enrollment, isNew: Bool) {
        locked { $0.enrollOrExisting(account, policyVersion: policyVersion) }
    }

    /// Enrolls (user, app) as `POST /mam/v1/enroll` would, without a request, and returns the
    /// enrollment id: for benchmarks and tests that need many enrolled accounts.
    public func seedEnrollment(_ account: AccountApp) -> String {
        locked { $0.enrollOrExisting(account, policyVersion: $0.directory.mamPolicy.version).enrollment.id }
    }

    func recordDelivered(policyVersion: Int?, enrollmentId: String) {
        locked { $0.enrollments[enrollmentId]?.deliveredPolicyVersion = policyVersion }
    }

    /// Removes an enrollment and the compliance it carried.
    func removeEnrollment(id: String) {
        locked { $0.removeEnrollment(id: id) }
    }

    /// What a check-in of enrollment `id` by `upn` finds, in one locked step.
    enum CheckInLookup: Sendable {
        /// No such enrollment, or it belongs to another user.
        case notEnrolled
        /// A queued wipe was taken off the queue and the enrollment removed (with its compliance).
        case wipe(Enrollment)
        /// The enrollment, no wipe queued.
        case enrolled(Enrollment)
    }

    /// Looks up enrollment `id` for a check-in by `upn` and delivers a queued wipe: the wipe
    /// leaves the queue and the enrollment goes in the same locked step as the lookup, so of
    /// concurrent check-ins of one enrollment exactly one gets the wipe and the others find
    /// no enrollment (none is answered with the policy of an enrollment already wiped).
    func checkInLookup(id: String, account: AccountApp) -> CheckInLookup {
        locked { state in
            guard let enrollment = state.enrollments[id], enrollment.account == account else { return .notEnrolled }
            guard state.pendingWipes.remove(enrollment.account) != nil else { return .enrolled(enrollment) }
            state.removeEnrollment(id: id)
            return .wipe(enrollment)
        }
    }

    /// Pending wipes, for the admin state view.
    var pendingWipeList: [AccountApp] {
        locked { $0.pendingWipes.sorted { $0.description < $1.description } }
    }
}

extension MockState.Storage {
    mutating func removeEnrollment(id: String) {
        guard let enrollment = enrollments.removeValue(forKey: id) else { return }
        enrollmentIDs[enrollment.account] = nil
        compliant.remove(enrollment.account)
    }

    mutating func enrollOrExisting(_ account: AccountApp, policyVersion: Int?) -> (enrollment: Enrollment, isNew: Bool) {
        if var existing = enrollmentIDs[account].flatMap({ enrollments[$0] }) {
            existing.deliveredPolicyVersion = policyVersion
            enrollments[existing.id] = existing
            return (existing, false)
        }
        let enrollment = Enrollment(
            id: UUID().uuidString.lowercased(), account: account,
            deliveredPolicyVersion: policyVersion, enrolledAt: now())
        enrollments[enrollment.id] = enrollment
        enrollmentIDs[account] = enrollment.id
        return (enrollment, true)
    }
}
