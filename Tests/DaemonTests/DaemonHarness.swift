import AppProfile
import ComplianceCore
import Daemon
import Foundation
import HTTPClient
import JSON
import Logging
import EngineTestSupport
import Orchestrator
import LocalServers

/// An engine started in a temporary state directory against an in-process mockauth, with a
/// virtual clock. Admin calls go to the mock over HTTP.
struct DaemonHarness: EngineSession {
    let mock: InProcessMockAuth.Running
    let parts: DaemonParts
    let running: RunningEngine
    let directory: String
    let configuration: DaemonConfiguration
    var engine: Engine { parts.engine }
    var store: OrchestratorStore { parts.store }

    static let chatRead = EngineSessionDefaults.chatRead
    static let password = EngineSessionDefaults.password
    static let appsDirectory = EngineSessionDefaults.appsDirectory

    /// Runs `body` with a started engine; `authority` overrides the mock's (e.g. an
    /// unreachable one), `app` is the Info.plist path; `prepare` gets the state directory
    /// before the engine opens it (e.g. to write a store of an earlier layout); `settings`
    /// changes the profile read from `app`; `mamService: false` makes the mock an OpenID
    /// Connect issuer without a MAM URL (`--oidc-issuer` alone).
    static func run<T: Sendable>(
        app: String = appsDirectory + "/chatr-Info.plist", authority: String? = nil, wipeHook: WipeHook? = nil,
        restartHook: RestartHook? = nil, mamURLFromAuthority: Bool = false, mamService: Bool = true,
        settings: @Sendable (inout AppSettings) -> Void = { _ in },
        prepare: @Sendable (String) throws -> Void = { _ in },
        _ body: @Sendable (DaemonHarness) async throws -> T
    ) async throws -> T {
        try await InProcessMockAuth.run { mock in
            let directory = NSTemporaryDirectory() + "daemon-tests-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try prepare(directory)
            var profile = try AppSettings.load(infoPlist: app)
            settings(&profile)
            let configuration = try DaemonConfiguration(
                stateDirectory: directory, app: profile, authority: mamService ? authority ?? mock.authority : nil,
                oidcIssuer: mamService ? nil : IssuerSelectionTests.issuer(mock),
                mamURL: mamService && !mamURLFromAuthority ? mock.mamURL : nil, clock: .virtual, wipeHook: wipeHook, httpTimeout: .seconds(30),  // the first minute of a full run is busy
                restartHook: restartHook)
            let parts = try DaemonParts(configuration, logger: quietLogger)
            let running = try await parts.startRunning()
            do {
                let result = try await body(DaemonHarness(mock: mock, parts: parts, running: running, directory: directory, configuration: configuration))
                await running.stop()
                return result
            } catch {
                await running.stop()
                throw error
            }
        }
    }

    /// Shuts this engine down and starts a new one on the same state directory, as a
    /// daemon restart would; use the returned harness from then on.
    func restarted() async throws -> DaemonHarness {
        await running.stop()
        let parts = try DaemonParts(configuration, logger: quietLogger)
        let running = try await parts.startRunning()
        return DaemonHarness(mock: mock, parts: parts, running: running, directory: directory, configuration: configuration)
    }

    static let http = HTTPClient()
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Logs nothing: tests assert on values, not on log lines.
let quietLogger = Logger(label: "daemon-tests", factory: { _ in SwiftLogNoOpLogHandler() })
