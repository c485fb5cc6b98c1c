import ComplianceCore
import GRDB
import JSON

/// One entry of the event log.
public struct StoredEvent: Sendable, Hashable {
    /// Strictly increasing, never reused (AUTOINCREMENT).
    public var seq: Int64
    public var time: EpochMillis
    /// The account it is about; nil for app-wide events.
    public var account: AccountID?
    /// What happened (`statusDelivered`, `allowedAccountsChanged`, `wipeCompleted`, …).
    public var kind: String
    public var payload: JSONValue
}

extension StoreTransaction {
    /// Appends an event; subscribers are notified once the enclosing transaction commits
    /// (never for a rollback). Events older than the store's newest
    /// ``OrchestratorStore/eventRetention`` are deleted in the same transaction, in batches
    /// (``OrchestratorStore/pruneInterval(retention:)``).
    @discardableResult
    public func appendEvent(_ kind: String, account: AccountID?, payload: JSONValue) throws -> StoredEvent {
        try db.cachedStatement(sql: "INSERT INTO event (time_ms, account, upn, kind, payload) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [now, account?.key, account?.upn, kind, payload.encodedString()])
        let seq = db.lastInsertedRowID
        // The log is bounded: every few appends, the events beyond the retention go, in the
        // same transaction (a DELETE on every append made an in-process cache hit ≈ 45 µs slower).
        if seq % Int64(OrchestratorStore.pruneInterval(retention: eventRetention)) == 0 {
            try db.cachedStatement(sql: "DELETE FROM event WHERE seq <= ?").execute(arguments: [seq - Int64(eventRetention)])
        }
        let notifier = self.notifier
        db.afterNextTransaction(onCommit: { _ in notifier.signal(seq) })
        return StoredEvent(seq: seq, time: now, account: account, kind: kind, payload: payload)
    }

    /// Up to `limit` events with a seq greater than `seq`, in seq order.
    public func events(since seq: Int64, limit: Int) throws -> [StoredEvent] {
        try Row.fetchAll(db, sql: "SELECT * FROM event WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq, max(0, limit)])
            .map(storedEvent)
    }

    /// The seq of the newest event; 0 when the log is empty.
    public func lastEventSeq() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0
    }

    private func storedEvent(_ row: Row) throws -> StoredEvent {
        let key: String? = try row.decode(forColumn: "account")
        var account: AccountID?
        if let key { account = try AccountID(try row.decode(String?.self, forColumn: "upn") ?? key) }
        return StoredEvent(
            seq: try row.decode(forColumn: "seq"),
            time: try row.decode(forColumn: "time_ms"),
            account: account,
            kind: try row.decode(forColumn: "kind"),
            payload: try json(row, "payload", account: key))
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/appendEvent(_:account:payload:)``.
    @discardableResult
    public func appendEvent(_ kind: String, account: AccountID?, payload: JSONValue) async throws -> StoredEvent {
        try await update(account: account) { try $0.appendEvent(kind, account: account, payload: payload) }
    }

    /// Up to `limit` events after `seq`, in seq order.
    public func events(since seq: Int64, limit: Int) async throws -> [StoredEvent] {
        try await fetch { try $0.events(since: seq, limit: limit) }
    }

    /// The seq of the newest committed event; 0 when none.
    public func lastEventSeq() async throws -> Int64 {
        try await fetch { try $0.lastEventSeq() }
    }

    /// A stream of the newest committed seq, yielded after each commit that appended events.
    /// Only the newest value is buffered; read the events with ``events(since:limit:)``.
    public func eventNotifications() -> AsyncStream<Int64> {
        notifier.subscribe()
    }

    /// Ends every wait of ``waitForEvents(since:limit:timeout:)`` and of
    /// ``eventNotifications()``, now and from now on (at shutdown).
    public func endEventWaits() {
        notifier.endAll()
    }

    /// Long poll: events after `seq` as soon as there are any, or `[]` after `timeout` (or at
    /// once after ``endEventWaits()``).
    /// Returns at once when events are already there. Cancellation ends the wait with `[]`.
    /// A `limit` below 1 counts as 1.
    public func waitForEvents(since seq: Int64, limit: Int, timeout: Duration) async throws -> [StoredEvent] {
        let limit = max(1, limit)
        // Subscribe before reading, so a commit between the read and the wait is not missed.
        let updates = notifier.subscribe()
        let present = try await events(since: seq, limit: limit)
        guard present.isEmpty else { return present }
        let woke = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await latest in updates where latest > seq { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return woke ? try await events(since: seq, limit: limit) : []
    }
}
