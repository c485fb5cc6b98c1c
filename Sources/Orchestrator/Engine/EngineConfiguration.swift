import ComplianceCore

/// What the engine needs to know about the app it acts for and the services it talks to.
public struct EngineConfiguration: Sendable {
    /// The app's client id at the issuer (`ADALClientId`); also the MAM service's app id.
    public var clientID: String
    /// The capabilities every token request declares (`["protapp"]` for an app with the SDK).
    public var capabilities: [String]
    /// Scopes a sign-in requests when the caller names none.
    public var defaultSignInScopes: [String]
    /// Scopes added to every grant (as MSAL does): `openid profile offline_access`.
    public var reservedScopes: [String]
    /// Runs on every selective wipe, when configured.
    public var wipeHook: WipeHook?
    /// Asked when a first policy restarts the app (`restartApplication`), when configured;
    /// without it the daemon restarts the app session at once.
    public var restartHook: RestartHook?
    /// Asked the SDK's questions about identities (`identitySwitchRequired`, `addIdentity`),
    /// when configured; without it the daemon, playing the app, answers Success.
    public var identityHook: IdentityHook?
    /// The profile's launch settings (`AutoEnrollOnLaunch`, `MAMPolicyRequired`, `MAMPolicyWarnAbsent`).
    public var launch: LaunchSettings
    /// The profile's `MultiIdentity` (the app sets its own identities; ``AppIdentities``).
    public var multiIdentity = false
    /// The profile's `TreatAllWebViewsAsUnmanaged` and `WebViewHandledURLSchemes`, for the web
    /// and clipboard decisions asked of the daemon.
    public var webViews = WebViewAppSettings()
    /// The port a browser sign-in's loopback redirect listens on; nil: an ephemeral port
    /// (RFC 8252 §7.3). Issuers that match redirect URIs exactly need a fixed one.
    public var redirectPort: Int?

    public init(
        clientID: String, capabilities: [String] = [ComplianceCore.protectionCapability],
        defaultSignInScopes: [String] = ["openid", "profile", "offline_access"],
        reservedScopes: [String] = ["openid", "profile", "offline_access"], wipeHook: WipeHook? = nil, launch: LaunchSettings = LaunchSettings(),
        restartHook: RestartHook? = nil
    ) {
        self.launch = launch
        self.clientID = clientID
        self.capabilities = capabilities
        self.defaultSignInScopes = defaultSignInScopes
        self.reservedScopes = reservedScopes
        self.wipeHook = wipeHook
        self.restartHook = restartHook
    }
}
