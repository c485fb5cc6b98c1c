import AppProfile
import ComplianceCore
import EngineTestSupport
import Foundation
import HTTPClient
import JSON
import LocalServers
import Logging
import Orchestrator

/// An engine built without the daemon (``EngineParts``), in a temporary state directory,
/// against an in-process mockauth, with a virtual clock. Admin calls go to the mock over HTTP.
struct EngineHarness: EngineSession {
    let mock: InProcessMockAuth.Running
    let parts: EngineParts
    let running: RunningEngine
    let directory: String
    /// What the engine was built with; ``Setup/makeParts()`` builds it again (a restart).
    let setup: Setup
    var engine: Engine { parts.engine }
    var store: OrchestratorStore { parts.store }

    /// The engine's configuration, its issuer and its MAM service, on one state directory.
    struct Setup: Sendable {
        var configuration: EngineConfiguration
        var issuer: IssuerConfiguration
        var mamURL: String
        var directory: String

        /// New parts on the directory, as a daemon start would build them (a 30 s HTTP timeout,
        /// connecting within 5 s: the first minute of a full run is busy).
        func makeParts() throws -> EngineParts {
            var http = HTTPClientConfiguration()
            http.totalTimeout = .seconds(30)
            http.connectTimeout = .seconds(5)
            return try EngineParts(
                stateDirectory: directory, configuration: configuration, issuer: issuer, mamURL: mamURL, mamFollowsAuthority: false,
                clock: .virtual, eventRetention: OrchestratorStore.defaultEventRetention, http: HTTPClient(configuration: http), logger: quietLogger)
        }
    }

    static let chatRead = EngineSessionDefaults.chatRead
    static let password = EngineSessionDefaults.password
    static let appsDirectory = EngineSessionDefaults.appsDirectory

    /// Runs `body` with a started engine; `authority` overrides the mock's (e.g. an
    /// unreachable one), `app` is the Info.plist path; `prepare` gets the state directory
    /// before the engine opens it (e.g. to write a store of an earlier layout); `settings`
    /// changes the profile read from `app`.
    static func run<T: Sendable>(
        app: String = appsDirectory + "/chatr-Info.plist", authority: String? = nil, wipeHook: WipeHook? = nil, restartHook: RestartHook? = nil,
        settings: @Sendable (inout AppSettings) -> Void = { _ in },
        prepare: @Sendable (String) throws -> Void = { _ in },
        _ body: @Sendable (EngineHarness) async throws -> T
    ) async throws -> T {
        try await InProcessMockAuth.run { mock in
            let directory = NSTemporaryDirectory() + "engine-tests-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try prepare(directory)
            var profile = try AppSettings.load(infoPlist: app)
            settings(&profile)
            var configuration = EngineConfiguration(app: profile, signInScopes: ["openid", "profile", "offline_access"])
            configuration.wipeHook = wipeHook
            configuration.restartHook = restartHook
            let issuer = IssuerConfiguration(authority: .entra(authority ?? mock.authority), clientID: profile.clientID, redirectURI: profile.redirectURI)
            let setup = Setup(configuration: configuration, issuer: issuer, mamURL: mock.mamURL, directory: directory)
            let parts = try setup.makeParts()
            let running = try await parts.startRunning()
            do {
                let result = try await body(EngineHarness(mock: mock, parts: parts, running: running, directory: directory, setup: setup))
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
    func restarted() async throws -> EngineHarness {
        await running.stop()
        let parts = try setup.makeParts()
        let running = try await parts.startRunning()
        return EngineHarness(mock: mock, parts: parts, running: running, directory: directory, setup: setup)
    }
}
