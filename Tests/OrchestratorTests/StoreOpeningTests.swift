import Foundation
import GRDB
import JSON
import Testing
@testable import Orchestrator

@Suite struct StoreOpeningTests {
    @Test func createsOwnerOnlyFilesInWALModeWithForeignKeys() async throws {
        try await withTemporaryDirectory { root in
            let stateDirectory = root + "/state/nested"
            let store = try openStore(stateDirectory)
            try await store.upsertAccount(alice, signedIn: true, managed: false)
            #expect(store.path == stateDirectory + "/state.sqlite")
            #expect(try permissions(stateDirectory) == 0o700)
            for suffix in ["", "-wal", "-shm"] {
                #expect(FileManager.default.fileExists(atPath: store.path + suffix), "missing \(suffix)")
                #expect(try permissions(store.path + suffix) == 0o600, "mode of state.sqlite\(suffix)")
            }
            let pragmas = try await store.read { tx in
                (try String.fetchOne(tx.db, sql: "PRAGMA journal_mode"), try Int.fetchOne(tx.db, sql: "PRAGMA foreign_keys"))
            }
            #expect(pragmas.0 == "wal")
            #expect(pragmas.1 == 1)
        }
    }

    @Test func tightensAnExistingWorldReadableFile() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
            #expect(try permissions(path) == 0o644)
            _ = try OrchestratorStore(path: path, logger: quietLogger)
            #expect(try permissions(path) == 0o600)
        }
    }

    @Test func migratesAnOldVersionDatabaseKeepingItsRows() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            try await Self.oldDatabase(path, upTo: "v1") { db in
                try db.execute(sql: "INSERT INTO account (key, upn, signed_in, managed, created_ms, updated_ms) VALUES ('alice@contoso.com', 'Alice@Contoso.com', 1, 1, 5, 5)")
                #expect(try !db.tableExists("journal"))
            }
            let store = try OrchestratorStore(path: path, logger: quietLogger)
            let applied = try await store.read { try StoreSchema.migrator.appliedIdentifiers($0.db) }
            #expect(applied == Set(StoreSchema.versions))
            let record = try #require(try await store.account(alice))
            #expect(record.id.upn == "Alice@Contoso.com")
            #expect(record.managed && record.signedIn)
            try store.writeSync { try EarlierLayout.saveJournal($0, alice, kind: "remediation", step: "enroll", state: ["n": 1]) }
            #expect(try store.readSync { try $0.openJournals() }.count == 1)
        }
    }

    @Test func v5CopiesEachEnrollmentsLastStatusOntoItsAccount() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            try await Self.oldDatabase(path, upTo: "v4") { db in
                try db.execute(sql: """
                    INSERT INTO account (key, upn, signed_in, managed, created_ms, updated_ms) VALUES
                        ('alice@contoso.com', 'alice@contoso.com', 1, 1, 5, 5), ('bob@contoso.com', 'bob@contoso.com', 1, 0, 5, 5);
                    INSERT INTO enrollment (account, state, last_status, updated_ms) VALUES ('alice@contoso.com', '{}', 101, 5);
                    """)
            }
            let store = try OrchestratorStore(path: path, logger: quietLogger)
            let statuses = try await store.read { try $0.lastEnrollmentStatuses() }
            #expect(statuses.map(\.account) == [alice] && statuses.map(\.status) == [101])
        }
    }

    /// Writes a database at `path` migrated up to `version` only, with `rows` in it.
    private static func oldDatabase(_ path: String, upTo version: String, rows: @escaping @Sendable (Database) throws -> Void) async throws {
        let old = try DatabaseQueue(path: path)
        try StoreSchema.migrator.migrate(old, upTo: version)
        try await old.write(rows)
        try old.close()
    }

    @Test func refusesADatabaseFromANewerVersion() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            do {
                let store = try OrchestratorStore(path: path, logger: quietLogger)
                try await store.write { tx in
                    try tx.db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')")
                }
            }
            let error = #expect(throws: StoreError.self) { try OrchestratorStore(path: path, logger: quietLogger) }
            #expect(error?.code == .newerSchema)
            #expect(error?.path == path)
            #expect(error?.message.contains("v99") == true)
        }
    }

    @Test func aFailingMigrationLeavesTheDatabaseAsItWas() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            do {
                // A foreign schema: a table v1 wants to create already exists.
                let foreign = try DatabaseQueue(path: path)
                try await foreign.write { db in try db.execute(sql: "CREATE TABLE access_token (x INTEGER)") }
                try foreign.close()
            }
            let error = #expect(throws: StoreError.self) { try OrchestratorStore(path: path, logger: quietLogger) }
            #expect(error?.code == .migrationFailed)
            #expect(error?.message.contains("v1") == true)
            let tables = try await DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            }
            #expect(tables == ["access_token", "grdb_migrations"] || tables == ["access_token"], "v1 rolled back: \(tables)")
        }
    }

    @Test func garbageFileGivesAClearErrorNamingThePath() async throws {
        try await withTemporaryDirectory { root in
            let path = root + "/state.sqlite"
            let garbage = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(garbage)))
            let error = #expect(throws: StoreError.self) { try OrchestratorStore(path: path, logger: quietLogger) }
            #expect(error?.code == .notADatabase)
            #expect(error?.description.contains(path) == true)
        }
    }

    @Test func unreadableDirectoryGivesCannotOpen() async throws {
        try await withTemporaryDirectory { root in
            let blocker = root + "/not-a-directory"
            #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
            let error = #expect(throws: StoreError.self) { try openStore(blocker + "/state") }
            #expect(error?.code == .cannotOpen)
            #expect(error?.description.contains(blocker) == true)
        }
    }

    @Test func corruptJSONInARowIsReportedNotCrashed() async throws {
        try await withTemporaryDirectory { root in
            let store = try openStore(root)
            try store.writeSync { try EarlierLayout.saveJournal($0, alice, kind: "wipe", step: "files", state: ["step": "files"]) }
            try await store.write { tx in try tx.db.execute(sql: "UPDATE journal SET state = '{broken'") }
            let error = #expect(throws: StoreError.self) { try store.readSync { try $0.openJournals() } }
            #expect(error?.code == .corruptRow)
            #expect(error?.message.contains("state") == true)
        }
    }
}
