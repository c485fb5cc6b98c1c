import AppProfile
import ArgumentParser
import Daemon
import Foundation
import ConnectionCustody
import Hummingbird
import Logging
import Orchestrator
import ProgramSupport
import ServiceLifecycle

/// `complianced`: runs the compliance machines for one app and serves the control API.
@main
struct Complianced: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complianced",
        abstract: "The compliance daemon: app-protection CA remediation, enrollment, allowed accounts and selective wipe for one app.",
        discussion: """
            Serves the control API (JSON over HTTP) on STATE_DIR/control.sock (mode 0600); see \
            Sources/complianced/README.md. When ready it prints one line on stdout:
            `listening on unix:PATH` (plus ` http://127.0.0.1:PORT` with --listen, and \
            ` metrics http://127.0.0.1:PORT/metrics` with --metrics-listen; with --log-format json, a \
            JSON record whose message is that line). \
            SIGTERM or SIGINT stop it gracefully. Exit status: 0 after a clean stop, 2 for a bad \
            configuration or a state directory in use, 1 for other failures.

            Example:
              complianced --state-dir /tmp/cd --app mocks/fixtures/apps/chatr-Info.plist \\
                --authority http://127.0.0.1:8080/contoso.com --clock virtual

            Under systemd (Type=notify; dist/systemd/complianced.service) it sends READY=1 once the \
            control socket listens, STOPPING=1 when told to stop, and WATCHDOG=1 at half of \
            WatchdogSec= when that is set.
            """,
        version: ProgramVersion.current)

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Directory for the store, the vault and the control socket (created 0700).", valueName: "dir"))
    var stateDirectory: String

    @Option(name: .customLong("app"), help: ArgumentHelp("The app's Info.plist (IntuneMAMSettings: ADALClientId, ADALAuthority, ADALRedirectUri; MSALClientCapabilities).", valueName: "plist"))
    var appProfile: String

    @OptionGroup(title: "Issuer") var issuer: IssuerOptions

    @Option(name: .customLong("scope"), help: ArgumentHelp("A scope sign-ins request when the request names none (repeatable).", valueName: "scope"))
    var scopes: [String] = []

    @Option(name: .long, help: ArgumentHelp("real, or virtual (time moves only through POST /v1/clock/advance).", valueName: "mode"))
    var clock: String = "real"

    @Option(name: .customLong("wipe-hook"), help: ArgumentHelp("Command run by /bin/sh on every selective wipe, with COMPLIANCE_WIPE_ACCOUNT set.", valueName: "cmd"))
    var wipeHook: String?

    @Option(name: .customLong("wipe-hook-timeout"), help: ArgumentHelp("Seconds the wipe hook may run before it is killed.", valueName: "seconds"))
    var wipeHookTimeout: Int = 10

    @Option(name: .customLong("restart-hook"), help: ArgumentHelp("The app's restartApplication: command run by /bin/sh when a first policy restarts the app, with COMPLIANCE_RESTART_ACCOUNT, COMPLIANCE_RESTART_DIRECTORY and COMPLIANCE_STATE_DIRECTORY set; exit 0: the app restarts itself and reports it.", valueName: "cmd"))
    var restartHook: String?

    @Option(name: .customLong("restart-hook-timeout"), help: ArgumentHelp("Seconds the restart hook may run before it is killed (its answer is then NO).", valueName: "seconds"))
    var restartHookTimeout: Int = 10

    @Option(name: .customLong("identity-hook"), help: ArgumentHelp("The app's identitySwitchRequired and addIdentity answers: command run by /bin/sh with COMPLIANCE_IDENTITY_CALL, COMPLIANCE_IDENTITY_ACCOUNT (empty: no user), COMPLIANCE_IDENTITY_REASON and COMPLIANCE_STATE_DIRECTORY set; exit 0: Success, anything else: Failed. Without it the daemon answers Success.", valueName: "cmd"))
    var identityHook: String?

    @Option(name: .customLong("identity-hook-timeout"), help: ArgumentHelp("Seconds the identity hook may run before it is killed (its answer is then Failed).", valueName: "seconds"))
    var identityHookTimeout: Int = 10

    @Option(name: .customLong("redirect-port"), help: ArgumentHelp("The loopback port a browser sign-in's redirect comes back to (http://127.0.0.1:PORT/), for issuers that match redirect URIs exactly; by default an ephemeral port each time (RFC 8252).", valueName: "port"))
    var redirectPort: Int?

    @Option(name: .customLong("http-timeout"), help: ArgumentHelp("Seconds an outgoing request may take.", valueName: "seconds"))
    var httpTimeout: Int = 10

    @Option(name: .customLong("event-retention"), help: ArgumentHelp("How many of the newest events the event log keeps; older ones are deleted as new ones arrive.", valueName: "count"))
    var eventRetention: Int = OrchestratorStore.defaultEventRetention

    @Option(name: .long, help: ArgumentHelp("Also serve the control API on loopback TCP, e.g. 127.0.0.1:0.", valueName: "host:port"))
    var listen: String?

    @Flag(name: .customLong("test-hooks"), help: "Enable the test routes (/v1/test/crash-after). Never in production.")
    var testHooks = false

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "info"

    @Option(name: .customLong("log-format"), help: ArgumentHelp("text, or json (one JSON object a line: time, level, label, message, metadata).", valueName: "format"))
    var logFormat: String = LogFormat.text.rawValue

    @Option(name: .customLong("metrics-listen"), help: ArgumentHelp("Serve Prometheus metrics at GET /metrics on loopback TCP, e.g. 127.0.0.1:9464.", valueName: "host:port"))
    var metricsListen: String?

    func validate() throws {
        // An unset variable (`--state-dir "$STATE"`) must not make the current directory the
        // store and restrict it to its owner.
        if stateDirectory.allSatisfy(\.isWhitespace) { throw ValidationError("--state-dir is empty: name the directory for the store, the vault and the control socket.") }
        guard EngineClock.Mode(rawValue: clock) != nil else { throw ValidationError("--clock must be real or virtual, got '\(clock)'.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'.") }
        guard LogFormat(rawValue: logFormat) != nil else { throw ValidationError("--log-format must be \(LogFormat.choices), got '\(logFormat)'.") }
        if let redirectPort, !(1...65535).contains(redirectPort) { throw ValidationError("--redirect-port must be 1...65535, got \(redirectPort).") }
        guard (1...3600).contains(wipeHookTimeout) else { throw ValidationError("--wipe-hook-timeout must be 1...3600 seconds.") }
        guard (1...3600).contains(restartHookTimeout) else { throw ValidationError("--restart-hook-timeout must be 1...3600 seconds.") }
        if let wipeHook, wipeHook.allSatisfy(\.isWhitespace) { throw ValidationError("--wipe-hook is blank (leave it out for an app with no wipe handler).") }
        if let restartHook, restartHook.allSatisfy(\.isWhitespace) { throw ValidationError("--restart-hook is blank (leave it out for an app the daemon restarts itself).") }
        guard (1...3600).contains(identityHookTimeout) else { throw ValidationError("--identity-hook-timeout must be 1...3600 seconds.") }
        if let identityHook, identityHook.allSatisfy(\.isWhitespace) { throw ValidationError("--identity-hook is blank (leave it out for an app whose answers the daemon gives).") }
        guard (1...600).contains(httpTimeout) else { throw ValidationError("--http-timeout must be 1...600 seconds.") }
        guard eventRetention >= 1 else { throw ValidationError("--event-retention must be at least 1, got \(eventRetention).") }
        if let listen { _ = try Self.loopbackAddress(listen, option: "--listen") }
        if let metricsListen { _ = try Self.loopbackAddress(metricsListen, option: "--metrics-listen") }
    }

    /// `127.0.0.1:PORT` only: the control API and the metrics never listen beyond loopback.
    static func loopbackAddress(_ text: String, option: String) throws -> (host: String, port: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "127.0.0.1", let port = Int(parts[1]), (0...65_535).contains(port) else {
            throw ValidationError("\(option) must be 127.0.0.1:PORT (loopback only), got '\(text)'.")
        }
        return ("127.0.0.1", port)
    }

    func run() async throws {
        let format = LogFormat(rawValue: logFormat) ?? .text
        format.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
        let systemd = SystemdNotifier.fromEnvironment()
        let metrics = ProgramMetrics()
        let logger = Logger(label: "complianced")
        umask(0o077)  // every file and the socket: owner only
        // A reader of stdout or stderr that went away (`| head -1`, a closed terminal) costs the
        // lines, not the daemon: writes then fail with EPIPE instead of killing it.
        signal(SIGPIPE, SIG_IGN)
        var configuration: DaemonConfiguration
        let lock: StateDirectoryLock
        let parts: DaemonParts
        // Absolute, so the ready line and the socket path mean the same from anywhere.
        let stateDirectory = URL(fileURLWithPath: self.stateDirectory).standardizedFileURL.path
        do {
            // Everything that can be checked without touching the disk comes first: a bad
            // configuration leaves no state directory behind.
            let app = try AppSettings.load(infoPlist: appProfile)
            var clientAuthentication = IssuerConfiguration.ClientAuthentication.none
            if let clientSecretFile = issuer.clientSecretFile {
                let secret = try StartupChecks.clientSecret(clientSecretFile)
                clientAuthentication = issuer.clientAuth == "post" ? .secretPost(secret) : .secretBasic(secret)
            }
            configuration = try DaemonConfiguration(
                stateDirectory: stateDirectory, app: app, authority: issuer.authority, oidcIssuer: issuer.oidcIssuer, mamURL: issuer.mamURL,
                clientID: issuer.clientID, clientAuthentication: clientAuthentication,
                signInScopes: scopes.isEmpty ? ["openid", "profile", "offline_access"] : scopes, caFile: issuer.caFile,
                clock: EngineClock.Mode(rawValue: clock) ?? .real,
                wipeHook: wipeHook.map { WipeHook(command: $0, timeout: .seconds(wipeHookTimeout)) },
                httpTimeout: .seconds(httpTimeout), testHooks: testHooks, eventRetention: eventRetention,
                restartHook: restartHook.map { RestartHook(command: $0, timeout: .seconds(restartHookTimeout)) })
            configuration.redirectPort = redirectPort
            configuration.identityHook = identityHook.map { IdentityHook(command: $0, timeout: .seconds(identityHookTimeout)) }
            try StartupChecks.socketPathFits(configuration.socketPath)
            if let caFile = issuer.caFile { try StartupChecks.readableFile(caFile, option: "--ca-file") }
            try StartupChecks.prepareStateDirectory(stateDirectory, logger: logger)
            lock = try StateDirectoryLock(stateDirectory: stateDirectory)
            // Counted only when someone can read the counts (no registry work on the hot path otherwise).
            parts = try DaemonParts(
                configuration, logger: logger, metrics: metricsListen == nil ? EngineMetrics() : EngineMetrics(factory: metrics.factory))
        } catch {
            StandardStream.error.write(format.line("complianced: \(error)", level: .critical, label: "complianced"))
            throw ExitCode(2)
        }
        if case .oidc(let url) = configuration.issuer {
            // The issuer must be the one configured before anything is signed in under it.
            do {
                _ = try await parts.issuer.discover()
            } catch where error.code == .network {
                logger.warning("the issuer cannot be reached yet; its discovery document is checked at the first sign-in", metadata: ["issuer.url": "\(url)", "error.message": "\(error.message)"])
            } catch {
                StandardStream.error.write(format.line("complianced: --oidc-issuer \(url): \(error.message)", level: .critical, label: "complianced"))
                throw ExitCode(2)
            }
        }
        if configuration.mamURL == nil {
            logger.notice("no MAM service (an OpenID Connect issuer without --mam-url): sign-ins are not registered and a 53005 answer is not remediated")
        }
        let resumed: Int
        do {
            resumed = try await parts.engine.start()
        } catch {
            StandardStream.error.write(format.line("complianced: \(error)", level: .critical, label: "complianced"))
            throw ExitCode(2)
        }
        logger.info("engine started", metadata: ["engine.resumed": "\(resumed)", "engine.clock": "\(clock)", "app.clientId": "\(configuration.clientID)"])

        let socketPath = configuration.socketPath  // absolute: the state directory is standardized above
        unlink(socketPath)  // a stale socket from a killed daemon; the lock proves none is alive
        let ready = ReadyLine(
            expected: 1 + (listen == nil ? 0 : 1) + (metricsListen == nil ? 0 : 1), socketPath: socketPath, format: format, systemd: systemd)
        // The engine first: it runs the machine's I/O for every request, and a group stops its
        // services in reverse order, so it stops after the listeners.
        var services: [any Service] = [parts.engine]
        // Each server's connections set up while it stops are closed, never dropped (a dropped
        // one trapped the process: ConnectionCustody).
        let socketCustody = ConnectionCustody()
        services.append(Application(
            router: parts.routes.router(), server: .http1(custody: socketCustody),
            configuration: .init(address: .unixDomainSocket(path: socketPath), serverName: "complianced"),
            services: [socketCustody],
            onServerRunning: { _ in
                chmod(socketPath, 0o600)
                await ready.report()
            },
            logger: logger))
        if let listen {
            let address = try Self.loopbackAddress(listen, option: "--listen")
            let custody = ConnectionCustody()
            services.append(Application(
                router: parts.routes.router(), server: .http1(custody: custody),
                configuration: .init(address: .hostname(address.host, port: address.port), serverName: "complianced"),
                services: [custody],
                onServerRunning: { channel in await ready.report(tcp: "http://127.0.0.1:\(channel.localAddress?.port ?? address.port)") },
                logger: logger))
        }
        if let metricsListen {
            let address = try Self.loopbackAddress(metricsListen, option: "--metrics-listen")
            let custody = ConnectionCustody()
            services.append(Application(
                router: MetricsRouter.router(metrics), server: .http1(custody: custody),
                configuration: .init(address: .hostname(address.host, port: address.port), serverName: "complianced"),
                services: [custody],
                onServerRunning: { channel in
                    await ready.report(metrics: "http://127.0.0.1:\(channel.localAddress?.port ?? address.port)/metrics")
                },
                logger: logger))
        }

        // Last, so it is told of the shutdown first (a group shuts its services down in reverse
        // order): open long polls end before the servers wait for their requests.
        services.append(EventWaitCloser(engine: parts.engine))
        // systemd: the watchdog's WATCHDOG=1 while serving, STOPPING=1 first thing on a stop.
        services.append(SystemdWatchdog(notifier: systemd))
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        await parts.engine.shutdown()
        unlink(socketPath)
        withExtendedLifetime(lock) {}
        logger.info("stopped")
    }
}

