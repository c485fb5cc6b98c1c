import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Logging

/// The mock Entra ID v2.0 token issuer: shared pieces of its endpoints.
///
/// Holds the run-time ``MockState``, the signing key and the scheme the server listens
/// with (`http` or `https`) so URLs in discovery documents and `iss` match what clients use.
public struct Issuer: Sendable {
    public let state: MockState
    /// The key that signs new tokens: the key ring's current one.
    public var key: SigningKey { state.keyRing.current }
    /// `http` or `https`.
    public let scheme: String
    /// Where the server listens: the authority of URLs for a request that names none.
    public let listening: ListeningAuthority
    /// The URL clients reach the server by (`--public-url`): every URL in answers and `iss`.
    public let publicURL: String?
    let logger: Logger

    public init(
        state: MockState, key: SigningKey, scheme: String, listening: ListeningAuthority = ListeningAuthority(),
        publicURL: String? = nil, logger: Logger
    ) {
        self.state = state
        state.keyRing.install(key)
        self.scheme = scheme
        self.listening = listening
        self.publicURL = publicURL
        self.logger = logger
    }

    /// The base of every URL in answers (and of `iss`): the public URL when one was given;
    /// else `scheme://host[:port]` as the client addressed the server (its `Host`) when that
    /// names this server (a loopback name or the bound host, on the bound port); else where
    /// the server listens. An arbitrary `Host` (`evil.example`) never reaches `iss`.
    func baseURL(_ head: HTTPRequest) -> String {
        if let publicURL { return publicURL }
        let listening = listening.authority
        guard let authority = head.authority, !authority.isEmpty, Self.namesThisServer(authority, listening: listening) else {
            return "\(scheme)://\(listening)"
        }
        return "\(scheme)://\(authority)"
    }

    /// True when `authority` (a `Host`) names this server: a loopback name or the bound host on
    /// the bound port, or the public URL's authority.
    func namesThisServer(_ authority: String) -> Bool {
        if let publicURL, let start = publicURL.range(of: "://") {
            let own = publicURL[start.upperBound...].prefix { $0 != "/" }.lowercased()
            if own == authority.lowercased() { return true }
        }
        return Self.namesThisServer(authority, listening: listening.authority)
    }

    /// True when `authority` (a `Host`) is a loopback name or the bound host, with the bound port.
    static func namesThisServer(_ authority: String, listening: String) -> Bool {
        let (host, port) = split(authority.lowercased())
        let (boundHost, boundPort) = split(listening.lowercased())
        return port == boundPort && (["localhost", "127.0.0.1", "[::1]"].contains(host) || host == boundHost)
    }

    /// `host[:port]` → (host, port); IPv6 literals keep their brackets.
    private static func split(_ authority: String) -> (host: Substring, port: Substring?) {
        let hostEnd = authority.hasPrefix("[") ? (authority.firstIndex(of: "]").map { authority.index(after: $0) } ?? authority.endIndex)
            : (authority.firstIndex(of: ":") ?? authority.endIndex)
        let host = authority[..<hostEnd]
        let rest = authority[hostEnd...]
        return (host, rest.first == ":" ? rest.dropFirst() : nil)
    }

    /// The issuer URL for the tenant, as in `iss`: `{base}/{tid}/v2.0`.
    func issuerURL(base: String, tenantId: String) -> String {
        "\(base)/\(tenantId)/v2.0"
    }

    /// The directory if `segment` names its tenant; otherwise AADSTS90002.
    /// The directory's ``Fixtures/accounts`` are those the segment signs in.
    func directory(forTenant segment: String) throws(OAuthError) -> Fixtures {
        var directory = state.directory
        guard let accounts = directory.accounts(forSegment: segment) else { throw .unknownTenant(segment) }
        directory.accounts = accounts
        return directory
    }

    /// The registered client with `id`; otherwise AADSTS700016.
    func client(_ id: String?, in directory: Fixtures) throws(OAuthError) -> Fixtures.ClientApp {
        guard let id, !id.isEmpty else { throw .missingParameter("client_id") }
        guard let client = directory.client(id: id) else {
            throw .unknownClient(id, tenant: directory.tenant.id)
        }
        return client
    }

    /// Capabilities declared by a `claims` parameter: `access_token.xms_cc.values`.
    ///
    /// A `claims` value that is not a JSON object is refused (AADSTS90014-like invalid_request).
    static func capabilities(fromClaims claims: String?) throws(OAuthError) -> [String] {
        guard let claims, !claims.isEmpty else { return [] }
        guard let value = try? JSONValue.parse(claims, limits: JSONLimits(maxBytes: 16 * 1024, maxDepth: 16)),
            value.objectValue != nil
        else {
            throw .invalidRequest(code: 90014, "The 'claims' parameter is not a valid JSON object.")
        }
        let values = value["access_token"]?["xms_cc"]?["values"]?.arrayValue ?? []
        return values.compactMap(\.stringValue)
    }

    /// Checks a password the way Entra's ROPC and sign-in page do.
    func authenticate(login: String, password: String, in directory: Fixtures) throws(OAuthError) -> Fixtures.User {
        guard let user = directory.user(upn: login) else {
            throw .invalidGrant(
                code: 50034,
                "The user account {EUII Hidden} does not exist in the '\(directory.accounts == .personal ? Fixtures.microsoftAccountTenantId : directory.tenant.id)' directory. To sign into this application, the account must be added to the directory.")
        }
        let key = user.upn.lowercased()
        if state.isLockedOut(key) {
            throw .invalidGrant(code: 50053, "The account is locked, you've tried to sign in too many times with an incorrect user ID or password.")
        }
        guard user.password == password else {
            // Only a digest of the wrong password is kept (in memory), to count distinct ones.
            state.recordFailure(key, limit: directory.lockout.threshold, attempt: Array(SHA256.hash(data: Array("\(key)\u{0}\(password)".utf8))))
            throw .invalidGrant(code: 50126, "Error validating credentials due to invalid username or password.")
        }
        state.clearFailures(key)
        try Self.checkEnabled(user)
        return user
    }

    /// A disabled account's sign-ins and refreshes end here (AADSTS50057).
    static func checkEnabled(_ user: Fixtures.User) throws(OAuthError) {
        guard user.accountEnabled else {
            throw .invalidGrant(code: 50057, "The user account is disabled. The account has been disabled by an administrator.")
        }
    }
}
