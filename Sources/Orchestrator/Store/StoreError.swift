import GRDB
import JSON

/// An error from the ``OrchestratorStore``: what went wrong, on which database file, and
/// for which account when one is concerned.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. Compare with the static constants (`error.code == .notADatabase`).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, Hashable {
            case cannotOpen = "cannot open"
            case notADatabase = "not a database"
            case newerSchema = "newer schema"
            case migrationFailed = "migration failed"
            case corruptRow = "corrupt row"
            case unknownAccount = "unknown account"
            case database = "database error"
        }

        fileprivate let base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// The file or its directory cannot be created, opened or given safe permissions.
        public static let cannotOpen = Code(.cannotOpen)
        /// The file exists but is not an SQLite database (garbage bytes, truncation, corruption).
        public static let notADatabase = Code(.notADatabase)
        /// The database was written by a newer version of this program (unknown migrations).
        public static let newerSchema = Code(.newerSchema)
        /// A schema migration failed; the database was left at its previous version.
        public static let migrationFailed = Code(.migrationFailed)
        /// A stored row could not be decoded (bad JSON blob, unexpected column type).
        public static let corruptRow = Code(.corruptRow)
        /// The account has no row in `account` (tokens, enrollments, policies and schedules need one).
        public static let unknownAccount = Code(.unknownAccount)
        /// Any other SQLite failure (busy, I/O error, disk full, constraint …).
        public static let database = Code(.database)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The database file concerned.
    public let path: String
    /// The account key concerned, when the operation was about one account.
    public let account: String?
    /// What happened, for a person to act on.
    public let message: String

    public init(code: Code, path: String, account: String? = nil, message: String) {
        self.code = code
        self.path = path
        self.account = account
        self.message = message
    }

    public var description: String {
        var text = "store error (\(code)) at \(path)"
        if let account { text += " for account \(account)" }
        return text + ": " + message
    }
}

extension StoreError {
    /// Maps any error thrown by GRDB, JSON decoding or our own code to a `StoreError`.
    static func wrap(_ error: any Error, path: String, account: String? = nil) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return StoreError(
                    code: .notADatabase, path: path, account: account,
                    message: "the file is not a usable SQLite database (\(error.message ?? "\(error.resultCode)")); move it aside to start with an empty state")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
                return StoreError(
                    code: .cannotOpen, path: path, account: account,
                    message: "cannot open the database file: \(error.message ?? "\(error.resultCode)")")
            default:
                if error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                    return StoreError(
                        code: .unknownAccount, path: path, account: account,
                        message: "no such account: upsert the account before saving its data")
                }
                return StoreError(
                    code: .database, path: path, account: account,
                    message: error.message ?? "\(error.resultCode)")
            }
        }
        if let error = error as? JSONParseError {
            return StoreError(code: .corruptRow, path: path, account: account, message: "stored JSON is invalid: \(error)")
        }
        if error is RowDecodingError {
            return StoreError(code: .corruptRow, path: path, account: account, message: "stored row has an unexpected shape: \(error)")
        }
        return StoreError(code: .database, path: path, account: account, message: "\(error)")
    }
}
