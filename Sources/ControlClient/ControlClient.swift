import HTTPClient
import JSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            if error.code == .connectionRefused || Self.socketPathTooLong(socketPath) {
                // libcurl's text names "localhost port 80", the placeholder URL's: say what is
                // wrong with the socket path instead.
                throw ControlClientError(.unreachable, "complianced is not reachable at its control socket \(socketPath): \(Self.whyUnreachable(socketPath))")
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

extension ControlClient {
    /// The longest path a unix socket address holds (`sun_path` less its NUL).
    static let maxSocketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    static func socketPathTooLong(_ path: String) -> Bool { path.utf8.count > maxSocketPathBytes }

    /// Why nothing answered at `path`, read from the path itself: missing, not a socket, not
    /// ours to use, or a socket no daemon listens on (the daemon stopped without removing it).
    static func whyUnreachable(_ path: String) -> String {
        if socketPathTooLong(path) { return "the path is longer than a unix socket's \(maxSocketPathBytes) bytes" }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno
            return reason == ENOENT ? "no such file (the daemon creates it when it starts)" : String(cString: strerror(reason))
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            return info.st_mode & S_IFMT == S_IFDIR ? "it is a directory, not a socket" : "it is not a socket"
        }
        guard access(path, R_OK | W_OK) == 0 else { return "permission denied" }
        return "nothing listens on it (the daemon is not running)"
    }
}
