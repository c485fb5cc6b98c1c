import HTTPClient

/// Why a MAM service call produced no usable answer.
public struct MAMClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable { case network, serviceFailure, malformed, unauthorized }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The service could not be reached (refused, timed out, reset, TLS).
        public static let network = Code(.network)
        /// HTTP 5xx, 429 or an unexpected status.
        public static let serviceFailure = Code(.serviceFailure)
        /// HTTP 200 with a body that is not a JSON object, or an answer over the size cap.
        public static let malformed = Code(.malformed)
        /// The service refused the bearer token (401/403).
        public static let unauthorized = Code(.unauthorized)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// `enroll`, `checkin`, `unenroll` or `report-compliance`.
    public let operation: String
    public let httpStatus: Int?
    /// From `Retry-After`, when the service sent one.
    public let retryAfterSeconds: Int?
    /// The `WWW-Authenticate` of a refused token (401), when the service sent one: a
    /// continuous-access-evaluation claims challenge is read from it in the core.
    public let wwwAuthenticate: String?
    public let transport: HTTPClientError?

    public init(
        _ code: Code, _ message: String, operation: String, httpStatus: Int? = nil, retryAfterSeconds: Int? = nil, wwwAuthenticate: String? = nil,
        transport: HTTPClientError? = nil
    ) {
        self.code = code
        self.wwwAuthenticate = wwwAuthenticate
        self.message = message
        self.operation = operation
        self.httpStatus = httpStatus
        self.retryAfterSeconds = retryAfterSeconds
        self.transport = transport
    }

    public var description: String { "\(code): \(message)" }
}
