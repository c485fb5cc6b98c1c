import Foundation
import JSON
import NIOConcurrencyHelpers
import NIOCore

/// Everything the mock changes at run time, behind one actor.
///
/// Starts from ``Fixtures`` and returns to them on ``reset()``. Handlers read a consistent
/// snapshot of the directory through ``directory``; grants, enrollments, faults and the
/// request log have their own facets (`MockState+Grants.swift`, `+MAM`, `+Admin`).
public actor MockState {
    /// The fixtures the state was built from.
    public let fixtures: Fixtures
    /// Directory and policy as currently configured (admin changes apply here).
    public internal(set) var directory: Fixtures
    /// Seconds added to the wall clock (`POST /_admin/clock/advance`), to expire codes and tokens.
    public internal(set) var clockOffset: TimeInterval = 0

    var authorizationCodes: [String: AuthorizationCodeGrant] = [:]
    var refreshTokens: [String: RefreshTokenGrant] = [:]
    var deviceCodes: [String: DeviceCodeGrant] = [:]
    /// Browser sessions of the sign-in page: cookie value → UPN.
    var sessions: [String: String] = [:]
    /// (lowercased UPN, app id) pairs reported compliant.
    var compliant: Set<AccountApp> = []
    var enrollments: [String: Enrollment] = [:]
    /// (user, app) → its enrollment id in `enrollments`.
    var enrollmentIDs: [AccountApp: String] = [:]
    /// Pending wipe commands per (user, app).
    var pendingWipes: Set<AccountApp> = []
    /// HTTP status of CA answers: 400 like Entra, or 200 as some servers send (admin switch).
    public internal(set) var caErrorStatus = 400
    var faults: [FaultRule] = []
    /// Mirrors `!faults.isEmpty` for ``hasPendingFaults``.
    let faultsPending = NIOLockedValueBox(false)
    var requestLog = CircularBuffer<RequestLogEntry>()
    let requestLogLimit = 1000
    /// Access and id tokens issued since the reset, kept only while ``recordsIssuedTokens``.
    var issuedTokens: [String] = []
    /// Off by default: leak tests turn it on (``setRecordsIssuedTokens(_:)``).
    var recordsIssuedTokens = false

    /// Starts from `fixtures`: nothing enrolled, nothing compliant, no faults.
    public init(fixtures: Fixtures) {
        self.fixtures = fixtures
        self.directory = fixtures
    }

    /// The mock's current time: wall clock plus the admin offset.
    public func now() -> Date {
        Date().addingTimeInterval(clockOffset)
    }

    /// Moves the mock's clock forward.
    public func advanceClock(seconds: TimeInterval) {
        clockOffset += seconds
    }

    /// Back to the fixtures: assignments, policy, grants, enrollments, faults, log and clock.
    public func reset() {
        directory = fixtures
        clockOffset = 0
        caErrorStatus = 400
        authorizationCodes = [:]
        refreshTokens = [:]
        deviceCodes = [:]
        sessions = [:]
        compliant = []
        enrollments = [:]
        enrollmentIDs = [:]
        pendingWipes = []
        clearFaults()
        requestLog.removeAll()
        issuedTokens = []
    }

    /// Applies `change` to the user with `upn`; returns the updated user, `nil` when unknown.
    @discardableResult
    public func updateUser(upn: String, _ change: (inout Fixtures.User) -> Void) -> Fixtures.User? {
        guard let index = directory.users.firstIndex(where: { $0.upn.lowercased() == upn.lowercased() }) else {
            return nil
        }
        change(&directory.users[index])
        return directory.users[index]
    }

    /// Adds generated load users to the directory (``Fixtures/addingGeneratedUsers(count:prefix:)``);
    /// returns how many users the directory holds. A reset removes them.
    public func addGeneratedUsers(count: Int, prefix: String) throws(FixtureError) -> Int {
        directory = try directory.addingGeneratedUsers(count: count, prefix: prefix)
        return directory.users.count
    }

    /// Sets the HTTP status CA answers use (400 or 200).
    public func setCAErrorStatus(_ status: Int) {
        caErrorStatus = status
    }

    /// Replaces the policy's allowed accounts (`nil` = any) and bumps its version.
    public func setAllowedAccounts(_ accounts: [String]?) -> MAMPolicy {
        directory.mamPolicy.allowedAccounts = accounts
        directory.mamPolicy.version += 1
        return directory.mamPolicy
    }

    /// Merges settings into the policy and bumps its version; settings must be validated first.
    public func updatePolicySettings(_ settings: JSONObject) -> MAMPolicy {
        for (name, value) in settings { directory.mamPolicy.settings[name] = value }
        directory.mamPolicy.version += 1
        return directory.mamPolicy
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
