import ComplianceCore
import GRDB
import JSON

extension StoreTransaction {
    /// Stores the composed machine's record of `account` on its account row (created when
    /// missing), with the columns people read kept in step: display UPN, home account id,
    /// signed in, managed, last enrollment status.
    public func saveMachineRecord(_ account: AccountID, record: JSONValue) throws {
        let summary = ComplianceMachine.summary(ofRecord: record)
        let signedIn = summary?.signedIn ?? false
        let managed = summary?.managed ?? false
        let home = summary?.account.homeAccountID?.description
        let status = summary?.lastEnrollmentStatus.map { Int64($0.rawValue) }
        try db.execute(
            sql: """
                INSERT INTO account (key, upn, home_account_id, signed_in, managed, created_ms, updated_ms, last_enrollment_status, machine)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET
                    upn = excluded.upn,
                    home_account_id = coalesce(excluded.home_account_id, home_account_id),
                    signed_in = excluded.signed_in,
                    managed = excluded.managed,
                    updated_ms = excluded.updated_ms,
                    last_enrollment_status = excluded.last_enrollment_status,
                    machine = excluded.machine
                """,
            arguments: [account.key, account.upn, home, signedIn, managed, now, now, status, record.encodedString()])
    }

    /// Every account's machine record, ordered by key (accounts without one are skipped).
    public func machineRecords() throws -> [JSONValue] {
        try Row.fetchAll(db, sql: "SELECT key, machine FROM account WHERE machine IS NOT NULL ORDER BY key").map { row in
            try json(row, "machine", account: row["key"])
        }
    }
}

extension StoreTransaction {
    /// Whether any token of the account is stored.
    public func hasTokens(_ account: AccountID) throws -> Bool {
        let count = try Int.fetchOne(
            db, sql: "SELECT (SELECT count(*) FROM refresh_token WHERE account = ?) + (SELECT count(*) FROM access_token WHERE account = ?)",
            arguments: [account.key, account.key]) ?? 0
        return count > 0
    }
}
