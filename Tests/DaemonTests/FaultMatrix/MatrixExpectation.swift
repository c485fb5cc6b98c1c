import ComplianceCore

/// What each cell must show: the rules of DESIGN.md §2 applied to the matrix.
enum MatrixExpectation {
    static func cell(_ fault: MatrixFault, _ endpoint: MatrixEndpoint) -> MatrixObservation {
        var expected = MatrixObservation()
        let kind = fault.kind
        let failed = kind != .accepted
        let failure: ComplianceStatus = kind == .transport ? .networkFailure : .serviceFailure
        let tls = fault == .untrustedTLS
        switch endpoint {
        case .discovery, .token, .keys:
            // keys: every id_token is checked against the issuer's JWKS, fetched at the first
            // sign-in; a key set that cannot be fetched or read fails the sign-in as the token
            // endpoint would. TLS on the issuer's host stops the sign-in at discovery all the same.
            expected.status = failed ? failure : .compliant
        case .enrollRemediation, .reportCompliance:
            expected.status = failed ? failure : .compliant
            // Untrusted TLS on the MAM host stops the remediation at its first MAM call, enroll.
            expected.enrollmentStatus = failed ? mamStatus(kind, enroll: endpoint == .enrollRemediation || tls) : nil
            // A report that fails after the policy was applied ends a remediation of an account
            // holding managed data: it is wiped.
            expected.wiped = failed && endpoint == .reportCompliance && !tls
        case .enrollRegistration:
            expected.status = .compliant
            expected.enrollmentStatus = failed ? mamStatus(kind, enroll: true) : .newPoliciesReceived
            expected.schedule = failed ? "retry 24h" : "check-in 8h"
        case .checkIn:
            expected.enrollmentStatus = failed ? mamStatus(kind, enroll: false) : .policiesHaveNotChanged
            expected.schedule = "check-in 8h"
        case .unenroll:
            expected.enrollmentStatus = failed ? mamStatus(kind, enroll: false) : .unenrollmentSuccess
            expected.schedule = "removed"
        }
        expected.held = fault == .unavailableRetryAfter && endpoint.repeatsAtOnce
        if tls { expected.unreached = "TLS refused" }
        return expected
    }

    /// 205/212 for transport failures (enroll / other calls), 201 for 5xx and 429, 206 for unusable answers.
    private static func mamStatus(_ kind: MatrixFault.Kind, enroll: Bool) -> EnrollmentStatus {
        switch kind {
        case .transport: enroll ? .enrollmentEndPointNetworkFailure : .policyEndPointNetworkFailure
        case .service: .internalError
        case .unusable, .accepted: .parsingFailure
        }
    }
}