/// Prints the ready line once every listener runs, and tells systemd (`READY=1`).
actor ReadyLine {
    private let expected: Int
    private let socketPath: String
    private let format: LogFormat
    private let systemd: SystemdNotifier
    private var reported = 0
    private var tcp: String?
    private var metrics: String?

    init(expected: Int, socketPath: String, format: LogFormat, systemd: SystemdNotifier) {
        self.expected = expected
        self.socketPath = socketPath
        self.format = format
        self.systemd = systemd
    }

    func report(tcp: String? = nil, metrics: String? = nil) {
        if let tcp { self.tcp = tcp }
        if let metrics { self.metrics = metrics }
        reported += 1
        guard reported == expected else { return }
        let message = "listening on unix:\(socketPath)" + (self.tcp.map { " \($0)" } ?? "") + (self.metrics.map { " metrics \($0)" } ?? "")
        StandardStream.output.write(format.line(message, label: "complianced"))
        systemd.notify("READY=1\nSTATUS=serving the control API on unix:\(socketPath)\nMAINPID=\(getpid())")
    }
}

/// Ends the control API's open event long polls (`GET /v1/events?wait=…`, `events --follow`)
/// and cancels every pending sign-in interaction (a browser or device-code sign-in waiting for
/// its person) when the daemon is told to stop; otherwise each would hold the shutdown until its
/// wait ran out (300 s for a browser). The callers get their answers (UserCancelled) at once.
/// A clock advance under way ends after the timer it is firing (a 10-year advance fires some
/// 11,000 check-ins, minutes of work).
struct EventWaitCloser: Service {
    let engine: Engine

    func run() async throws {
        try? await gracefulShutdown()
        engine.interactions.cancelAll()
        engine.endEventWaits()
        engine.endClockAdvances()
    }
}
