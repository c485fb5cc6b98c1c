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
        compliant.contains(account)
    }

    func markCompliant(_ account: AccountApp) {
        compliant.insert(account)
    }

    /// Forgets a compliance report (admin reset); returns whether one was recorded.
    @discardableResult
    public func resetCompliance(_ account: AccountApp) -> Bool {
        compliant.remove(account) != nil
    }

    /// Queues a selective wipe for the next check-in of (user, app).
    public func queueWipe(_ account: AccountApp) {
        pendingWipes.insert(account)
    }

    func enrollment(for account: AccountApp) -> Enrollment? {
        enrollmentIDs[account].flatMap { enrollments[$0] }
    }

    func enrollment(id: String) -> Enrollment? {
        enrollments[id]
    }

    /// The account's enrollment, created when missing — one actor step, so concurrent
    /// enroll calls for one account cannot create two. Records the delivered policy version.
    func enrollOrExisting(_ account: AccountApp, policyVersion: Int?) -> (enrollment: Enrollment, isNew: Bool) {
        if var existing = enrollment(for: account) {
            existing.deliveredPolicyVersion = policyVersion
            enrollments[existing.id] = existing
            return (existing, false)
        }
        return (addEnrollment(for: account, policyVersion: policyVersion), true)
    }

    /// Enrolls (user, app) as `POST /mam/v1/enroll` would, without a request, and returns the
    /// enrollment id: for benchmarks and tests that need many enrolled accounts.
    public func seedEnrollment(_ account: AccountApp) -> String {
        enrollOrExisting(account, policyVersion: directory.mamPolicy.version).enrollment.id
    }

    private func addEnrollment(for account: AccountApp, policyVersion: Int?) -> Enrollment {
        let enrollment = Enrollment(
            id: UUID().uuidString.lowercased(), account: account,
            deliveredPolicyVersion: policyVersion, enrolledAt: now())
        enrollments[enrollment.id] = enrollment
        enrollmentIDs[account] = enrollment.id
        return enrollment
    }

    func recordDelivered(policyVersion: Int?, enrollmentId: String) {
        enrollments[enrollmentId]?.deliveredPolicyVersion = policyVersion
    }

    /// Removes an enrollment and the compliance it carried.
    func removeEnrollment(id: String) {
        guard let enrollment = enrollments.removeValue(forKey: id) else { return }
        enrollmentIDs[enrollment.account] = nil
        compliant.remove(enrollment.account)
    }

    /// Takes a pending wipe for `account` off the queue; true when there was one.
    func takePendingWipe(_ account: AccountApp) -> Bool {
        pendingWipes.remove(account) != nil
    }

    /// Pending wipes, for the admin state view.
    var pendingWipeList: [AccountApp] {
        pendingWipes.sorted { $0.description < $1.description }
    }
}
