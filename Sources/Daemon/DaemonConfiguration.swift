import AppProfile
import ComplianceCore
import Foundation
import HTTPClient
import Logging
import Orchestrator

/// Everything `complianced` is started with.
public struct DaemonConfiguration: Sendable {
    /// The authority used when neither `--authority`, `--oidc-issuer` nor the profile's
    /// `ADALAuthority` names one (the SDK guide: the common Microsoft Entra authority, only
    /// supported for multi-tenant applications).
    public static let commonAuthority = "https://login.microsoftonline.com/common"

    public var stateDirectory: String
    public var app: AppSettings
    /// The issuer: an Entra-shaped authority (`--authority`, or the profile's `ADALAuthority`)
    /// or any OpenID Connect issuer (`--oidc-issuer`).
    public var issuer: IssuerConfiguration.Authority
    /// The issuer's URL as configured.
    public var authority: String { issuer.url }
    /// The client id at the issuer: `--client-id`, else the profile's `ADALClientId`.
    public var clientID: String
    /// How the client proves itself at the token endpoint (a confidential client's secret).
    public var clientAuthentication: IssuerConfiguration.ClientAuthentication
    /// The MAM service base URL; nil when there is none (an OpenID Connect issuer without
    /// `--mam-url`): then nothing is registered or remediated.
    public var mamURL: String?
    /// The MAM URL was derived from the authority (no `--mam-url`): an authority override
    /// (`aadAuthorityUriOverride`) then brings its own origin's MAM service too.
    public var mamURLFollowsAuthority = false
    public var signInScopes: [String]
    public var caFile: String?
    public var clock: EngineClock.Mode
    public var wipeHook: WipeHook?
    /// The app's `restartApplication`, asked when a first policy restarts the app.
    public var restartHook: RestartHook?
    /// The app's `identitySwitchRequired` and `addIdentity` answers (IdentityHook).
    public var identityHook: IdentityHook?
    public var httpTimeout: Duration
    public var testHooks: Bool
    /// How many of the newest events the store's log keeps (``OrchestratorStore/eventRetention``).
    public var eventRetention: Int
    /// The loopback redirect's port for browser sign-ins (`--redirect-port`); nil: ephemeral.
    public var redirectPort: Int?

    /// - Parameters:
    ///   - authority: an Entra-shaped authority `{host}/{tenant}` (overrides the profile's);
    ///     its MAM service defaults to the authority's origin + `/mam/v1`.
    ///   - oidcIssuer: any OpenID Connect issuer instead (discovery at
    ///     `{issuer}/.well-known/openid-configuration`); it has a MAM service only if `mamURL`
    ///     names one.
    public init(
        stateDirectory: String, app: AppSettings, authority: String? = nil, oidcIssuer: String? = nil, mamURL: String? = nil,
        clientID: String? = nil, clientAuthentication: IssuerConfiguration.ClientAuthentication = .none,
        signInScopes: [String] = ["openid", "profile", "offline_access"], caFile: String? = nil, clock: EngineClock.Mode = .real,
        wipeHook: WipeHook? = nil, httpTimeout: Duration = .seconds(10), testHooks: Bool = false,
        eventRetention: Int = OrchestratorStore.defaultEventRetention, restartHook: RestartHook? = nil
    ) throws {
        if let oidcIssuer {
            guard authority == nil else {
                throw AppSettingsError("give --authority (an Entra-shaped authority) or --oidc-issuer (any OpenID Connect issuer), not both")
            }
            if let problem = SettingsOverrides.authorityProblem(oidcIssuer, name: "the OpenID Connect issuer") { throw AppSettingsError(problem) }
            guard IssuerConfiguration.origin(of: oidcIssuer) != nil else { throw AppSettingsError("the OpenID Connect issuer \(oidcIssuer) is not an http(s) URL") }
            self.issuer = .oidc(oidcIssuer)
            self.mamURL = mamURL
        } else {
            // The guide: "If this value is absent, the common Microsoft Entra authority is used
            // (which is only supported for multi-tenant applications)."
            let authority = authority ?? app.authority ?? Self.commonAuthority
            if let problem = SettingsOverrides.authorityProblem(authority, name: "the authority") { throw AppSettingsError(problem) }
            guard let origin = IssuerConfiguration.origin(of: authority) else {
                throw AppSettingsError("the authority \(authority) is not an http(s) URL")
            }
            self.issuer = .entra(authority)
            self.mamURL = mamURL ?? origin + "/mam/v1"
            self.mamURLFollowsAuthority = mamURL == nil
        }
        if let mamURL = self.mamURL, IssuerConfiguration.origin(of: mamURL) == nil {
            throw AppSettingsError("the MAM service URL \(mamURL) is not an http(s) URL")
        }
        if let clientID, clientID.isEmpty { throw AppSettingsError("--client-id is empty") }
        self.stateDirectory = stateDirectory
        self.app = app
        self.clientID = clientID ?? app.clientID
        self.clientAuthentication = clientAuthentication
        self.signInScopes = signInScopes
        self.caFile = caFile
        self.clock = clock
        self.wipeHook = wipeHook
        self.restartHook = restartHook
        self.httpTimeout = httpTimeout
        self.testHooks = testHooks
        self.eventRetention = eventRetention
    }

