import AppProfile
import Daemon
import Foundation
import HTTPClient
import JSON
import MockAuth
import Orchestrator
import LocalServers

/// Where the fault matrix runs: one in-process mockauth (http, and https with a certificate
/// only the trusted client knows), reset before every cell, and devices (engines) on state
/// directories of their own.
struct MatrixLab: Sendable {
    let mock: InProcessMockAuth.Running
    let root: String
    /// Clients shared by the devices: one with the usual 10 s timeout without the mock's CA,
    /// and one that trusts it (as `--ca-file` would).
    let normal: HTTPClient
    let trusted: HTTPClient

    init(mock: InProcessMockAuth.Running, root: String) {
        self.mock = mock
        self.root = root
        var configuration = HTTPClientConfiguration()
        configuration.totalTimeout = .seconds(10)
        normal = HTTPClient(configuration: configuration)
        var withCA = HTTPClientConfiguration()
        withCA.caFile = mock.caFile
        trusted = HTTPClient(configuration: withCA)
    }

    /// Which of the device's services sit behind the https listener.
    enum Secure: Sendable { case none, issuer, mam }

    /// Starts a device on `directory` (again, when it exists: a restart with other settings).
    func device(_ directory: String, secure: Secure = .none, trustCA: Bool = false) async throws -> MatrixDevice {
        let tls = mock.tlsURL ?? mock.url
        let configuration = try DaemonConfiguration(
            stateDirectory: directory, app: try AppSettings.load(infoPlist: DaemonHarness.appsDirectory + "/chatr-Info.plist"),
            authority: (secure == .issuer ? tls : mock.url) + "/contoso.com", mamURL: (secure == .mam ? tls : mock.url) + "/mam/v1",
            caFile: trustCA ? mock.caFile : nil, clock: .virtual, httpTimeout: .seconds(10))
        let parts = try DaemonParts(configuration, logger: quietLogger, http: trustCA ? trusted : normal)
        return MatrixDevice(parts: parts, running: try await parts.startRunning())
    }

    func newDirectory() -> String {
        root + "/" + UUID().uuidString
    }

    /// A call to the mock's admin API.
    @discardableResult
    func admin(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        let url = mock.url + "/_admin/" + path
        let request = body.map { HTTPClientRequest.json(method: method, url: url, body: $0.encoded()) } ?? HTTPClientRequest(method: method, url: url)
        let response = try await normal.execute(request)
        guard (200..<300).contains(response.status) else {
            throw HarnessError("admin \(method) \(path) answered HTTP \(response.status): \(response.bodyText)")
        }
        return response.body.isEmpty ? .null : try JSONValue.parse(response.body)
    }

    /// Requests the mock logged for `route` since its last reset.
    func requests(to route: String) async -> Int {
        mock.state.requestLogEntries().filter { $0.route == route }.count
    }

    /// Releases the requests a `hold` rule still holds (their clients gave up), waits (at
    /// most 20 s) until every request a fault rule took has been answered, so a held request
    /// cannot change the mock after the next reset; then clears the faults.
    func settleAndClearFaults(count: Int) async throws {
        mock.state.held.releaseAll()
        let remaining = mock.state.faultRules().reduce(0) { $0 + $1.remaining }
        let taken = count - remaining
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if mock.state.requestLogEntries().filter({ $0.fault != nil }).count >= taken { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        mock.state.clearFaults()
    }
}

/// A device of the matrix: its parts and its running engine.
struct MatrixDevice: Sendable {
    let parts: DaemonParts
    let running: RunningEngine
    var engine: Engine { parts.engine }
    var store: OrchestratorStore { parts.store }

    /// Stops the device's engine (a restart starts a new device on the same directory).
    func stop() async {
        await running.stop()
    }
}
