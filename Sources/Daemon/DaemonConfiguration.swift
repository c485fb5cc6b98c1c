import ComplianceCore
import Foundation
import HTTPClient
import Logging
import Orchestrator

/// Everything `complianced` is started with.
public struct DaemonConfiguration: Sendable {
    public var stateDirectory: String
    public var app: AppSettings
    /// The issuer authority (Entra shape `{host}/{tenant}`); overrides the profile's.
    public var authority: String
    /// The MAM service base URL.
    public var mamURL: String
    public var signInScopes: [String]
    public var caFile: String?
    public var clock: EngineClock.Mode
    public var wipeHook: WipeHook?
    public var httpTimeout: Duration
    public var testHooks: Bool
    /// How many of the newest events the store's log keeps (``OrchestratorStore/eventRetention``).
    public var eventRetention: Int

    public init(
        stateDirectory: String, app: AppSettings, authority: String? = nil, mamURL: String? = nil,
        signInScopes: [String] = ["openid", "profile", "offline_access"], caFile: String? = nil, clock: EngineClock.Mode = .real,
        wipeHook: WipeHook? = nil, httpTimeout: Duration = .seconds(10), testHooks: Bool = false,
        eventRetention: Int = OrchestratorStore.defaultEventRetention
    ) throws {
        guard let authority = authority ?? app.authority else {
            throw AppSettingsError("no authority: give --authority or set IntuneMAMSettings.ADALAuthority")
        }
        guard let origin = Self.origin(of: authority) else {
            throw AppSettingsError("the authority \(authority) is not an http(s) URL")
        }
        self.stateDirectory = stateDirectory
        self.app = app
        self.authority = authority
        self.mamURL = mamURL ?? origin + "/mam/v1"
        self.signInScopes = signInScopes
        self.caFile = caFile
        self.clock = clock
        self.wipeHook = wipeHook
        self.httpTimeout = httpTimeout
        self.testHooks = testHooks
        self.eventRetention = eventRetention
    }

    /// `scheme://host[:port]` of an http(s) URL.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
    }

    /// The control socket's path.
    public var socketPath: String { stateDirectory + "/control.sock" }
}

/// The daemon's parts, wired: store, vault, clients, engine, control routes.
public struct DaemonParts: Sendable {
    public let store: OrchestratorStore
    public let engine: Engine
    public let routes: ControlRoutes

    /// Opens the store and the vault and builds the engine (not started).
    ///
    /// - Parameter http: the client for outgoing requests; by default a new one with the
    ///   configuration's CA file and timeout. Many engines in one process (load runs) share one.
    public init(_ configuration: DaemonConfiguration, logger: Logger, http: HTTPClient? = nil) throws {
        let client = http ?? HTTPClient(configuration: Self.httpConfiguration(configuration))
        // The virtual clock starts at the real time; Engine.start() moves it to the stored time.
        let clock = EngineClock(mode: configuration.clock)
        let store = try OrchestratorStore(
            stateDirectory: configuration.stateDirectory, clock: { clock.milliseconds }, eventRetention: configuration.eventRetention,
            logger: logger)
        let vault = try Vault(root: configuration.stateDirectory + "/vault", clock: { clock.milliseconds }, logger: logger)
        let issuer = IssuerClient(
            configuration: IssuerConfiguration(
                authority: .entra(configuration.authority), clientID: configuration.app.clientID, redirectURI: configuration.app.redirectURI),
            http: client, logger: logger)
        let mam = MAMClient(baseURL: configuration.mamURL, http: client, logger: logger)
        let engine = Engine(
            configuration: EngineConfiguration(
                clientID: configuration.app.clientID, capabilities: configuration.app.capabilities,
                defaultSignInScopes: configuration.signInScopes, wipeHook: configuration.wipeHook),
            store: store, vault: vault, issuer: issuer, mam: mam, browserHTTP: client, clock: clock, logger: logger)
        self.store = store
        self.engine = engine
        self.routes = ControlRoutes(engine: engine, testHooks: configuration.testHooks, logger: logger)
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
    /// Starts the engine (resuming interrupted work) and runs its service until
    /// ``RunningEngine/stop()``: for in-process use (tests, load runs, benchmarks), where no
    /// `ServiceGroup` runs it. The daemon runs the engine in its service group instead.
    public func startRunning() async throws -> RunningEngine {
        try await engine.start()
        return RunningEngine(engine)
    }
}

/// An engine's service running in a task of its own (``DaemonParts/startRunning()``).
public final class RunningEngine: Sendable {
    private let task: Task<Void, Never>

    init(_ engine: Engine) {
        // In-process only: the daemon runs the engine as a Service of its ServiceGroup.
        task = Task { try? await engine.run() }
    }

    /// Stops the service and waits for the I/O it runs to end.
    public func stop() async {
        task.cancel()
        await task.value
    }
}
