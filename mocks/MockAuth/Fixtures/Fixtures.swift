import JSON

/// The demo tenant a mock server starts from (and returns to on `POST /_admin/reset`).
///
/// Loaded from JSON (see `mocks/fixtures/contoso.json` and `mocks/README.md`).
public struct Fixtures: Sendable, Hashable {
    public var tenant: Tenant
    public var clients: [ClientApp]
    public var apis: [ProtectedAPI]
    public var users: [User] {
        didSet {
            userIndex = Self.index(users)
            objectIdIndex = Self.objectIdIndex(users)
        }
    }
    /// Lowercased UPN → position in `users`, so a lookup costs the same for 4 users or 10,000.
    var userIndex: [String: Int] = [:]
    /// Lowercased object id → position in `users`.
    var objectIdIndex: [String: Int] = [:]
    public var mamPolicy: MAMPolicy
    public var lifetimes: Lifetimes
    /// Smart lockout (`lockout {threshold, durationSeconds, deviceCodeGuesses}`).
    public var lockout = LockoutPolicy()
    /// The accounts the request's tenant path segment signs in (set by the issuer per request).
    public var accounts: AccountKinds = .all

    /// Which accounts a tenant path segment reaches, as at Entra's v2.0 endpoint: the tenant
    /// (GUID, domain) and `organizations` its work accounts, `consumers` (or the Microsoft-account
    /// tenant's GUID) personal Microsoft accounts, `common` both.
    public enum AccountKinds: Sendable, Hashable {
        case all, work, personal
    }

    /// The tenant of personal Microsoft accounts (`tid` of their tokens).
    public static let microsoftAccountTenantId = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// The directory the mock plays.
    public struct Tenant: Sendable, Hashable {
        /// The tenant GUID (`tid`).
        public var id: String
        /// The verified domain, e.g. `contoso.com`.
        public var domain: String
        public var displayName: String
    }

    /// An application registration.
    public struct ClientApp: Sendable, Hashable {
        public var clientId: String
        public var displayName: String
        /// Public clients (mobile/desktop) have no secret; confidential ones authenticate with `secret`.
        public var isPublic: Bool
        public var redirectURIs: [String]
        /// Redirect URIs of the single-page-application platform: their codes are redeemed by
        /// cross-origin requests (with `Origin`), which only such a client may send.
        public var spaRedirectURIs: [String] = []
        public var secret: String?
        /// Certificates whose keys sign the client's assertions (`client_assertion`), a
        /// confidential client's other credential.
        public var certificates: [ClientCertificate] = []
        /// The service principal's object id, `oid` of app-only tokens.
        public var objectId: String

        /// True when the registration has the single-page-application platform.
        public var isSPA: Bool { !spaRedirectURIs.isEmpty }
        /// Every redirect URI, of both platforms.
        public var allRedirectURIs: [String] { redirectURIs + spaRedirectURIs }
    }

    /// A resource tokens are issued for, with its delegated scopes.
    public struct ProtectedAPI: Sendable, Hashable {
        /// The application ID URI, used as the access token's `aud`.
        public var resource: String
        public var scopes: [String]
        /// The MAM service resource is never behind the app-protection CA policy.
        public var isMAMService: Bool
        /// Scopes of `scopes` nobody consented to: a request may name them, but the issuer
        /// leaves them out of what it grants (its `scope` answer), as an issuer that grants a
        /// subset does. A request left with none of its resource's scopes is refused.
        public var declinedScopes: [String] = []
        /// Scopes of `scopes` that each user consents to for each app at an interactive
        /// sign-in (Entra's dynamic consent): until then, a grant that names one is
        /// `invalid_grant` AADSTS65001 `consent_required`; `.default` does not cover them.
        public var consentRequiredScopes: [String] = []
        /// The API's application (client) ID: v2.0 access tokens carry it as `aud`, as Entra's
        /// do; requests may name the API by it or by `resource` (its App ID URI). When absent,
        /// `aud` is `resource`.
        public var appId: String? = nil

        /// Optional claims the API's registration asks for in its access tokens
        /// (`optionalClaims`; Entra's manifest `optionalClaims.accessToken`). v2.0 access tokens
        /// carry `upn` only when it is asked for here.
        public var optionalClaims: [String] = []

