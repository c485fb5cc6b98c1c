import ComplianceCore
import GRDB
import JSON

/// The enrollment machine's persisted state for one account.
public struct EnrollmentRecord: Sendable, Hashable {
    public var account: AccountID
    /// The machine's state, opaque to the store.
    public var state: JSONValue
    /// The last IntuneMAMEnrollmentStatus code received (100 NewPoliciesReceived, 205 …).
    public var lastStatus: Int?
    /// When the next retry (failed enrollment) or check-in (enrolled) is due.
    public var nextDueAt: EpochMillis?
    public var updatedAt: EpochMillis
}

extension StoreTransaction {
    /// Inserts or replaces the account's enrollment. The account must exist.
    @discardableResult
    public func saveEnrollment(for account: AccountID, state: JSONValue, lastStatus: Int?, nextDueAt: EpochMillis?) throws -> EnrollmentRecord {
        try db.execute(
            sql: "INSERT OR REPLACE INTO enrollment (account, state, last_status, next_due_ms, updated_ms) VALUES (?, ?, ?, ?, ?)",
            arguments: [account.key, state.encodedString(), lastStatus, nextDueAt, now])
        guard let record = try enrollment(for: account) else {
            throw StoreError(code: .database, path: path, account: account.key, message: "enrollment vanished after save")
        }
        return record
    }

    /// The account's enrollment, or nil when it has none.
    public func enrollment(for account: AccountID) throws -> EnrollmentRecord? {
        try Row.fetchOne(
            db,
            sql: "SELECT e.*, a.upn FROM enrollment e JOIN account a ON a.key = e.account WHERE e.account = ?",
            arguments: [account.key]
        ).map(enrollmentRecord)
    }

    /// Every enrollment, ordered by account key (to resume retries and check-ins on start).
    public func enrollments() throws -> [EnrollmentRecord] {
        try Row.fetchAll(db, sql: "SELECT e.*, a.upn FROM enrollment e JOIN account a ON a.key = e.account ORDER BY e.account")
            .map(enrollmentRecord)
    }

    /// Removes the account's enrollment; returns whether there was one.
    @discardableResult
    public func deleteEnrollment(for account: AccountID) throws -> Bool {
        try db.execute(sql: "DELETE FROM enrollment WHERE account = ?", arguments: [account.key])
        return db.changesCount > 0
    }

    private func enrollmentRecord(_ row: Row) throws -> EnrollmentRecord {
        let key: String = try row.decode(forColumn: "account")
        return EnrollmentRecord(
            account: try AccountID(try row.decode(forColumn: "upn")),
            state: try json(row, "state", account: key),
            lastStatus: try row.decode(forColumn: "last_status"),
            nextDueAt: try row.decode(forColumn: "next_due_ms"),
            updatedAt: try row.decode(forColumn: "updated_ms"))
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/saveEnrollment(for:state:lastStatus:nextDueAt:)``.
    @discardableResult
    public func saveEnrollment(for account: AccountID, state: JSONValue, lastStatus: Int?, nextDueAt: EpochMillis?) async throws -> EnrollmentRecord {
        try await update(account: account) { try $0.saveEnrollment(for: account, state: state, lastStatus: lastStatus, nextDueAt: nextDueAt) }
    }

    /// The account's enrollment, or nil.
    public func enrollment(for account: AccountID) async throws -> EnrollmentRecord? {
        try await fetch(account: account) { try $0.enrollment(for: account) }
    }

    /// Every enrollment, ordered by account key.
    public func enrollments() async throws -> [EnrollmentRecord] {
        try await fetch { try $0.enrollments() }
    }

    /// Removes the account's enrollment.
    @discardableResult
    public func deleteEnrollment(for account: AccountID) async throws -> Bool {
        try await update(account: account) { try $0.deleteEnrollment(for: account) }
    }
}
