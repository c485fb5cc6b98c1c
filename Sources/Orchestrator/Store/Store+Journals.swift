import ComplianceCore
import GRDB
import JSON

/// Which machine a journal of the earlier layout belongs to.
public struct JournalKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// A selective wipe's progress: the one kind the conversion of the earlier layout reads.
    public static let wipe = JournalKind("wipe")

    public var description: String { rawValue }
}

/// A sub-machine's progress as the versions before the composed machine wrote it, one row
/// per account and kind. Only read: ``Engine`` converts a store of that layout into machine
/// records once (a wipe journal becomes the account record's `wipe`); nothing writes these
/// rows any more.
public struct Journal: Sendable, Hashable {
    public var account: AccountID
    public var kind: JournalKind
    /// The step that was about to run.
    public var step: String
    /// The machine's persisted state, opaque to the store.
    public var state: JSONValue
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
}

extension StoreTransaction {
    /// Every journal of the earlier layout, oldest first (then by account key and kind).
    public func openJournals() throws -> [Journal] {
        try Row.fetchAll(db, sql: "SELECT * FROM journal ORDER BY created_ms, account, kind").map(journal)
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
