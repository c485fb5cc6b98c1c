import AppProfile
import ComplianceCore
import Foundation
import HTTPClient
import JSON
import LocalServers
import Logging
import Orchestrator

/// An engine built without the daemon (``EngineParts``), in a temporary state directory,
/// against an in-process mockauth, with a virtual clock. Admin calls go to the mock over HTTP.
struct EngineHarness: Sendable {
    let mock: InProcessMockAuth.Running
    let parts: EngineParts
    let running: RunningEngine
    let directory: String
    /// What the engine was built with; ``Setup/makeParts()`` builds it again (a restart).
    let setup: Setup
    var engine: Engine { parts.engine }

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

    static let chatRead = ["api://contoso-chat/Chat.Read"]
    static let password = InteractiveUser.signIn(password: "Passw0rd!")
    static let appsDirectory = InProcessMockAuth.packageRoot.appendingPathComponent("mocks/fixtures/apps").path

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

    /// A JSON request to the mock's admin API; returns the answer's JSON.
    @discardableResult
    func admin(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await mock.admin(method, path, body)
    }

    /// The engine's event log (kind, account key, payload), oldest first.
    func events() async throws -> [(kind: String, account: String?, payload: JSONValue)] {
        try await parts.store.events(since: 0, limit: 10_000).map { ($0.kind, $0.account?.key, $0.payload) }
    }

    /// Signs `upn` in interactively with the right password.
    @discardableResult
    func signIn(_ upn: String, scopes: [String]? = EngineHarness.chatRead) async throws -> SignInOutcome {
        try await engine.signIn(upn, scopes: scopes, silent: false, user: Self.password)
    }

    /// Moves the virtual clock by `hours`.
    func advance(hours: Int64) async throws {
        _ = try await engine.advanceClock(seconds: hours * 3600)
    }
}
