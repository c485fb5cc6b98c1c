import ComplianceCore
import Synchronization
import HTTPClient
import JSON
import Logging
import ServiceLifecycle

/// Runs ComplianceCore's composed ``ComplianceMachine`` for one app against a token issuer,
/// a MAM service, a SQLite store and a vault: it only executes the machine's actions and
/// commits its changes (postgres-nio's `PostgresChannelHandler.run(action)`), never decides.
///
/// A command (``signIn(_:scopes:silent:user:)``, …) is one machine event with a ticket; the
/// engine takes the machine's actions until there are none through the one driver the
/// explorer runs too (ComplianceCore's `ComplianceHost.drain()`, performed by ``EngineHost``):
/// a `.persist` is committed at once (one transaction, on the actor, before any of the step's
/// commands), store reads and refresh-token removals are answered at once, and other I/O
/// (HTTP, a wipe's tokens and vault files, the hooks) becomes a job that ``run()`` (the engine
/// as a `Service`) runs concurrently, feeding each result back as the next event. The
/// ticket's reply resumes the caller.
///
/// Start with ``start()`` (rebuild the machine from the store, resume interrupted work), then
/// run the service (``run()`` in the daemon's `ServiceGroup`, or ``withRunning(_:)`` in
/// process); commands wait for their I/O, which only the running service performs.
public actor Engine: Service {
    let store: OrchestratorStore
    let vault: Vault
    /// The issuer client in force: the profile's, or one built from the runtime overrides.
    public nonisolated var issuer: IssuerClient { issuers.current }
    let issuers: IssuerSelection
    /// The MAM service's client; nil when none is configured (``ComplianceMachine/Configuration/mamService``).
    let mam: MAMClient?
    /// The MAM URL was derived from the authority: a call with a token of an overriding
    /// authority goes to that authority's origin's MAM service (``mamClient(for:)``).
    let mamFollowsAuthority: Bool
    /// Plays the browser for interactive sign-ins; must not follow redirects.
    let browserHTTP: HTTPClient
    /// Sign-ins a person completes in a browser or on another device (the control API's
    /// `/v1/interactions`).
    public nonisolated let interactions = InteractionSessions()
    let configuration: EngineConfiguration
    /// The engine's time: real, or virtual (moved by ``advanceClock(seconds:)``).
    public nonisolated let clock: EngineClock
    let logger: Logger
    /// What the engine counts and times (``EngineMetrics``).
    let metrics: EngineMetrics

    var machine: ComplianceMachine
    /// The token cache as the store holds it, so a cache hit reads no row (``TokenMirror``).
    var tokenMirror = TokenMirror()
    /// Callers waiting for their ticket's reply, and who answers their sign-in pages.
    var callers = Callers()
    /// Where ``start()`` stands.
    var phase = Phase.created
    /// The virtual clock's time as last committed.
    var savedClock: EpochMillis?
    /// The real clock's next wake-up.
    var wake = WakeSchedule()
    /// Test hooks: an armed crash point, commits per point, storage faults.
    var testHooks = TestHooks()
    /// I/O for ``run()`` to perform.
    let jobs: AsyncStream<Job>
    let jobSink: AsyncStream<Job>.Continuation
    /// Set when the service stops: a wake-up waiting for a far timer ends then instead of
    /// holding the stop until the timer is due (a check-in is hours away).
    nonisolated let stopping = Mutex(false)
    /// Set first thing on a stop (``endClockAdvances()``): a clock advance fires no further
    /// timer, so a years-long advance does not hold the stop for minutes.
    nonisolated let clockAdvancesEnded = Mutex(false)

    public init(
        configuration: EngineConfiguration, store: OrchestratorStore, vault: Vault, issuer: IssuerClient, mam: MAMClient?,
        mamFollowsAuthority: Bool = false, browserHTTP: HTTPClient, clock: EngineClock, logger: Logger, metrics: EngineMetrics = EngineMetrics()
    ) {
        self.configuration = configuration
        self.store = store
        self.vault = vault
        self.issuers = IssuerSelection(base: issuer)
        self.mam = mam
        self.mamFollowsAuthority = mamFollowsAuthority
        self.browserHTTP = browserHTTP
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.machine = ComplianceMachine(configuration: Self.machineConfiguration(configuration, mamService: mam != nil))
        (jobs, jobSink) = AsyncStream.makeStream(of: Job.self)
    }

    static func machineConfiguration(_ configuration: EngineConfiguration, mamService: Bool) -> ComplianceMachine.Configuration {
        var machine = ComplianceMachine.Configuration(
            capabilities: configuration.capabilities, signInScopes: configuration.defaultSignInScopes, hasWipeHook: configuration.wipeHook != nil,
            hasRestartHook: configuration.restartHook != nil, mamService: mamService, launch: configuration.launch,
            multiIdentity: configuration.multiIdentity)
        machine.hasIdentityHook = configuration.identityHook != nil
        return machine
    }

    /// The app's client id.
    public nonisolated var clientID: String { configuration.clientID }

    /// The key the token store files `environment`'s tokens under (its client id and
    /// authority): for tools that read or change the store beside the engine.
    public nonisolated func tokenPartition(_ environment: TokenEnvironment = .app) -> String {
        issuers.partition(environment)
    }

    /// Rebuilds the machine from the store and resumes interrupted work (journaled wipes,
    /// enrollments, deregistrations, removals, remediations); call once before serving.
    /// Returns how many interrupted operations it resumed. A store that holds nothing while
    /// the vault holds accounts' files refuses to start (the store was lost or replaced).
    @discardableResult
    public func start() async throws -> Int {
        guard case .created = phase else { preconditionFailure("Engine.start() called twice") }
        phase = .resuming([])
        // Hooks a previous daemon left running (it was killed while they ran) end before the
        // work that runs them again resumes.
        let leftovers = HookGroups.endLeftovers(stateDirectory: store.stateDirectory)
        if leftovers > 0 { logger.warning("ended app hooks a previous daemon left running", metadata: ["hook.count": "\(leftovers)"]) }
        try await vault.finishInterruptedWipes()
        // Tokens of a store written before the cache was keyed by issuer belong to the app's own.
        let authority = issuers.base.configuration.authority.url
        try store.writeSync { _ = try $0.adoptUnpartitionedTokens { IssuerSelection.partition(clientID: $0, authority: authority) } }
        let stored = try loadRecords()
        // The vault is listed only when the records cannot say already (the start of a large store).
        if stored.isEmpty, let refusal = stored.startRefusal(vaultAccounts: try await vault.accountsWithData().count) {
            throw StoreError(
                code: .corruptRow, path: store.path, message: "\(refusal). Restore it, or remove the vault directory (\(vault.root)) to start afresh")
        }
        do {
            machine = try ComplianceMachine(restoring: stored, configuration: machine.configuration)
        } catch {
            throw StoreError(code: .corruptRow, path: store.path, message: "a stored machine cannot be restored: \(error)")
        }
        applySettingsOverrides()  // overrides "persist even after the app is restarted"
        if clock.mode == .virtual {
            // The virtual time survives restarts: resume it, or store where it starts so a
            // daemon killed before its first advance restarts at the same time.
            if let stored = try store.readSync({ try $0.appState(StateKey.clock) })?.intValue {
                clock.restore(to: stored)
                savedClock = stored
            } else {
                saveVirtualClock()
            }
        }
        let resumed = machine.resumableWork
        // Resumed work finishes before the engine serves: its I/O runs here, one job at a time.
        machine.resumed(now: clock.now)
        drain()
        while case .resuming(let jobs) = phase, let job = jobs.first {
            phase = .resuming(Array(jobs.dropFirst()))
            await perform(job)
        }
        phase = .serving
        // daemonStarted, and the launch settings' warning, once the resumed work (an
        // AutoEnrollOnLaunch enrollment among it) is done.
        machine.launchFinished(resumed: resumed, clock: clock.mode.rawValue, now: clock.now)
        drain()
        rearmWake()
        return resumed
    }

    /// Performs the machine's I/O until the service is told to stop (or the task is
    /// cancelled); wakes the real clock's timers. Jobs still running when it stops finish
    /// first (each is bounded by the HTTP timeout or the wipe hook's).
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            for await job in jobs.cancelOnGracefulShutdown() {
                group.addTask { await self.perform(job) }
            }
            stopping.withLock { $0 = true }  // the jobs in flight finish; wake-ups end
        }
    }

    /// Runs `body` with the engine's service running (for in-process use: tests, benchmarks,
    /// load runs); stops the service when `body` returns.
    public nonisolated func withRunning<T: Sendable>(_ body: @Sendable (Engine) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await self.run()
                return nil
            }
            defer { group.cancelAll() }
            let result = try await body(self)
            return result
        }
    }

    /// Stops taking I/O (the daemon's shutdown; ``run()`` ends with the service group).
    public func shutdown() {
        jobSink.finish()
    }

    /// Names of the app-wide values in the store.
    enum StateKey {
        static let machine = "machine"
        static let clock = "clock"
    }
}

