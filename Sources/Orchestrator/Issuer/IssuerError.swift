import HTTPClient

/// A failure talking to the token issuer before any OAuth answer could be classified.
public struct IssuerError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case network, badDiscovery, serviceFailure, badRedirect, signInFailed, misconfigured, invalidIDToken
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The issuer could not be reached (refused, timed out, reset, TLS).
        public static let network = Code(.network)
        /// The discovery document is missing, not JSON, or lacks an endpoint.
        public static let badDiscovery = Code(.badDiscovery)
        /// The issuer answered with a server error (5xx, 429: ``IssuerError/httpStatus`` is set)
        /// or an answer it cannot use (e.g. larger than the response cap).
        public static let serviceFailure = Code(.serviceFailure)
        /// The authorization redirect could not be read (no Location, wrong redirect URI, state mismatch).
        public static let badRedirect = Code(.badRedirect)
        /// The scripted user could not sign in (the page did not accept the credentials).
        public static let signInFailed = Code(.signInFailed)
        /// The sign-in cannot work as configured: the authorize endpoint refused the request
        /// (4xx) or showed a page that is not a sign-in form. The message quotes its answer.
        public static let misconfigured = Code(.misconfigured)
        /// An id_token failed validation (signature, issuer, audience, lifetime, nonce), or
        /// the issuer's keys could not be read.
        public static let invalidIDToken = Code(.invalidIDToken)

        public var description: String { base.rawValue }
    }

    public let code: Code
    public let message: String
    /// The endpoint involved, without query.
    public let endpoint: String
    /// The underlying transport error, when there was one.
    public let transport: HTTPClientError?
    /// The HTTP status of a failing answer (5xx, 429), when there was one.
    public let httpStatus: Int?
    /// `Retry-After` of that answer, in seconds.
    public let retryAfterSeconds: Int?

    public init(
        _ code: Code, _ message: String, endpoint: String, transport: HTTPClientError? = nil, httpStatus: Int? = nil, retryAfterSeconds: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.endpoint = HTTPClientRequest(url: endpoint).redactedURL
        self.transport = transport
        self.httpStatus = httpStatus
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "\(code): \(message)" }
}