        /// The optional access-token claims a fixture may ask for.
        public static let knownOptionalClaims = ["upn"]

        /// The access token's `aud` for this API.
        public var audience: String { appId ?? resource }
    }

    /// A directory user; `upn` compares case-insensitively.
    public struct User: Sendable, Hashable {
        public var upn: String
        public var objectId: String
        public var displayName: String
        public var password: String
        /// Targeted by the app-protection conditional-access policy.
        public var caTargeted: Bool
        /// The MAM (app protection) policy is assigned to the user.
        public var mamPolicyAssigned: Bool
        /// Holds an Intune license; unlicensed users enroll with 200 AccountNotLicensed.
        public var licensed: Bool
        /// Needs multi-factor authentication: the password grant gets AADSTS50076 (the
        /// interactive sign-in satisfies it, as a person would with a second factor).
        public var mfaRequired: Bool = false
        /// A disabled account signs in nowhere (AADSTS50057).
        public var accountEnabled: Bool = true
        /// A personal Microsoft account (`microsoftAccount` in the fixture): signs in at
        /// `/consumers` and `/common`, its tokens' `tid` is the Microsoft-account tenant.
        public var isMicrosoftAccount: Bool = false
    }

    /// Token and code lifetimes, in seconds.
    public struct Lifetimes: Sendable, Hashable {
        public var accessToken: Int
        public var authorizationCode: Int
        public var refreshToken: Int
        public var deviceCode: Int
        /// The device-code `interval` (default 5, Entra's): a client polling sooner than this
        /// after its previous poll gets `slow_down`, and the code's interval grows by 5 s.
        public var deviceCodeInterval: Int = 5
        /// When true, each access token lives a random 3600–5400 s (Entra's 60–90 minutes)
        /// instead of `accessToken`; off by default, for determinism.
        public var randomizeAccessToken = false

        /// The lifetime of the next access token.
        public func nextAccessTokenLifetime() -> Int {
            randomizeAccessToken ? Int.random(in: 3600...5400) : accessToken
        }
    }

    /// The user with this UPN, compared case-insensitively, when the request's segment reaches them.
    public func user(upn: String) -> User? {
        userIndex[upn.lowercased()].map { users[$0] }.flatMap { reaches($0) ? $0 : nil }
    }

    /// The user with this object id (`oid`), when the request's segment reaches them.
    public func user(objectId: String) -> User? {
        objectIdIndex[objectId.lowercased()].map { users[$0] }.flatMap { reaches($0) ? $0 : nil }
    }

    /// True when the request's tenant segment signs `user` in (``AccountKinds``).
    func reaches(_ user: User) -> Bool {
        switch accounts {
        case .all: true
        case .work: !user.isMicrosoftAccount
        case .personal: user.isMicrosoftAccount
        }
    }

    /// The `tid` of `user`'s tokens: the tenant, or the Microsoft-account tenant.
    public func tenantId(of user: User) -> String {
        user.isMicrosoftAccount ? Self.microsoftAccountTenantId : tenant.id
    }

    /// Builds the UPN index (the first user wins, as a search from the front would).
    static func index(_ users: [User]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, user) in users.enumerated() where index[user.upn.lowercased()] == nil {
            index[user.upn.lowercased()] = position
        }
        return index
    }

    /// Builds the object-id index (the first user wins).
    static func objectIdIndex(_ users: [User]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, user) in users.enumerated() where index[user.objectId] == nil { index[user.objectId] = position }
        return index
    }

    /// The registered app with this client id (case-sensitive, as Entra compares GUIDs).
    public func client(id: String) -> ClientApp? {
        clients.first { $0.clientId == id }
    }

    /// True when the tenant path segment names this tenant: GUID, domain, `organizations`,
    /// `common`, or (`consumers`, the Microsoft-account tenant's GUID) its personal accounts.
    public func acceptsTenantSegment(_ segment: String) -> Bool {
        accounts(forSegment: segment) != nil
    }

    /// The accounts `segment` signs in; `nil` when it names no tenant of this directory.
    public func accounts(forSegment segment: String) -> AccountKinds? {
        switch segment.lowercased() {
        case tenant.id.lowercased(), tenant.domain.lowercased(), "organizations": .work
        case "common": .all
        case "consumers", Self.microsoftAccountTenantId: .personal
        default: nil
        }
    }
}