/// A unit of I/O for ``Engine/run()``.
struct Job: Sendable {
    enum Kind: Sendable {
        case grant(
            ComplianceMachine.StepID, TokenAcquisitionStateMachine.Grant, AccountID, scopes: [String], claims: String?, user: InteractiveUser?,
            environment: TokenEnvironment)
        case mam(ComplianceMachine.StepID, ComplianceMachine.MAMRequest, environment: TokenEnvironment)
        case removeTokens(ComplianceMachine.StepID, AccountID)
        case removeVaultFiles(ComplianceMachine.StepID, AccountID)
        case runAppHook(ComplianceMachine.StepID, AccountID)
        /// Encrypt the account's plain files (its policy requires encryption).
        case encryptPlainFiles(ComplianceMachine.StepID, AccountID)
        /// Ask the app's restart hook (`restartApplication`) about the restart for the account's first policy.
        case askRestartHook(AccountID)
        /// Ask the app's identity hook an SDK question (`identitySwitchRequired`, `addIdentity`).
        case askApp(ComplianceMachine.StepID, AppIdentityQuestion)
        /// Sleep until the real clock reaches `at`, then fire due timers (generation `generation`).
        case wake(at: EpochMillis, generation: Int)
    }

    let kind: Kind
}

/// An armed test crash point.
struct CrashPoint: Sendable {
    var point: String
    var remaining: Int
}
