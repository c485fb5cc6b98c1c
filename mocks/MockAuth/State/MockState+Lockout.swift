import Foundation

/// Failed attempts counted for ``LockoutPolicy``.
struct LockoutCounter: Sendable {
    var failures = 0
    var lockedUntil: Date?
    /// Digests of the last three wrong passwords counted: the same wrong password again is
    /// not counted, as Entra's smart lockout tracks the last three bad password hashes.
    var recentAttempts: [[UInt8]] = []

    /// How many distinct wrong passwords Entra remembers.
    static let remembered = 3
}

extension MockState {
    /// True while `key` (a lowercased UPN, or ``deviceGuessKey``) is locked out.
    func isLockedOut(_ key: String) -> Bool {
        locked { state in state.lockouts[key]?.lockedUntil.map { $0 > state.now() } ?? false }
    }

    /// Counts a failed attempt of `key` against `limit` (0: never locks); locks it when reached.
    /// `attempt` (a digest of the wrong password) that is one of the last three counted is not
    /// counted again: a job retrying one stale password never locks the account.
    func recordFailure(_ key: String, limit: Int, attempt: [UInt8]? = nil) {
        guard limit > 0 else { return }
        locked { state in
            var counter = state.lockouts[key] ?? LockoutCounter()
            if let attempt {
                if counter.recentAttempts.contains(attempt) { return }
                counter.recentAttempts = Array((counter.recentAttempts + [attempt]).suffix(LockoutCounter.remembered))
            }
            counter.failures += 1
            if counter.failures >= limit {
                counter.failures = 0
                counter.lockedUntil = state.now().addingTimeInterval(TimeInterval(state.directory.lockout.durationSeconds))
            }
            state.lockouts[key] = counter
        }
    }

    /// A success: the count of `key` starts again.
    func clearFailures(_ key: String) {
        locked { state in state.lockouts[key] = nil }
    }

    /// Replaces the lockout policy (`PUT /_admin/lockout`); counts and locks are kept.
    func setLockout(_ policy: LockoutPolicy) {
        locked { state in state.directory.lockout = policy }
    }

    /// The counter key of wrong device-page user codes (one for the whole mock).
    static let deviceGuessKey = "#device-user-code"
}
