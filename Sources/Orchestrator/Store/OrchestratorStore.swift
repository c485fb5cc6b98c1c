import ComplianceCore
import Foundation
import GRDB
import JSON
import Logging

/// The daemon's durable state: one SQLite database (WAL mode, foreign keys on) at
/// `STATE_DIR/state.sqlite`, readable and writable by the owner only.
///
/// Every method runs in its own transaction. To persist several changes atomically
/// ("persist before the side effect"), use ``write(_:)`` and call the same operations on
/// the ``StoreTransaction`` it hands you. Methods that change one account's data touch no
/// other account's rows. Errors are ``StoreError``s. Tokens are never logged.
public final class OrchestratorStore: Sendable {
    /// The database file.
    public let path: String
    /// The directory holding ``path`` (absolute). Not NSString.deletingLastPathComponent: it
    /// traps on a one-character name.
    public var stateDirectory: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }
    let pool: DatabasePool
    let notifier: EventNotifier
    let clock: @Sendable () -> EpochMillis
    let logger: Logger
    /// The event log keeps the newest this many events. Older ones are deleted every
    /// ``pruneInterval(retention:)`` appends, so up to that many minus one more may be kept
    /// for a moment.
    public let eventRetention: Int

    /// How often an append prunes the event log: every `retention / 16`-th append, at most
    /// every 64th (every append for a retention under 32, so a small log stays exact). The log
    /// thus never holds more than about 1/16 over its retention.
    public static func pruneInterval(retention: Int) -> Int {
        min(64, max(1, retention / 16))
    }

    /// The default of ``eventRetention``: at a few hundred bytes per row, tens of megabytes;
    /// about ten weeks of an app asking for a token every minute.
    public static let defaultEventRetention = 100_000

    /// Opens (creating when missing) `stateDirectory/state.sqlite` and migrates it to the
    /// current schema.
    ///
    /// - Parameters:
    ///   - stateDirectory: created with mode 0700 when missing.
    ///   - clock: the current time; every stored timestamp comes from it.
    ///   - eventRetention: how many of the newest events the log keeps (at least 1); a
    ///     smaller value than the last run's drops the excess at the next pruning append.
    ///   - logger: the library never bootstraps logging.
    /// - Throws: ``StoreError`` — `.cannotOpen`, `.notADatabase` (garbage or corrupt file),
    ///   `.newerSchema` (written by a newer program), `.migrationFailed`.
    public convenience init(
        stateDirectory: String,
        clock: @escaping @Sendable () -> EpochMillis = OrchestratorStore.wallClock,
        eventRetention: Int = OrchestratorStore.defaultEventRetention,
        logger: Logger
    ) throws {
        do {
            try FileSecurity.makeDirectory(stateDirectory)
        } catch {
            throw StoreError(code: .cannotOpen, path: stateDirectory, message: "cannot create the state directory: \(error)")
        }
        try self.init(
            path: (stateDirectory as NSString).appendingPathComponent("state.sqlite"), clock: clock, eventRetention: eventRetention,
            logger: logger)
    }

    /// Opens (creating when missing) the database file at `path`; see
    /// ``init(stateDirectory:clock:eventRetention:logger:)``.
    public init(
        path: String,
        clock: @escaping @Sendable () -> EpochMillis = OrchestratorStore.wallClock,
        eventRetention: Int = OrchestratorStore.defaultEventRetention,
        logger: Logger
    ) throws {
        self.path = path
        self.clock = clock
        self.eventRetention = max(1, eventRetention)
        self.logger = logger
        self.notifier = EventNotifier()
        do {
            try FileSecurity.createPrivateFile(path)
        } catch {
            throw StoreError(code: .cannotOpen, path: path, message: "cannot create the database file with mode 0600: \(error)")
        }

        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "complianced.store"
        // Deleted rows (a wiped account's tokens) are overwritten with zeros, not left in free pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw StoreError.wrap(error, path: path)
        }
        try Self.migrate(pool, path: path, logger: logger)
        // SQLite gives -wal and -shm the database file's mode; make sure of it anyway.
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileSecurity.restrict(path + suffix, mode: 0o600)
            } catch {
                throw StoreError(code: .cannotOpen, path: path + suffix, message: "cannot restrict the file to mode 0600: \(error)")
            }
        }
        notifier.prime(try readSync { try $0.lastEventSeq() })
    }

    /// The system clock in milliseconds since the epoch.
    public static let wallClock: @Sendable () -> EpochMillis = {
        EpochMillis((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private static func migrate(_ pool: DatabasePool, path: String, logger: Logger) throws {
        let migrator = StoreSchema.migrator
        let applied: Set<String>
        do {
            applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
            let unknown = try pool.read { db -> [String] in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                    .filter { !StoreSchema.versions.contains($0) }
            }
            if !unknown.isEmpty {
                throw StoreError(
                    code: .newerSchema, path: path,
                    message: "the database was written by a newer version (unknown migrations: \(unknown.sorted().joined(separator: ", "))); this program knows up to \(StoreSchema.versions.last!). Upgrade the program, or move the file aside")
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
        let pending = StoreSchema.versions.filter { !applied.contains($0) }
        guard !pending.isEmpty else { return }
        do {
            try migrator.migrate(pool)
        } catch {
            let cause = StoreError.wrap(error, path: path)
            if cause.code == .notADatabase { throw cause }
            throw StoreError(code: .migrationFailed, path: path, message: "migrating \(pending.joined(separator: ", ")) failed: \(cause.message)")
        }
        logger.info("store migrated", metadata: ["store.path": "\(path)", "store.migrations": "\(pending.joined(separator: ","))"])
    }

    // MARK: - Transactions

    /// Runs `body` in one write transaction: everything it does commits together or not at all.
    ///
    /// Errors thrown by `body` roll back the transaction and are rethrown unchanged; database
    /// failures become ``StoreError``. Event notifications go out only after the commit.
    public func write<T: Sendable>(_ body: @Sendable (StoreTransaction) throws -> T) async throws -> T {
        try await perform(writing: true, account: nil, mapAll: false, body)
    }

    /// Runs `body` on a consistent read-only snapshot.
    public func read<T: Sendable>(_ body: @Sendable (StoreTransaction) throws -> T) async throws -> T {
        try await perform(writing: false, account: nil, mapAll: false, body)
    }

    /// One write transaction for a single operation; every error becomes a ``StoreError``.
    func update<T: Sendable>(account: AccountID? = nil, _ body: @Sendable (StoreTransaction) throws -> T) async throws -> T {
        try await perform(writing: true, account: account, mapAll: true, body)
    }

    /// One read transaction for a single operation; every error becomes a ``StoreError``.
    func fetch<T: Sendable>(account: AccountID? = nil, _ body: @Sendable (StoreTransaction) throws -> T) async throws -> T {
        try await perform(writing: false, account: account, mapAll: true, body)
    }

    /// Errors raised by the database or by decoding stored rows, as opposed to the caller's own.
    static func isStoreInternal(_ error: any Error) -> Bool {
        error is DatabaseError || error is JSONParseError || error is RowDecodingError
    }

    private func perform<T: Sendable>(
        writing: Bool, account: AccountID?, mapAll: Bool, _ body: @Sendable (StoreTransaction) throws -> T
    ) async throws -> T {
        let now = clock()
        do {
            if writing {
                return try await pool.write { db in try body(transaction(db, now: now)) }
            }
            return try await pool.read { db in try body(transaction(db, now: now)) }
        } catch where mapAll || Self.isStoreInternal(error) {
            throw StoreError.wrap(error, path: path, account: account?.key)
        }
    }

    /// Runs `body` in one write transaction on the calling thread and waits for the commit.
    ///
    /// For callers that must not suspend between a state change and its commit (the engine
    /// persists a machine snapshot and its events before the side effect the snapshot protects).
    public func writeSync<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        let now = clock()
        do {
            return try pool.write { db in try body(transaction(db, now: now)) }
        } catch where Self.isStoreInternal(error) {
            throw StoreError.wrap(error, path: path)
        }
    }

    private func transaction(_ db: Database, now: EpochMillis) -> StoreTransaction {
        StoreTransaction(db: db, now: now, notifier: notifier, path: path, eventRetention: eventRetention)
    }

    /// Copies the write-ahead log into the database file and empties it (`wal_checkpoint(TRUNCATE)`),
    /// so rows deleted since (with secure delete) leave no copy in the log either.
    public func checkpoint() throws {
        do {
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }

    /// Runs `body` on a consistent read-only snapshot on the calling thread.
    public func readSync<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        do {
            return try pool.read { db in try body(transaction(db, now: clock())) }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }
}
