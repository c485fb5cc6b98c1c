/// Why a request produced no HTTP response.
///
/// Compare `code` with the static constants (`error.code == .timeout`); `message` says what
/// happened and what to check, and names the URL (never its query or user information, which
/// may carry secrets).
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Sendable, Hashable {
            case connectionRefused, timeout, tls, responseTooLarge, invalidURL, cancelled
            case transport(Int32)
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// Nothing accepted the connection (no listener on the port or socket path).
        public static let connectionRefused = Code(.connectionRefused)
        /// The connect or total timeout elapsed.
        public static let timeout = Code(.timeout)
        /// The TLS handshake failed or the peer's certificate was not trusted.
        public static let tls = Code(.tls)
        /// The response body exceeded the configured cap.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// The URL could not be parsed or uses an unsupported scheme.
        public static let invalidURL = Code(.invalidURL)
        /// The calling task was cancelled.
        public static let cancelled = Code(.cancelled)
        /// Any other libcurl failure, with its `CURLcode`.
        public static func transport(_ curlCode: Int32) -> Code { Code(.transport(curlCode)) }

        /// True for failures of the network path rather than of the peer's answer.
        public var isTransport: Bool {
            switch base {
            case .connectionRefused, .timeout, .transport: true
            default: false
            }
        }

        public var description: String {
            switch base {
            case .connectionRefused: "connectionRefused"
            case .timeout: "timeout"
            case .tls: "tls"
            case .responseTooLarge: "responseTooLarge"
            case .invalidURL: "invalidURL"
            case .cancelled: "cancelled"
            case .transport(let code): "transport(\(code))"
            }
        }
    }

    public let code: Code
    /// What happened, for a person.
    public let message: String
    /// The request's URL without query, fragment or user information.
    public let url: String

    public init(code: Code, message: String, url: String) {
        self.code = code
        self.message = message
        self.url = url
    }

    public var description: String { "\(code) for \(url): \(message)" }
}
