import GRDB
import JSON

/// The store's operations inside one transaction, handed out by ``OrchestratorStore/write(_:)``
/// and ``OrchestratorStore/read(_:)``.
///
/// Synchronous and confined to the closure it was given to: do not keep it. All times
/// written during one transaction are the same ``now``.
public struct StoreTransaction {
    let db: Database
    /// The time of this transaction, from the store's clock.
    public let now: EpochMillis
    let notifier: EventNotifier
    /// The database file, for error messages.
    let path: String
    /// The store's ``OrchestratorStore/eventRetention``.
    let eventRetention: Int

    init(db: Database, now: EpochMillis, notifier: EventNotifier, path: String, eventRetention: Int) {
        self.db = db
        self.now = now
        self.notifier = notifier
        self.path = path
        self.eventRetention = eventRetention
    }

    /// Stored JSON is ours, but may be large: allow more than the wire limits.
    static let storedJSONLimits = JSONLimits(maxBytes: 64 << 20, maxDepth: 256)

    /// Parses a JSON column; invalid text is a ``StoreError/Code/corruptRow`` naming the column.
    func json(_ row: Row, _ column: String, account: String? = nil) throws -> JSONValue {
        let text: String = try row.decode(forColumn: column)
        do {
            return try JSONValue.parse(text, limits: Self.storedJSONLimits)
        } catch {
            throw StoreError(code: .corruptRow, path: path, account: account, message: "column \(column) holds invalid JSON: \(error)")
        }
    }

    /// Parses an optional JSON column (SQL NULL is nil, not JSON null).
    func optionalJSON(_ row: Row, _ column: String, account: String? = nil) throws -> JSONValue? {
        let text: String? = try row.decode(forColumn: column)
        guard text != nil else { return nil }
        return try json(row, column, account: account)
    }
}
