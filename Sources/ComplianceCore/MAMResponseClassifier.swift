import JSON

/// The MAM service's answers in the machine's terms (``ComplianceMachine/MAMResult``), as
/// ``TokenResponseClassifier`` is for the issuer's: pure, fed what came back (an answer's JSON,
/// or how the call failed) and the request it answers. The Orchestrator's MAM client only
/// sends and receives.
///
/// - An answer carries the SDK's enrollment status (`status`). Each request accepts its own
///   successes: enroll 100, 103 or 208 with an `enrollmentId` (and the policy it brings);
///   check-in 100 (with a readable policy), 101, 102 or 103; unenroll 104; a compliance report
///   any success. Another success code is a 206 (the answer makes no sense for the request);
///   a failure code is that failure; no known code is 206.
/// - A compliance report may answer `complianceStatus` instead: 0 is reported; otherwise the
///   app is not compliant: 225 for the reason `noPolicy` (licensed, not targeted), else 214.
/// - A call without an answer: no connection is 205 for an enroll and 212 for the others; a
///   refused token (401, 403) 203; an answer that is not JSON 206; any other status 201.
public enum MAMResponseClassifier {
    /// How a call ended without an answer the service meant.
    public enum CallFailure: Sendable, Hashable, Codable {
        /// No answer (connection refused or reset, a timeout).
        case network
        /// HTTP 401 or 403: the service refused the token.
        case unauthorized
        /// HTTP 401 with a continuous-access-evaluation claims challenge (``BearerChallenge``):
        /// the claims JSON text to ask the issuer for a new token with.
        case claimsChallenge(String)
        /// An answer that is not a JSON object.
        case malformed
        /// Any other HTTP status (5xx, 429, another 4xx), with its `Retry-After` (delay-seconds).
        case status(Int, retryAfterSeconds: Int? = nil)
        /// No MAM service is configured to send it to (a store written while one was, resumed
        /// by a daemon started without one).
        case noService
    }

    /// How a 401 or 403 ended: a claims challenge when a 401's `WWW-Authenticate` carries
    /// one (``BearerChallenge``), else the plain refusal.
    public static func refused(status: Int, wwwAuthenticate: String?) -> CallFailure {
        guard status == 401, let header = wwwAuthenticate, let claims = BearerChallenge.claims(fromWWWAuthenticate: header) else { return .unauthorized }
        return .claimsChallenge(claims)
    }

    /// The machine's step result for a call that got no usable answer: ``classify(_:failure:detail:)``,
    /// and when the service failed (429 or 5xx) asking to wait (`Retry-After`, more than 0 s),
    /// that wait, which the machine holds (``RetryAfterHolds``), as MSAL and the issuer's
    /// ``TokenResponseClassifier`` do.
    public static func stepResult(_ request: ComplianceMachine.MAMRequest, failure: CallFailure, detail: String) -> ComplianceMachine.StepResult {
        let result = classify(request, failure: failure, detail: detail)
        guard case .status(let status, let seconds?) = failure, status == 429 || (500...599).contains(status), seconds > 0,
              let wait = RetryAfterHolds.wait(seconds: seconds)
        else { return .mam(result) }
        return .mamAskedToWait(result, .init(status: status, wait: wait))
    }

    /// A call that could not be sent because its MAM-resource token failed: AuthRequired (203,
    /// "sign in again"), except when the token cache could not be read, which no sign-in
    /// mends (InternalError).
    public static func tokenFailed(_ failure: TokenAcquisitionFailure) -> ComplianceMachine.MAMResult {
        let status: EnrollmentStatus = if case .tokenCacheUnreadable = failure { .internalError } else { .authRequired }
        return .failed(status, detail: "no token for the MAM service: \(failure.message)")
    }

    /// The result of a call that got no usable answer; `detail` says what happened.
    public static func classify(_ request: ComplianceMachine.MAMRequest, failure: CallFailure, detail: String) -> ComplianceMachine.MAMResult {
        if case .claimsChallenge(let claims) = failure { return .claimsChallenge(claims: claims, detail: detail) }
        let status: EnrollmentStatus = switch failure {
        case .network: if case .enroll = request { .enrollmentEndPointNetworkFailure } else { .policyEndPointNetworkFailure }
        case .malformed: .parsingFailure
        case .unauthorized, .claimsChallenge: .authRequired
        case .status, .noService: .internalError
        }
        return .failed(status, detail: detail)
    }

    /// The result of the service's answer `json` (HTTP 200) to `request`.
    public static func classify(_ request: ComplianceMachine.MAMRequest, answer json: JSONObject) -> ComplianceMachine.MAMResult {
        if case .reportCompliance = request, let compliance = json["complianceStatus"] {
            if compliance.intValue == 0 { return .complianceReported }
            let reason = json["reason"]?.stringValue ?? "unknown"
            let status: EnrollmentStatus = reason == "noPolicy" ? .licensedNotTargeted : .notEnrolledAccount
            return .failed(status, detail: "The MAM service reports the app not compliant (\(reason.prefix(200))).")
        }
        guard let code = json["status"]?.intValue, let status = EnrollmentStatus(rawValue: Int(code)) else {
            return .failed(.parsingFailure, detail: "the MAM service's answer has no known enrollment status")
        }
        switch request {
        case .enroll:
            guard status == .newPoliciesReceived || status == .alreadyEnrolled || status == .noPolicyReceived else {
                return .failed(status.isSuccess ? .parsingFailure : status, detail: nil)
            }
            guard let id = json["enrollmentId"]?.stringValue else {
                return .failed(.parsingFailure, detail: "The enroll answer carries no enrollmentId.")
            }
            return .enrolled(status, enrollmentID: id, policy: policy(from: json["policy"]))
        case .checkIn:
            switch status {
            case .newPoliciesReceived:
                guard let policy = policy(from: json["policy"]) else { return .failed(.parsingFailure, detail: "a new policy that cannot be read") }
                return .checkedIn(.newPoliciesReceived(policy))
            case .policiesHaveNotChanged: return .checkedIn(.policiesHaveNotChanged)
            case .wipeReceived: return .checkedIn(.wipeReceived)
            case .noPolicyReceived: return .checkedIn(.noPolicyReceived)
            default: return .failed(status.isSuccess ? .parsingFailure : status, detail: nil)
            }
        case .unenroll:
            return status == .unenrollmentSuccess ? .unenrolled : .failed(status.isSuccess ? .parsingFailure : status, detail: nil)
        case .reportCompliance:
            return status.isSuccess ? .complianceReported : .failed(status, detail: nil)
        }
    }

    /// The policy a MAM answer carries, in ComplianceCore's shape (a numeric version as a string).
    public static func policy(from json: JSONValue?) -> MAMPolicy? {
        guard var object = json?.objectValue else { return nil }
        if let number = object["version"]?.intValue { object["version"] = .string(String(number)) }
        return try? MAMPolicy(json: .object(object))
    }
}
