/// Why a token could not be acquired.
public enum TokenAcquisitionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// AADSTS53005: remediate with the MAM service (`RemediationStateMachine.remediate`).
    case protectionPolicyRequired(ProtectionPolicyRequired)
    /// The user must sign in; `nil` when no server said so (no refresh token and
    /// interaction not allowed).
    case interactionRequired(InteractionRequired?)
    /// AADSTS53009: the app lacks the `protapp` capability.
    case capabilityMissing(ServerError)
    case serviceFailure(ServiceFailure)
    /// The request never got an answer (connection refused, reset, timeout).
    case networkFailure(String)
    case userCancelled
    case requestRejected(ServerError)
    case malformedResponse(MalformedResponse)
    /// The server's claims challenge could not be merged into a request.
    case invalidClaimsChallenge(ClaimsError)
    /// The app may not hand this account a token: the policy's allowed accounts leave it out,
    /// or it is being signed out and wiped (before or while the request ran).
    case accountRemoved

    /// The compliance status a remediation reports for this failure.
    public var complianceStatus: ComplianceStatus {
        switch self {
        case .interactionRequired: .interactionRequired
        case .serviceFailure, .malformedResponse, .invalidClaimsChallenge: .serviceFailure
        case .networkFailure: .networkFailure
        case .userCancelled: .userCancelled
        case .protectionPolicyRequired, .capabilityMissing, .requestRejected, .accountRemoved: .notCompliant
        }
    }

    /// What happened and what to do.
    public var message: String {
        switch self {
        case .protectionPolicyRequired:
            "Your organization requires app protection policy for this account; the app will enroll it with the app management service."
        case .interactionRequired(let required):
            // The server's (or the sign-in page's) reason, its first line, when it gave one.
            if let reason = required?.serverError.errorDescription?.split(whereSeparator: \.isNewline).first {
                "The account must sign in again (\(reason))."
            } else {
                "The account must sign in again."
            }
        case .capabilityMissing:
            "This app does not declare the protapp capability your organization requires (AADSTS53009); update the app's configuration."
        case .serviceFailure(let failure):
            "The token service failed (\(failure)); try again later."
        case .networkFailure(let reason):
            "The token service could not be reached (\(reason)); check the network and try again."
        case .userCancelled:
            "Sign-in was cancelled."
        case .requestRejected(let error):
            "The token service rejected the request (\(error)); check the app's client id, redirect URI and scopes."
        case .malformedResponse(let malformed):
            "The token service sent an unusable answer: \(malformed.message)."
        case .invalidClaimsChallenge(let error):
            "\(error.description)."
        case .accountRemoved:
            "This app may not hand the account a token: the organization's allowed accounts leave it out, or it is being signed out and its data wiped."
        }
    }

    public var description: String { message }
}
