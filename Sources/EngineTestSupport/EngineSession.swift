import ComplianceCore
import HTTPClient
import JSON
import LocalServers
import Orchestrator

/// What the tests' engine harnesses share: a started engine, its store, and the in-process
/// mockauth it talks to. `DaemonTests`' harness builds the engine as the daemon does
/// (`DaemonParts`), `OrchestratorTests`' without the daemon (`EngineParts`); the conveniences
/// below serve both.
public protocol EngineSession: Sendable {
    var mock: InProcessMockAuth.Running { get }
    var engine: Engine { get }
    var store: OrchestratorStore { get }
}

/// The scopes, password and app profiles the harnesses' tests use.
public enum EngineSessionDefaults {
    public static let chatRead = ["api://contoso-chat/Chat.Read"]
    public static let password = InteractiveUser.signIn(password: "Passw0rd!")
    public static let appsDirectory = InProcessMockAuth.packageRoot.appendingPathComponent("mocks/fixtures/apps").path
}

extension EngineSession {
    /// A JSON request to the mock's admin API; returns the answer's JSON.
    @discardableResult
    public func admin(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await mock.admin(method, path, body)
    }

    /// The engine's event log (kind, account key, payload), oldest first.
    public func events() async throws -> [(kind: String, account: String?, payload: JSONValue)] {
        try await store.events(since: 0, limit: 10_000).map { ($0.kind, $0.account?.key, $0.payload) }
    }

    /// Signs `upn` in interactively with the right password.
    @discardableResult
    public func signIn(_ upn: String, scopes: [String]? = EngineSessionDefaults.chatRead) async throws -> SignInOutcome {
        try await engine.signIn(upn, scopes: scopes, silent: false, user: EngineSessionDefaults.password)
    }

    /// Moves the virtual clock by `hours`.
    public func advance(hours: Int64) async throws {
        _ = try await engine.advanceClock(seconds: hours * 3600)
    }
}
