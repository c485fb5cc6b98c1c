import JSON

/// A column of the fault matrix: how mockauth injects the fault (a `/_admin/faults` rule, or
/// for untrusted TLS the https listener without its CA) and what class of failure it is.
enum MatrixFault: CaseIterable, Sendable {
    case timeout, serverError, unavailableRetryAfter, tooManyRequests, reset, truncated, malformedJSON, wrongContentType, oversized, untrustedTLS

    /// How the client must classify the fault (DESIGN.md §2).
    enum Kind: Sendable {
        /// No usable connection: NetworkFailure, 205 (enroll) / 212 (other MAM calls).
        case transport
        /// 5xx or 429: ServiceFailure, 201 InternalError.
        case service
        /// An answer that cannot be used (not JSON, over the size cap): ServiceFailure, 206 ParsingFailure.
        case unusable
        /// A JSON body labelled text/html: read like MSAL does (the content type is not checked).
        case accepted
    }

    /// The timeout column holds each request unanswered (the mock's `hold` action) until the
    /// device's client gives up after its usual 10 s, and the cell releases it: no answer can
    /// beat the timeout, however slow the machine. (A 3 s delay against a 2 s client raced
    /// twice: the answer against the timeout, and every healthy request of the step against
    /// 2 s, which a loaded test run lost.)
    /// `Retry-After` of the 503 column, in seconds.
    static let retryAfterSeconds: Int64 = 30

    var title: String {
        switch self {
        case .timeout: "held > timeout 10 s"
        case .serverError: "500"
        case .unavailableRetryAfter: "503 Retry-After 30"
        case .tooManyRequests: "429"
        case .reset: "connection reset"
        case .truncated: "truncated body"
        case .malformedJSON: "malformed JSON"
        case .wrongContentType: "JSON as text/html"
        case .oversized: "body 5 MiB > cap 4 MiB"
        case .untrustedTLS: "untrusted TLS cert"
        }
    }

    var kind: Kind {
        switch self {
        case .timeout, .reset, .truncated, .untrustedTLS: .transport
        case .serverError, .unavailableRetryAfter, .tooManyRequests: .service
        case .malformedJSON, .oversized: .unusable
        case .wrongContentType: .accepted
        }
    }

    /// The admin rule that injects the fault into every request to `route`; nil for
    /// untrusted TLS, which is a listener, not a rule.
    func rule(route: String) -> JSONValue? {
        var rule: JSONObject = ["route": .string(route), "count": 1000]
        switch self {
        case .timeout: rule["action"] = "hold"
        case .serverError: rule["status"] = 500
        case .unavailableRetryAfter:
            rule["status"] = 503
            rule["retryAfter"] = .int(Self.retryAfterSeconds)
        case .tooManyRequests: rule["status"] = 429
        case .reset: rule["action"] = "reset"
        case .truncated: rule["action"] = "truncated"
        case .malformedJSON: rule["action"] = "malformed"
        case .wrongContentType: rule["action"] = "wrongContentType"
        case .oversized: rule["action"] = "oversized"
        case .untrustedTLS: return nil
        }
        return .object(rule)
    }
}
