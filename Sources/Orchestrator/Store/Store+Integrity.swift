import GRDB

extension OrchestratorStore {
    /// What SQLite's own checks find wrong with the database: `PRAGMA integrity_check`
    /// (structure, indexes) and `PRAGMA foreign_key_check` (rows pointing at missing
    /// accounts). Empty when the store is sound.
    public func integrityProblems() throws -> [String] {
        do {
            return try pool.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                    "table \(row["table"] as String? ?? "?") row \(row["rowid"] as Int64? ?? -1) points at a missing \(row["parent"] as String? ?? "?") row"
                }
                return integrity + foreignKeys
            }
        } catch {
            throw StoreError.wrap(error, path: path)
        }
    }
}
