import HTTPClient
import JSON

/// A client of complianced's control API (JSON over HTTP on its unix socket; see
/// Sources/complianced/README.md). Answers are the daemon's JSON as is; failures are
/// ``ControlClientError``s that say whether the daemon was unreachable or refused.
public struct ControlClient: Sendable {
    /// The control socket's path.
    public let socketPath: String
    private let http: HTTPClient

    /// - Parameter timeout: bound on each call (a remediation can take several round trips
    ///   to the issuer and the MAM service).
    public init(socketPath: String, timeout: Duration = .seconds(120)) {
        self.socketPath = socketPath
        var configuration = HTTPClientConfiguration()
        configuration.unixSocketPath = socketPath
        configuration.connectTimeout = .seconds(5)
        configuration.totalTimeout = timeout
        configuration.maxResponseBytes = 64 << 20
        http = HTTPClient(configuration: configuration)
    }

    /// Calls `method path` with an optional JSON body; returns the JSON answer of a 2xx.
    public func call(_ method: HTTPClientMethod, _ path: String, _ body: JSONValue? = nil) async throws(ControlClientError) -> JSONValue {
        let response = try await send(method, path, body: body.map { $0.encoded() }, json: body != nil)
        guard !response.body.isEmpty else { return .null }
        do {
            return try JSONValue.parse(response.body)
        } catch {
            throw ControlClientError(.invalidResponse, "\(method) \(path): the daemon's answer is not JSON (\(error))")
        }
    }

    /// Calls `method path` with raw bytes; returns the raw answer of a 2xx (vault files).
    public func raw(_ method: HTTPClientMethod, _ path: String, body: [UInt8]? = nil) async throws(ControlClientError) -> [UInt8] {
        try await send(method, path, body: body, json: false).body
    }

    private func send(_ method: HTTPClientMethod, _ path: String, body: [UInt8]?, json: Bool) async throws(ControlClientError) -> HTTPClientResponse {
        var request = HTTPClientRequest(method: method, url: "http://localhost" + path, body: body)
        if json { request.headers.replaceOrAdd(name: "Content-Type", value: "application/json") }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request)
        } catch {
            if error.code == .timeout {
                throw ControlClientError(.timeout, "\(method) \(path): the daemon at \(socketPath) did not answer in time")
            }
            throw ControlClientError(.unreachable, "cannot reach complianced at \(socketPath): \(error.message)")
        }
        guard (200..<300).contains(response.status) else {
            let answer = try? JSONValue.parse(response.body)
            let code = answer?["error"]?["code"]?.stringValue ?? "http_\(response.status)"
            let message = answer?["error"]?["message"]?.stringValue ?? response.bodyText
            throw ControlClientError(.refused(status: response.status, code: code), message)
        }
        return response
    }
}
