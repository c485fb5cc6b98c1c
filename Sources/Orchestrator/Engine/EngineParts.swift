import HTTPClient
import Logging

/// An engine wired to its store, its vault and its clients, not started: what the daemon, a
/// load run, a benchmark or a test builds before it serves (the daemon adds its control
/// routes: `DaemonParts`).
public struct EngineParts: Sendable {
    public let store: OrchestratorStore
    /// The issuer's client (the engine's), for the start-up check of its discovery document.
    public let issuer: IssuerClient
    public let engine: Engine

    /// Opens the store and the vault in `stateDirectory` and builds the engine (not started).
    ///
    /// - Parameters:
    ///   - mamURL: the MAM service's base URL; nil when there is none.
    ///   - mamFollowsAuthority: an authority override brings its own origin's MAM service.
    ///   - clock: the engine's clock; a virtual one starts at the real time and
    ///     ``Engine/start()`` moves it to the stored time.
    ///   - http: the client for every outgoing request.
    ///   - metrics: what the engine counts and times into (nothing by default).
    public init(
        stateDirectory: String, configuration: EngineConfiguration, issuer issuerConfiguration: IssuerConfiguration, mamURL: String?,
        mamFollowsAuthority: Bool, clock mode: EngineClock.Mode, eventRetention: Int, http: HTTPClient, logger: Logger,
        metrics: EngineMetrics = EngineMetrics()
    ) throws {
        let clock = EngineClock(mode: mode)
        let store = try OrchestratorStore(stateDirectory: stateDirectory, clock: { clock.milliseconds }, eventRetention: eventRetention, logger: logger)
        let vault = try Vault(root: stateDirectory + "/vault", clock: { clock.milliseconds }, logger: logger)
        let issuer = IssuerClient(configuration: issuerConfiguration, http: http, logger: logger)
        let mam = mamURL.map { MAMClient(baseURL: $0, http: http, logger: logger) }
        self.engine = Engine(
            configuration: configuration, store: store, vault: vault, issuer: issuer, mam: mam, mamFollowsAuthority: mamFollowsAuthority,
            browserHTTP: http, clock: clock, logger: logger, metrics: metrics)
        self.store = store
        self.issuer = issuer
    }

    /// Starts the engine (resuming interrupted work) and runs its service until
    /// ``RunningEngine/stop()``: for in-process use (tests, load runs, benchmarks), where no
    /// `ServiceGroup` runs it. The daemon runs the engine in its service group instead.
    public func startRunning() async throws -> RunningEngine {
        try await engine.start()
        return RunningEngine(engine)
    }
}

/// An engine's service running in a task of its own (``EngineParts/startRunning()``).
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
