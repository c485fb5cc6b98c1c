import ComplianceCore
import GRDB
import JSON

/// Which machine a journal belongs to. Extensible: `JournalKind("custom")`.
public struct JournalKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let remediation = JournalKind("remediation")
    public static let wipe = JournalKind("wipe")
    public static let deregistration = JournalKind("deregistration")
    public static let enrollment = JournalKind("enrollment")

    public var description: String { rawValue }
}

/// A machine's progress, written before each side effect so a restart can resume it.
public struct Journal: Sendable, Hashable {
    public var account: AccountID
    public var kind: JournalKind
    /// The step about to run (for logs and the control API).
    public var step: String
    /// The machine's persisted state, opaque to the store.
    public var state: JSONValue
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
}

extension StoreTransaction {
    /// Inserts or updates the account's journal of `kind` (one per account and kind).
    /// Needs no account row: a wipe journal outlives the account it removes.
    @discardableResult
    public func saveJournal(for account: AccountID, kind: JournalKind, step: String, state: JSONValue) throws -> Journal {
        try db.execute(
            sql: """
                INSERT INTO journal (account, upn, kind, step, state, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account, kind) DO UPDATE SET
                    upn = excluded.upn, step = excluded.step, state = excluded.state, updated_ms = excluded.updated_ms
                """,
            arguments: [account.key, account.upn, kind.rawValue, step, state.encodedString(), now, now])
        guard let journal = try journal(for: account, kind: kind) else {
            throw StoreError(code: .database, path: path, account: account.key, message: "journal vanished after save")
        }
        return journal
    }

    /// The account's journal of `kind`, or nil.
    public func journal(for account: AccountID, kind: JournalKind) throws -> Journal? {
        try Row.fetchOne(db, sql: "SELECT * FROM journal WHERE account = ? AND kind = ?", arguments: [account.key, kind.rawValue])
            .map(journal)
    }

    /// Every unfinished journal, oldest first (then by account key and kind): what to resume on start.
    public func openJournals() throws -> [Journal] {
        try Row.fetchAll(db, sql: "SELECT * FROM journal ORDER BY created_ms, account, kind").map(journal)
    }

    /// Deletes the journal once its machine has finished; returns whether it existed.
    @discardableResult
    public func deleteJournal(for account: AccountID, kind: JournalKind) throws -> Bool {
        try db.execute(sql: "DELETE FROM journal WHERE account = ? AND kind = ?", arguments: [account.key, kind.rawValue])
        return db.changesCount > 0
    }

    private func journal(_ row: Row) throws -> Journal {
        let key: String = try row.decode(forColumn: "account")
        return Journal(
            account: try AccountID(try row.decode(forColumn: "upn")),
            kind: JournalKind(try row.decode(String.self, forColumn: "kind")),
            step: try row.decode(forColumn: "step"),
            state: try json(row, "state", account: key),
            createdAt: try row.decode(forColumn: "created_ms"),
            updatedAt: try row.decode(forColumn: "updated_ms"))
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/saveJournal(for:kind:step:state:)``.
    @discardableResult
    public func saveJournal(for account: AccountID, kind: JournalKind, step: String, state: JSONValue) async throws -> Journal {
        try await update(account: account) { try $0.saveJournal(for: account, kind: kind, step: step, state: state) }
    }

    /// The account's journal of `kind`, or nil.
    public func journal(for account: AccountID, kind: JournalKind) async throws -> Journal? {
        try await fetch(account: account) { try $0.journal(for: account, kind: kind) }
    }

    /// Every unfinished journal, oldest first.
    public func openJournals() async throws -> [Journal] {
        try await fetch { try $0.openJournals() }
    }

    /// Deletes a finished journal.
    @discardableResult
    public func deleteJournal(for account: AccountID, kind: JournalKind) async throws -> Bool {
        try await update(account: account) { try $0.deleteJournal(for: account, kind: kind) }
    }
}
