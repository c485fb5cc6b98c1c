import Foundation
import JSON
import NIOCore
import Synchronization

/// Everything the mock changes at run time, behind one lock.
///
/// Starts from ``Fixtures`` and returns to them on ``reset()``. Handlers read a consistent
/// snapshot of the directory through ``directory``; grants, enrollments, faults and the
/// request log have their own facets (`MockState+Grants.swift`, `+MAM`, `+Sessions`,
/// `+Secrets`, `RequestLog.swift`).
///
/// Every operation is synchronous: it takes the lock, reads or changes ``Storage`` and
/// returns (the per-request "is a fault armed?" reads an atomic mirror instead). No
/// operation waits or calls out while it holds the lock, so a request handler calls the
/// state on its own thread, with no executor hop (an actor cost the token endpoint about a
/// tenth of its throughput; BENCHMARKS.md, "Issuance").
public final class MockState: Sendable {
    /// The fixtures the state was built from.
    public let fixtures: Fixtures
    private let storage: Mutex<Storage>
    /// Mirrors `!faults.isEmpty`, set under the lock: requests check it without the lock.
    let faultsArmed = Atomic<Bool>(false)
    /// Counts served at `GET /metrics` (its own lock; never reset).
    public let metrics = MockMetrics()
    /// The signing keys (``KeyRing``); a reset keeps them, as tokens signed before it may still be checked.
    public let keyRing = KeyRing()
    /// Requests a `hold` fault keeps unanswered (``HeldRequests``); a reset releases them.
    public let held = HeldRequests()

    /// The mutable state; only ever touched under the lock (``locked(_:)``).
    struct Storage: Sendable {
        /// Directory and policy as currently configured (admin changes apply here).
        var directory: Fixtures
        /// Seconds added to the wall clock (`POST /_admin/clock/advance`), to expire codes and tokens.
        var clockOffset: TimeInterval = 0
        var authorizationCodes: [String: AuthorizationCodeGrant] = [:]
        var refreshTokens: [String: RefreshTokenGrant] = [:]
        var deviceCodes: [String: DeviceCodeGrant] = [:]
        /// Browser sessions of the sign-in page: cookie value → UPN.
        var sessions: [String: String] = [:]
        /// Consents given at interactive sign-ins: `upn|clientId|resource/scope`, lowercased.
        var consents: Set<String> = []
        /// Failed sign-ins per lowercased UPN, and wrong device codes (``LockoutPolicy``).
        var lockouts: [String: LockoutCounter] = [:]
        /// (lowercased UPN, app id) pairs reported compliant.
        var compliant: Set<AccountApp> = []
        var enrollments: [String: Enrollment] = [:]
        /// (user, app) → its enrollment id in `enrollments`.
        var enrollmentIDs: [AccountApp: String] = [:]
        /// Pending wipe commands per (user, app).
        var pendingWipes: Set<AccountApp> = []
        /// HTTP status of CA answers: 400 like Entra, or 200 as some servers send (admin switch).
        var caErrorStatus = 400
        var faults: [FaultRule] = []
        var requestLog = CircularBuffer<RequestLogEntry>()
        /// Access and id tokens issued since the reset, kept only while `recordsIssuedTokens`.
        var issuedTokens: [String] = []
        /// Off by default: leak tests turn it on (``setRecordsIssuedTokens(_:)``).
        var recordsIssuedTokens = false

        init(directory: Fixtures) {
            self.directory = directory
        }

        /// The mock's current time: wall clock plus the admin offset.
        func now() -> Date {
            Date().addingTimeInterval(clockOffset)
        }
    }

    /// Token requests answered by ``TokenFastLane`` since the server started (a reset keeps
    /// the count): tests and the issuance benchmark check which path served them.
    public let pipelineTokenAnswers = Atomic<Int>(0)

    /// The request log keeps this many newest lines.
    let requestLogLimit = 1000

    /// Starts from `fixtures`: nothing enrolled, nothing compliant, no faults.
    public init(fixtures: Fixtures) {
        self.fixtures = fixtures
        self.storage = Mutex(Storage(directory: fixtures))
    }

    /// Runs `body` with the state under the lock. `body` must not call back into the state.
    func locked<Result: Sendable, Failure: Error>(_ body: (inout Storage) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withLock { (state: inout sending Storage) throws(Failure) -> Result in try body(&state) }
    }

