import ComplianceCore
import GRDB
import JSON

/// App-wide values the engine keeps across restarts, by name: the remediation and
/// allowed-accounts machines, the virtual clock, the token requests a remediation retries.
extension StoreTransaction {
    /// Stores `value` under `name`, replacing the previous one.
    public func saveAppState(_ name: String, _ value: JSONValue) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO app_state (name, value, updated_ms) VALUES (?, ?, ?)")
            .execute(arguments: [name, value.encodedString(), now])
    }

    /// The value stored under `name`, or nil.
    public func appState(_ name: String) throws -> JSONValue? {
        guard let row = try Row.fetchOne(db, sql: "SELECT value FROM app_state WHERE name = ?", arguments: [name]) else {
            return nil
        }
        return try json(row, "value")
    }
}

/// An account's registration with the MAM service: its enrollment id and the last policy
/// the service sent (the policy check-in and the compliance report need both).
public struct MAMRegistration: Sendable, Hashable {
    public var account: AccountID
    public var enrollmentID: String
    /// The service's policy document, as sent.
    public var policy: JSONValue?

    public init(account: AccountID, enrollmentID: String, policy: JSONValue?) {
        self.account = account
        self.enrollmentID = enrollmentID
        self.policy = policy
    }
}

extension StoreTransaction {
    /// Inserts or replaces the account's registration. The account must exist.
    public func saveRegistration(_ registration: MAMRegistration) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO mam_registration (account, enrollment_id, policy, updated_ms) VALUES (?, ?, ?, ?)",
            arguments: [registration.account.key, registration.enrollmentID, registration.policy?.encodedString(), now])
    }

    /// The account's registration, or nil.
    public func registration(for account: AccountID) throws -> MAMRegistration? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT enrollment_id, policy FROM mam_registration WHERE account = ?", arguments: [account.key])
        else { return nil }
        return MAMRegistration(
            account: account, enrollmentID: try row.decode(forColumn: "enrollment_id"),
            policy: try optionalJSON(row, "policy", account: account.key))
    }

    /// Forgets the account's registration; returns whether there was one.
    @discardableResult
    public func deleteRegistration(for account: AccountID) throws -> Bool {
        try db.execute(sql: "DELETE FROM mam_registration WHERE account = ?", arguments: [account.key])
        return db.changesCount > 0
    }
}
