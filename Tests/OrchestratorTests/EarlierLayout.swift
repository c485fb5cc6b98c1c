import ComplianceCore
import GRDB
import JSON
@testable import Orchestrator

/// Rows of the layout before the composed machine (journal, policy and schedule tables),
/// written as those versions wrote them: the product only reads journals now (to convert
/// such a store once) and writes none of the three.
enum EarlierLayout {
    /// The account's journal of `kind` (one per account and kind; no account row needed).
    static func saveJournal(_ tx: StoreTransaction, _ account: AccountID, kind: String, step: String, state: JSONValue) throws {
        try tx.db.execute(
            sql: """
                INSERT INTO journal (account, upn, kind, step, state, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account, kind) DO UPDATE SET
                    upn = excluded.upn, step = excluded.step, state = excluded.state, updated_ms = excluded.updated_ms
                """,
            arguments: [account.key, account.upn, kind, step, state.encodedString(), tx.now, tx.now])
    }

    /// A policy for one account (the account row must exist).
    static func savePolicy(_ tx: StoreTransaction, _ account: AccountID, version: String, policy: JSONValue) throws {
        try tx.db.execute(
            sql: "INSERT OR REPLACE INTO policy (scope_kind, scope_key, account, version, policy, allowed_accounts, updated_ms) VALUES ('account', ?, ?, ?, ?, NULL, ?)",
            arguments: [account.key, account.key, version, policy.encodedString(), tx.now])
    }

    /// A timer for one account (the account row must exist).
    static func schedule(_ tx: StoreTransaction, _ kind: String, _ account: AccountID, at dueAt: EpochMillis) throws {
        try tx.db.execute(
            sql: "INSERT INTO schedule (kind, account, due_ms, payload, created_ms) VALUES (?, ?, ?, NULL, ?)",
            arguments: [kind, account.key, dueAt, tx.now])
    }
}
