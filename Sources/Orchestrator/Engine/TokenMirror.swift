import ComplianceCore

/// The engine's memory of its token cache, so that a cache hit reads no SQLite row.
///
/// The store stays the truth: the mirror is filled from it on first read and changed only
/// where the engine itself changes the store, after the change committed (tokens saved with a
/// step, a refresh token dropped, an account's tokens wiped). The engine is the store's only
/// writer while it runs; anything else (a storage failure, a reload) clears the mirror, and
/// it fills again from the store.
struct TokenMirror: Sendable {
    private struct Key: Hashable {
        var account: String
        /// The token store's partition (client id and authority, ``IssuerSelection/partition(_:)``).
        var partition: String
        var scopes: ScopeSet
    }

    private struct RefreshKey: Hashable {
        var account: String
        var partition: String
    }

    /// What the store holds for one (account, scopes): the access token, if any (the stored
    /// columns only: token, id token, expiry).
    private var access: [Key: Stored?] = [:]

    private struct Stored: Sendable {
        var accessToken: SecretToken
        var idToken: SecretToken?
        var expiresOn: Instant

        init(_ tokens: TokenSet) {
            accessToken = tokens.accessToken
            idToken = tokens.idToken
            expiresOn = tokens.expiresOn
        }

        /// As ``Engine/cacheEntry(_:scopes:)`` builds it from a row: with the request's scopes.
        func tokens(scopes: [String]) -> TokenSet {
            TokenSet(accessToken: accessToken, idToken: idToken, expiresOn: expiresOn, scopes: scopes)
        }
    }
    /// The account's refresh token as the store holds it (`.some(nil)`: none; absent: not
    /// read yet). A refresh grant carries it (``TokenAcquisitionStateMachine/Grant``).
    private var refresh: [RefreshKey: SecretToken?] = [:]
    /// Bounds the memory: beyond this many entries the mirror starts again empty.
    static let capacity = 50_000

    /// The cache entry for `account` and `scopes` when both halves are known.
    func entry(_ account: AccountID, partition: String, scopes: [String]) -> TokenAcquisitionStateMachine.CacheEntry? {
        guard let refreshToken = refresh[RefreshKey(account: account.key, partition: partition)],
              let stored = access[Key(account: account.key, partition: partition, scopes: ScopeSet(scopes))]
        else { return nil }
        return .init(accessToken: stored?.tokens(scopes: scopes), refreshToken: refreshToken)
    }

    /// Remembers what the store answered.
    mutating func remember(_ account: AccountID, partition: String, scopes: ScopeSet, _ entry: TokenAcquisitionStateMachine.CacheEntry) {
        if access.count >= Self.capacity { clear() }
        access[Key(account: account.key, partition: partition, scopes: scopes)] = .some(entry.accessToken.map(Stored.init))
        refresh[RefreshKey(account: account.key, partition: partition)] = .some(entry.refreshToken)
    }

    /// A commit saved tokens: the access token for `scopes` (when there is one) and the
    /// refresh token (when there is one); what it did not write stays as it was.
    mutating func saved(_ account: AccountID, partition: String, scopes: ScopeSet, accessToken: TokenSet?, refreshToken: SecretToken?) {
        if let accessToken { access[Key(account: account.key, partition: partition, scopes: scopes)] = .some(Stored(accessToken)) }
        if let refreshToken { refresh[RefreshKey(account: account.key, partition: partition)] = .some(refreshToken) }
    }

    /// The account's refresh token of `partition` was dropped.
    mutating func refreshTokenRemoved(_ account: AccountID, partition: String) {
        refresh[RefreshKey(account: account.key, partition: partition)] = .some(nil)
    }

    /// Every token of the account was removed (a wipe).
    mutating func tokensRemoved(_ account: AccountID) {
        access = access.filter { $0.key.account != account.key }
        refresh = refresh.filter { $0.key.account != account.key }
    }

    /// Forgets everything; the next reads go to the store.
    mutating func clear() {
        access = [:]
        refresh = [:]
    }
}