    /// Directory and policy as currently configured (admin changes apply here).
    public var directory: Fixtures { locked { $0.directory } }

    /// Seconds added to the wall clock (`POST /_admin/clock/advance`), to expire codes and tokens.
    public var clockOffset: TimeInterval { locked { $0.clockOffset } }

    /// HTTP status of CA answers: 400 like Entra, or 200 as some servers send (admin switch).
    public var caErrorStatus: Int { locked { $0.caErrorStatus } }

    /// The mock's current time: wall clock plus the admin offset.
    public func now() -> Date {
        locked { $0.now() }
    }

    /// Moves the mock's clock forward.
    public func advanceClock(seconds: TimeInterval) {
        locked { $0.clockOffset += seconds }
    }

    /// Back to the fixtures: assignments, policy, grants, enrollments, faults, log and clock.
    /// Whether issued tokens are recorded stays as it was.
    public func reset() {
        locked { state in
            let records = state.recordsIssuedTokens
            state = Storage(directory: fixtures)
            state.recordsIssuedTokens = records
            faultsArmed.store(false, ordering: .relaxed)
        }
        held.releaseAll()
    }

    /// Applies `change` to the user with `upn`; returns the updated user, `nil` when unknown.
    @discardableResult
    public func updateUser(upn: String, _ change: (inout Fixtures.User) -> Void) -> Fixtures.User? {
        locked { state in
            guard let index = state.directory.users.firstIndex(where: { $0.upn.lowercased() == upn.lowercased() }) else {
                return nil
            }
            change(&state.directory.users[index])
            return state.directory.users[index]
        }
    }

    /// Adds generated load users to the directory (``Fixtures/addingGeneratedUsers(count:prefix:)``);
    /// returns how many users the directory holds. A reset removes them. When that adds to the
    /// policy's allowed accounts, the policy version goes up, as for any change of the list:
    /// enrolled apps get the new list at their next check-in.
    public func addGeneratedUsers(count: Int, prefix: String) throws(FixtureError) -> Int {
        try locked { (state: inout Storage) throws(FixtureError) -> Int in
            let allowed = state.directory.mamPolicy.allowedAccounts
            state.directory = try state.directory.addingGeneratedUsers(count: count, prefix: prefix)
            if state.directory.mamPolicy.allowedAccounts != allowed { state.directory.mamPolicy.version += 1 }
            return state.directory.users.count
        }
    }

    /// Sets the HTTP status CA answers use (400 or 200).
    public func setCAErrorStatus(_ status: Int) {
        locked { $0.caErrorStatus = status }
    }

    /// Replaces the policy's allowed accounts (`nil` = any) and bumps its version.
    public func setAllowedAccounts(_ accounts: [String]?) -> MAMPolicy {
        locked { state in
            state.directory.mamPolicy.allowedAccounts = accounts
            state.directory.mamPolicy.version += 1
            return state.directory.mamPolicy
        }
    }

    /// Replaces the MAM app configurations and bumps the policy's version (the next check-in
    /// of every enrolled user delivers the policy, with their configuration, again).
    public func setAppConfigs(_ entries: [AppConfigEntry]) -> [AppConfigEntry] {
        locked { state in
            state.directory.mamPolicy.appConfigs = entries
            state.directory.mamPolicy.version += 1
            return entries
        }
    }

    /// Merges settings into the policy (a null removes the setting, as in a JSON merge patch)
    /// and bumps its version; settings must be validated first.
    public func updatePolicySettings(_ settings: JSONObject) -> MAMPolicy {
        locked { state in
            for (name, value) in settings {
                if value == .null {
                    state.directory.mamPolicy.settings[name] = Optional<JSONValue>.none  // not JSONValue's nil literal, .null
                } else {
                    state.directory.mamPolicy.settings[name] = value
                }
            }
            state.directory.mamPolicy.version += 1
            return state.directory.mamPolicy
        }
    }
}

/// A user and an app, the unit of compliance, enrollment and wipe.
public struct AccountApp: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased UPN.
    public let upn: String
    public let appId: String

    public init(upn: String, appId: String) {
        self.upn = upn.lowercased()
        self.appId = appId
    }

    public var description: String { "\(upn)/\(appId)" }
}
