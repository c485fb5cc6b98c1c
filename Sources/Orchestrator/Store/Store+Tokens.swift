import ComplianceCore
import GRDB

/// A set of OAuth scopes, compared case-insensitively and regardless of order.
public struct ScopeSet: Sendable, Hashable, CustomStringConvertible {
    /// Lowercased, deduplicated, sorted.
    public let scopes: [String]

    public init(_ scopes: some Sequence<String>) {
        self.scopes = Array(Set(scopes.map { $0.lowercased() }.filter { !$0.isEmpty })).sorted()
    }

    /// The stored form: scopes joined by single spaces.
    var key: String { scopes.joined(separator: " ") }

    public var description: String { key }
}

/// Cached tokens of one account for one client and scope set.
///
/// The access token (with its expiry and id token) is per account + client + scope set;
/// the refresh token is per account + client and shared by every scope set.
/// ``description`` never shows a token.
public struct CachedTokens: Sendable, Hashable, CustomStringConvertible {
    public var account: AccountID
    public var clientID: String
    public var scopes: ScopeSet
    public var accessToken: String?
    /// When the access token expires; set whenever ``accessToken`` is.
    public var expiresAt: EpochMillis?
    public var idToken: String?
    public var refreshToken: String?

    public init(
        account: AccountID, clientID: String, scopes: ScopeSet,
        accessToken: String? = nil, expiresAt: EpochMillis? = nil, idToken: String? = nil, refreshToken: String? = nil
    ) {
        self.account = account
        self.clientID = clientID
        self.scopes = scopes
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    public var description: String {
        func redacted(_ token: String?) -> String { token.map { "<redacted \($0.utf8.count) bytes>" } ?? "nil" }
        return "CachedTokens(account: \(account.upn), client: \(clientID), scopes: [\(scopes)], "
            + "accessToken: \(redacted(accessToken)), expiresAt: \(expiresAt.map(String.init) ?? "nil"), "
            + "idToken: \(redacted(idToken)), refreshToken: \(redacted(refreshToken)))"
    }
}

extension StoreTransaction {
    /// Stores the access token (when present, with its expiry) for the account, client and
    /// scopes, and the refresh token (when present) for the account and client.
    /// The account must exist (``StoreError/Code/unknownAccount`` otherwise).
    public func saveTokens(_ tokens: CachedTokens) throws {
        let key = tokens.account.key
        if let accessToken = tokens.accessToken {
            guard let expiresAt = tokens.expiresAt else {
                throw StoreError(code: .database, path: path, account: key, message: "an access token needs an expiry time")
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO access_token (account, client_id, scopes, token, expires_ms, id_token, updated_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [key, tokens.clientID, tokens.scopes.key, accessToken, expiresAt, tokens.idToken, now])
        }
        if let refreshToken = tokens.refreshToken {
            try db.execute(
                sql: "INSERT OR REPLACE INTO refresh_token (account, client_id, token, updated_ms) VALUES (?, ?, ?, ?)",
                arguments: [key, tokens.clientID, refreshToken, now])
        }
    }

    /// The cached tokens for the account, client and scopes (the refresh token is the
    /// client's, whatever the scopes); nil when neither an access nor a refresh token is stored.
    public func tokens(for account: AccountID, clientID: String, scopes: ScopeSet) throws -> CachedTokens? {
        // Cached statements: the engine reads the cache on every token request.
        let access = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT token, expires_ms, id_token FROM access_token WHERE account = ? AND client_id = ? AND scopes = ?"),
            arguments: [account.key, clientID, scopes.key])
        let refresh = try String.fetchOne(
            db.cachedStatement(sql: "SELECT token FROM refresh_token WHERE account = ? AND client_id = ?"),
            arguments: [account.key, clientID])
        guard access != nil || refresh != nil else { return nil }
        let upn = try String.fetchOne(db.cachedStatement(sql: "SELECT upn FROM account WHERE key = ?"), arguments: [account.key])
        return CachedTokens(
            account: try AccountID(upn ?? account.upn), clientID: clientID, scopes: scopes,
            accessToken: try access?.decode(forColumn: "token"),
            expiresAt: try access?.decode(forColumn: "expires_ms"),
            idToken: try access.flatMap { try $0.decode(forColumn: "id_token") },
            refreshToken: refresh)
    }

    /// Drops the refresh token of the account for the client (the server rejected it).
    public func deleteRefreshToken(for account: AccountID, clientID: String) throws {
        try db.execute(sql: "DELETE FROM refresh_token WHERE account = ? AND client_id = ?", arguments: [account.key, clientID])
    }

    /// Drops the access tokens of the account for the client (a claims challenge, a policy change).
    public func deleteAccessTokens(for account: AccountID, clientID: String) throws {
        try db.execute(sql: "DELETE FROM access_token WHERE account = ? AND client_id = ?", arguments: [account.key, clientID])
    }

    /// Files tokens stored before the cache was keyed by issuer (a bare client id in the
    /// `client_id` column) under `partition` (the client id and authority they were issued
    /// for: the app's own at the time of the upgrade). Returns how many rows moved.
    @discardableResult
    public func adoptUnpartitionedTokens(_ partition: (String) -> String) throws -> Int {
        var moved = 0
        for table in ["access_token", "refresh_token"] {
            let clients = try String.fetchAll(db, sql: "SELECT DISTINCT client_id FROM \(table) WHERE instr(client_id, ' ') = 0")
            for client in clients {
                try db.execute(sql: "UPDATE \(table) SET client_id = ? WHERE client_id = ?", arguments: [partition(client), client])
                moved += db.changesCount
            }
        }
        return moved
    }

    /// Drops every token of the account, for every client.
    public func deleteTokens(for account: AccountID) throws {
        try db.execute(sql: "DELETE FROM access_token WHERE account = ?", arguments: [account.key])
        try db.execute(sql: "DELETE FROM refresh_token WHERE account = ?", arguments: [account.key])
    }
}

extension OrchestratorStore {
    /// See ``StoreTransaction/saveTokens(_:)``.
    public func saveTokens(_ tokens: CachedTokens) async throws {
        try await update(account: tokens.account) { try $0.saveTokens(tokens) }
    }

    /// See ``StoreTransaction/tokens(for:clientID:scopes:)``.
    public func tokens(for account: AccountID, clientID: String, scopes: ScopeSet) async throws -> CachedTokens? {
        try await fetch(account: account) { try $0.tokens(for: account, clientID: clientID, scopes: scopes) }
    }

    /// See ``StoreTransaction/deleteRefreshToken(for:clientID:)``.
    public func deleteRefreshToken(for account: AccountID, clientID: String) async throws {
        try await update(account: account) { try $0.deleteRefreshToken(for: account, clientID: clientID) }
    }

    /// See ``StoreTransaction/deleteAccessTokens(for:clientID:)``.
    public func deleteAccessTokens(for account: AccountID, clientID: String) async throws {
        try await update(account: account) { try $0.deleteAccessTokens(for: account, clientID: clientID) }
    }

    /// See ``StoreTransaction/deleteTokens(for:)``.
    public func deleteTokens(for account: AccountID) async throws {
        try await update(account: account) { try $0.deleteTokens(for: account) }
    }
}
