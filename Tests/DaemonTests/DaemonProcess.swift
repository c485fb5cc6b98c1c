import Foundation
import HTTPClient
import JSON
import LocalServers

/// `complianced` as a child process on a state directory, driven over its control socket.
final class DaemonProcess: @unchecked Sendable {  // immutable after init
    let child: ChildServer
    let stateDirectory: String
    let client: HTTPClient
    /// The ready line (`listening on unix:… [http://127.0.0.1:PORT]`).
    let readyLine: String

    /// Starts the daemon and waits for its ready line. `issuer` replaces `--authority authority`
    /// (e.g. `["--oidc-issuer", url]`). Outgoing requests may take 120 s, and so may a control
    /// call: hang guards, not bounds (the in-process mock shares a loaded test process; 5 s, then
    /// 30 s timed requests out beside other builds and under ./run.sh test-stress at a load of 20
    /// to 40, a TLS handshake to the mock among them).
    init(
        stateDirectory: String, authority: String, issuer: [String]? = nil, logLevel: String = "warning", extra: [String] = [],
        environment: [String: String]? = nil
    ) async throws {
        self.stateDirectory = stateDirectory
        child = try ChildServer("complianced", arguments: [
            "--state-dir", stateDirectory, "--app", DaemonHarness.appsDirectory + "/chatr-Info.plist",
        ] + (issuer ?? ["--authority", authority]) + [
            "--clock", "virtual", "--test-hooks", "--http-timeout", "120", "--log-level", logLevel,
        ] + extra, environment: environment)
        guard let line = await child.firstLine(timeout: .seconds(30)) else {
            let stderr = child.stderr
            await child.stop()
            throw HarnessError("complianced did not get ready: \(stderr)")
        }
        guard line == "listening on unix:\(stateDirectory)/control.sock" || line.hasPrefix("listening on unix:\(stateDirectory)/control.sock ") else {
            await child.stop()
            throw HarnessError("unexpected ready line: \(line)")
        }
        readyLine = line
        var configuration = HTTPClientConfiguration()
        configuration.unixSocketPath = stateDirectory + "/control.sock"
        configuration.totalTimeout = .seconds(150)
        client = HTTPClient(configuration: configuration)
    }

    /// A control API call; the JSON answer and its status.
    func call(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws -> (status: Int, json: JSONValue) {
        let url = "http://localhost" + path
        let request = body.map { HTTPClientRequest.json(method: method, url: url, body: $0.encoded()) } ?? HTTPClientRequest(method: method, url: url)
        let response = try await client.execute(request)
        return (response.status, response.body.isEmpty ? .null : try JSONValue.parse(response.body))
    }

    func stop() async { await child.stop() }
}

extension DaemonProcess {
    /// A daemon (with `extra` arguments) against an in-process mockauth, on a fresh state
    /// directory; stopped after `body`, also when it throws.
    static func with(
        extra: [String] = [], _ body: @Sendable (DaemonProcess, InProcessMockAuth.Running) async throws -> Void
    ) async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: extra)
                do {
                    try await body(daemon, mock)
                } catch {
                    await daemon.stop()
                    throw error
                }
                await daemon.stop()
            }
        }
    }

    /// ``with(extra:_:)`` for a daemon also listening on loopback TCP (`--listen 127.0.0.1:0`).
    static func withListening(_ body: @Sendable (DaemonProcess) async throws -> Void) async throws {
        try await with(extra: ["--listen", "127.0.0.1:0"]) { daemon, _ in try await body(daemon) }
    }

    /// The loopback TCP port of a daemon started with `--listen`.
    var listeningPort: Int? {
        readyLine.split(separator: " ").dropFirst(3).first { $0.hasPrefix("http://") }.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) }
    }
}
