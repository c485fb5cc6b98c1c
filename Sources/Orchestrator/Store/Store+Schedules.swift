import ComplianceCore
import GRDB
import JSON

/// What a timer is for. Extensible: `ScheduleKind("custom")`.
public struct ScheduleKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Retry a failed enrollment (every 24 h until one succeeds).
    public static let enrollmentRetry = ScheduleKind("enrollmentRetry")
    /// Policy check-in of an enrolled app (every 8 h).
    public static let checkIn = ScheduleKind("checkIn")
    /// Retry a remediation after a service or network failure (Retry-After).
    public static let remediationRetry = ScheduleKind("remediationRetry")

    public var description: String { rawValue }
}

/// A timer persisted with its absolute due time.
public struct ScheduledTask: Sendable, Hashable {
    public var id: Int64
    public var kind: ScheduleKind
    /// The account it is for; nil for app-wide timers.
    public var account: AccountID?
    public var dueAt: EpochMillis
    public var payload: JSONValue?
    public var createdAt: EpochMillis
}

extension StoreTransaction {
    /// Schedules `kind` for `account` at `dueAt`, replacing any timer of the same kind for the
    /// same account (or, with a nil account, the same app-wide kind). An account must exist.
    @discardableResult
    public func schedule(_ kind: ScheduleKind, account: AccountID?, at dueAt: EpochMillis, payload: JSONValue? = nil) throws -> ScheduledTask {
        try removeSchedules(kind, account: account)
        try db.execute(
            sql: "INSERT INTO schedule (kind, account, due_ms, payload, created_ms) VALUES (?, ?, ?, ?, ?)",
            arguments: [kind.rawValue, account?.key, dueAt, payload?.encodedString(), now])
        return ScheduledTask(id: db.lastInsertedRowID, kind: kind, account: account, dueAt: dueAt, payload: payload, createdAt: now)
    }

    /// Every timer due at or before `time`, by due time then id.
    public func dueSchedules(at time: EpochMillis) throws -> [ScheduledTask] {
        try Row.fetchAll(db, sql: Self.scheduleSelect + " WHERE s.due_ms <= ? ORDER BY s.due_ms, s.id", arguments: [time])
            .map(scheduledTask)
    }

    /// The earliest due time of any timer, to arm the next wake-up; nil when none.
    public func nextScheduleDue() throws -> EpochMillis? {
        try EpochMillis.fetchOne(db, sql: "SELECT min(due_ms) FROM schedule")
    }

    /// The account's timers (nil: the app-wide ones), by due time then id.
    public func schedules(for account: AccountID?) throws -> [ScheduledTask] {
        try Row.fetchAll(db, sql: Self.scheduleSelect + " WHERE s.account IS ? ORDER BY s.due_ms, s.id", arguments: [account?.key])
            .map(scheduledTask)
    }

    /// Removes one timer (it fired); returns whether it existed.
    @discardableResult
    public func removeSchedule(id: Int64) throws -> Bool {
        try db.execute(sql: "DELETE FROM schedule WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }

    /// Removes the timers of `kind` for `account` (nil: app-wide); returns how many.
    @discardableResult
    public func removeSchedules(_ kind: ScheduleKind, account: AccountID?) throws -> Int {
        try db.execute(sql: "DELETE FROM schedule WHERE kind = ? AND account IS ?", arguments: [kind.rawValue, account?.key])
        return db.changesCount
    }

    private static let scheduleSelect = "SELECT s.*, a.upn FROM schedule s LEFT JOIN account a ON a.key = s.account"

    private func scheduledTask(_ row: Row) throws -> ScheduledTask {
        let key: String? = try row.decode(forColumn: "account")
        var account: AccountID?
        if key != nil { account = try AccountID(try row.decode(forColumn: "upn")) }
        return ScheduledTask(
            id: try row.decode(forColumn: "id"),
            kind: ScheduleKind(try row.decode(String.self, forColumn: "kind")),
            account: account,
            dueAt: try row.decode(forColumn: "due_ms"),
            payload: try optionalJSON(row, "payload", account: key),
            createdAt: try row.decode(forColumn: "created_ms"))
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/schedule(_:account:at:payload:)``.
    @discardableResult
    public func schedule(_ kind: ScheduleKind, account: AccountID?, at dueAt: EpochMillis, payload: JSONValue? = nil) async throws -> ScheduledTask {
        try await update(account: account) { try $0.schedule(kind, account: account, at: dueAt, payload: payload) }
    }

    /// Every timer due at or before `time`, by due time then id.
    public func dueSchedules(at time: EpochMillis) async throws -> [ScheduledTask] {
        try await fetch { try $0.dueSchedules(at: time) }
    }

    /// The earliest due time of any timer; nil when none.
    public func nextScheduleDue() async throws -> EpochMillis? {
        try await fetch { try $0.nextScheduleDue() }
    }

    /// The account's timers (nil: app-wide ones).
    public func schedules(for account: AccountID?) async throws -> [ScheduledTask] {
        try await fetch(account: account) { try $0.schedules(for: account) }
    }

    /// Removes one timer.
    @discardableResult
    public func removeSchedule(id: Int64) async throws -> Bool {
        try await update { try $0.removeSchedule(id: id) }
    }

    /// Removes the timers of `kind` for `account`.
    @discardableResult
    public func removeSchedules(_ kind: ScheduleKind, account: AccountID?) async throws -> Int {
        try await update(account: account) { try $0.removeSchedules(kind, account: account) }
    }
}
