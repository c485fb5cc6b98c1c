import ComplianceCore
import GRDB
import JSON

/// Whom a policy applies to: one account, or every account of an app.
public enum PolicyScope: Sendable, Hashable {
    case account(AccountID)
    /// An app, by its client id or bundle id.
    case app(String)

    var kind: String {
        switch self {
        case .account: "account"
        case .app: "app"
        }
    }

    var key: String {
        switch self {
        case .account(let id): id.key
        case .app(let app): app
        }
    }
}

/// A protection policy as last received.
public struct PolicyRecord: Sendable, Hashable {
    public var scope: PolicyScope
    public var version: String
    /// The policy document, opaque to the store.
    public var policy: JSONValue
    /// UPNs allowed to sign in; nil means any account.
    public var allowedAccounts: [String]?
    public var updatedAt: EpochMillis
}

extension StoreTransaction {
    /// Inserts or replaces the policy of `scope`. An account scope needs an existing account.
    @discardableResult
    public func savePolicy(_ scope: PolicyScope, version: String, policy: JSONValue, allowedAccounts: [String]?) throws -> PolicyRecord {
        var account: String?
        if case .account(let id) = scope { account = id.key }
        let allowed = allowedAccounts.map { JSONValue.array($0.map(JSONValue.string)).encodedString() }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO policy (scope_kind, scope_key, account, version, policy, allowed_accounts, updated_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [scope.kind, scope.key, account, version, policy.encodedString(), allowed, now])
        guard let record = try self.policy(for: scope) else {
            throw StoreError(code: .database, path: path, account: account, message: "policy vanished after save")
        }
        return record
    }

    /// The policy of `scope`, or nil.
    public func policy(for scope: PolicyScope) throws -> PolicyRecord? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT p.*, a.upn FROM policy p LEFT JOIN account a ON a.key = p.account
                WHERE p.scope_kind = ? AND p.scope_key = ?
                """,
            arguments: [scope.kind, scope.key])
        else { return nil }
        var account: String?
        var storedScope = scope
        if case .account = scope {
            let key: String = try row.decode(forColumn: "account")
            storedScope = .account(try AccountID(try row.decode(forColumn: "upn")))
            account = key
        }
        var allowedAccounts: [String]?
        if let allowed = try optionalJSON(row, "allowed_accounts", account: account) {
            guard let strings = allowed.arrayValue?.compactMap(\.stringValue), strings.count == allowed.arrayValue?.count else {
                throw StoreError(code: .corruptRow, path: path, account: account, message: "allowed_accounts is not an array of strings")
            }
            allowedAccounts = strings
        }
        return PolicyRecord(
            scope: storedScope, version: try row.decode(forColumn: "version"),
            policy: try json(row, "policy", account: account),
            allowedAccounts: allowedAccounts, updatedAt: try row.decode(forColumn: "updated_ms"))
    }

    /// Removes the policy of `scope`; returns whether there was one.
    @discardableResult
    public func deletePolicy(for scope: PolicyScope) throws -> Bool {
        try db.execute(sql: "DELETE FROM policy WHERE scope_kind = ? AND scope_key = ?", arguments: [scope.kind, scope.key])
        return db.changesCount > 0
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/savePolicy(_:version:policy:allowedAccounts:)``.
    @discardableResult
    public func savePolicy(_ scope: PolicyScope, version: String, policy: JSONValue, allowedAccounts: [String]?) async throws -> PolicyRecord {
        try await update(account: scope.accountID) { try $0.savePolicy(scope, version: version, policy: policy, allowedAccounts: allowedAccounts) }
    }

    /// The policy of `scope`, or nil.
    public func policy(for scope: PolicyScope) async throws -> PolicyRecord? {
        try await fetch(account: scope.accountID) { try $0.policy(for: scope) }
    }

    /// Removes the policy of `scope`.
    @discardableResult
    public func deletePolicy(for scope: PolicyScope) async throws -> Bool {
        try await update(account: scope.accountID) { try $0.deletePolicy(for: scope) }
    }
}

extension PolicyScope {
    var accountID: AccountID? {
        if case .account(let id) = self { return id }
        return nil
    }
}
