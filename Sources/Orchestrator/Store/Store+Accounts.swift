import ComplianceCore
import GRDB

/// A signed-in or known account.
public struct AccountRecord: Sendable, Hashable {
    public var id: AccountID
    /// MSAL's home account id, `oid.tid` (`uid.utid` from `client_info`), once known.
    public var homeAccountID: String?
    /// The user is signed in (holds or may acquire tokens).
    public var signedIn: Bool
    /// The account is the managed (enrolled, policy-bound) account.
    public var managed: Bool
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
}

extension StoreTransaction {
    /// Inserts or updates the account. A nil `homeAccountID` keeps the stored one; the
    /// display UPN takes the form given here.
    @discardableResult
    public func upsertAccount(_ id: AccountID, homeAccountID: String? = nil, signedIn: Bool, managed: Bool) throws -> AccountRecord {
        try db.execute(
            sql: """
                INSERT INTO account (key, upn, home_account_id, signed_in, managed, created_ms, updated_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET
                    upn = excluded.upn,
                    home_account_id = coalesce(excluded.home_account_id, home_account_id),
                    signed_in = excluded.signed_in,
                    managed = excluded.managed,
                    updated_ms = excluded.updated_ms
                """,
            arguments: [id.key, id.upn, homeAccountID, signedIn, managed, now, now])
        guard let record = try account(id) else {
            throw StoreError(code: .database, path: path, account: id.key, message: "account vanished after upsert")
        }
        return record
    }

    /// The account, or nil when unknown.
    public func account(_ id: AccountID) throws -> AccountRecord? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM account WHERE key = ?"), arguments: [id.key]).map(Self.accountRecord)
    }

    /// All accounts, ordered by key.
    public func accounts() throws -> [AccountRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY key").map(Self.accountRecord)
    }

    /// Removes the account and, by cascade, its tokens, enrollment, account policy and
    /// schedules. Journals and events stay. Returns whether the account existed.
    @discardableResult
    public func deleteAccount(_ id: AccountID) throws -> Bool {
        try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [id.key])
        return db.changesCount > 0
    }

    /// Records the last IntuneMAMEnrollmentStatus the account received (enroll, check-in,
    /// unenroll, or a refusal such as 227); a no-op for an unknown account.
    public func setLastEnrollmentStatus(_ status: Int, for id: AccountID) throws {
        try db.execute(
            sql: "UPDATE account SET last_enrollment_status = ? WHERE key = ?", arguments: [status, id.key])
    }

    /// Every account's last enrollment status, for the accounts that received one.
    public func lastEnrollmentStatuses() throws -> [(account: AccountID, status: Int)] {
        try Row.fetchAll(db, sql: "SELECT upn, last_enrollment_status FROM account WHERE last_enrollment_status IS NOT NULL ORDER BY key")
            .map { (try AccountID(try $0.decode(forColumn: "upn")), try $0.decode(forColumn: "last_enrollment_status")) }
    }

    static func accountRecord(_ row: Row) throws -> AccountRecord {
        AccountRecord(
            id: try AccountID(try row.decode(forColumn: "upn")),
            homeAccountID: try row.decode(forColumn: "home_account_id"),
            signedIn: try row.decode(forColumn: "signed_in"),
            managed: try row.decode(forColumn: "managed"),
            createdAt: try row.decode(forColumn: "created_ms"),
            updatedAt: try row.decode(forColumn: "updated_ms"))
    }
}

extension OrchestratorStore {
    /// Inserts or updates the account; see ``StoreTransaction/upsertAccount(_:homeAccountID:signedIn:managed:)``.
    @discardableResult
    public func upsertAccount(_ id: AccountID, homeAccountID: String? = nil, signedIn: Bool, managed: Bool) async throws -> AccountRecord {
        try await update(account: id) { try $0.upsertAccount(id, homeAccountID: homeAccountID, signedIn: signedIn, managed: managed) }
    }

    /// The account, or nil when unknown.
    public func account(_ id: AccountID) async throws -> AccountRecord? {
        try await fetch(account: id) { try $0.account(id) }
    }

    /// All accounts, ordered by key.
    public func accounts() async throws -> [AccountRecord] {
        try await fetch { try $0.accounts() }
    }

    /// Removes the account and its dependent rows; see ``StoreTransaction/deleteAccount(_:)``.
    @discardableResult
    public func deleteAccount(_ id: AccountID) async throws -> Bool {
        try await update(account: id) { try $0.deleteAccount(id) }
    }
}
