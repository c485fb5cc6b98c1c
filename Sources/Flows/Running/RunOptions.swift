/// How `compliancectl run` reaches the servers a flow needs.
public struct RunOptions: Sendable {
    /// The mockauth executable (started per flow unless ``authority`` is given).
    public var mockauthPath: String
    /// The complianced executable (started per flow unless ``socket`` is given).
    public var compliancedPath: String
    /// A running issuer to use instead of starting mockauth (`https://host:port/tenant`).
    public var authority: String?
    /// Any OpenID Connect issuer instead (no mock, no admin API; `complianced --oidc-issuer`).
    public var oidcIssuer: String?
    /// The started daemon's `--client-id`, `--client-secret-file` and `--client-auth`.
    public var clientID: String?
    public var clientSecretFile: String?
    public var clientAuth: String?
    /// Its MAM service, when not at the authority's origin + `/mam/v1`.
    public var mamURL: String?
    /// A running daemon's control socket to use instead of starting complianced.
    public var socket: String?
    /// CA file the started daemon trusts for an https authority.
    public var caFile: String?
    /// Keep each flow's state directory (its path is printed) instead of removing it.
    public var keepState = false
    /// With ``authority``: reset the mock (`POST /_admin/reset`) before each flow.
    public var resetMock = true
    /// Tell each account's compliance story at the end of each flow (`compliancectl explain`).
    public var explain = false
    /// The started daemon's `--log-level`.
    public var daemonLogLevel = "warning"
    /// How long a daemon or mock may take to print its ready line.
    public var startTimeout: Duration = .seconds(60)

    public init(mockauthPath: String, compliancedPath: String) {
        self.mockauthPath = mockauthPath
        self.compliancedPath = compliancedPath
    }

    /// Flows may run at once only when each gets its own mock and daemon.
    public var flowsAreIndependent: Bool { authority == nil && oidcIssuer == nil && socket == nil }
}