    /// The control socket's path.
    public var socketPath: String { stateDirectory + "/control.sock" }
}

/// The daemon's parts, wired: the engine's (``EngineParts``: store, vault, clients, engine)
/// and the control routes.
public struct DaemonParts: Sendable {
    public let engineParts: EngineParts
    public var store: OrchestratorStore { engineParts.store }
    /// The issuer's client (the engine's), for the start-up check of its discovery document.
    public var issuer: IssuerClient { engineParts.issuer }
    public var engine: Engine { engineParts.engine }
    public let routes: ControlRoutes

    /// Opens the store and the vault and builds the engine (not started).
    ///
    /// - Parameter http: the client for outgoing requests; by default a new one with the
    ///   configuration's CA file and timeout. Many engines in one process (load runs) share one.
    /// - Parameter metrics: what the engine counts and times into (nothing by default).
    public init(_ configuration: DaemonConfiguration, logger: Logger, http: HTTPClient? = nil, metrics: EngineMetrics = EngineMetrics()) throws {
        engineParts = try EngineParts(
            stateDirectory: configuration.stateDirectory, configuration: configuration.engineConfiguration,
            issuer: IssuerConfiguration(
                authority: configuration.issuer, clientID: configuration.clientID, redirectURI: configuration.app.redirectURI,
                clientAuthentication: configuration.clientAuthentication),
            mamURL: configuration.mamURL, mamFollowsAuthority: configuration.mamURLFollowsAuthority, clock: configuration.clock,
            eventRetention: configuration.eventRetention, http: http ?? HTTPClient(configuration: Self.httpConfiguration(configuration)),
            logger: logger, metrics: metrics)
        routes = ControlRoutes(engine: engineParts.engine, testHooks: configuration.testHooks, logger: logger)
    }

    /// The HTTP client settings a daemon uses: its CA file, its timeout (connecting within at
    /// most 5 s), TLS always verified.
    public static func httpConfiguration(_ configuration: DaemonConfiguration) -> HTTPClientConfiguration {
        var http = HTTPClientConfiguration()
        http.caFile = configuration.caFile
        http.totalTimeout = configuration.httpTimeout
        http.connectTimeout = min(configuration.httpTimeout, .seconds(5))
        return http
    }
}

extension DaemonParts {
    /// Starts the engine and runs its service in-process (``EngineParts/startRunning()``).
    public func startRunning() async throws -> RunningEngine {
        try await engineParts.startRunning()
    }
}

extension DaemonConfiguration {
    /// What the engine is built with: the app's profile and the daemon's hooks and options.
    public var engineConfiguration: EngineConfiguration {
        var engine = EngineConfiguration(app: app, clientID: clientID, signInScopes: signInScopes)
        engine.wipeHook = wipeHook
        engine.restartHook = restartHook
        engine.identityHook = identityHook
        engine.redirectPort = redirectPort
        return engine
    }
}
