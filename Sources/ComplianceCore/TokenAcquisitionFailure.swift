/// Why a token could not be acquired.
public enum TokenAcquisitionFailure: Error, Sendable, Hashable, CustomStringConvertible, Codable {
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
    /// The issuer granted fewer scopes than asked (MSAL's declined-scopes error).
    case declinedScopes(DeclinedScopes)
    /// The issuer's sign-in cannot work as configured: its authorize endpoint refused the
    /// request (4xx), showed a page that is not a sign-in form, or redirected back with an
    /// error such as `invalid_scope` or `unauthorized_client`. The message quotes its answer.
    case issuerConfiguration(String)
    /// The issuer signed in another person than the account asked for (MSAL's mismatched
    /// user): nothing is kept; the right person must sign in.
    case accountMismatch(AccountMismatch)
    /// The token cache could not be read (the reason from the store): nothing was sent, and
    /// nothing the store holds was changed.
    case tokenCacheUnreadable(String)

    /// The compliance status a remediation reports for this failure.
    public var complianceStatus: ComplianceStatus {
        switch self {
        case .interactionRequired, .accountMismatch: .interactionRequired
        case .serviceFailure, .malformedResponse, .invalidClaimsChallenge, .issuerConfiguration, .tokenCacheUnreadable: .serviceFailure
        case .networkFailure: .networkFailure
        case .userCancelled: .userCancelled
        case .protectionPolicyRequired, .capabilityMissing, .requestRejected, .accountRemoved, .declinedScopes: .notCompliant
        }
    }

    /// What happened and what to do.
    public var message: String {
        switch self {
        case .protectionPolicyRequired:
            "Your organization requires app protection policy for this account (AADSTS53005): it must be enrolled with the app management service, which remediation does when the app has one."
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
        case .requestRejected(let error) where error.derivedFromStatus:
            "The token service refused the request with HTTP \(error.status) and no OAuth error (\(error.errorDescription ?? "no body")); check the app's client id, client secret and redirect URI."
        case .requestRejected(let error):
            "The token service rejected the request (\(error)\(error.errorDescription.flatMap { $0.split(whereSeparator: \.isNewline).first }.map { ": \($0)" } ?? "")); check the app's client id, client secret, redirect URI and scopes."
        case .declinedScopes(let scopes):
            "The token service declined scopes: it granted [\(scopes.granted.joined(separator: " "))] and declined [\(scopes.declined.joined(separator: " "))]; ask for the granted scopes only, or have the declined ones consented for the app."
        case .issuerConfiguration(let answer):
            "The token service's sign-in cannot work as configured: \(answer); check the authority, client id and redirect URI."
        case .malformedResponse(let malformed):
            "The token service sent an unusable answer: \(malformed.message)."
        case .invalidClaimsChallenge(let error):
            "\(error.description)."
        case .accountMismatch(let mismatch):
            "The sign-in is not \(mismatch.account.upn)'s: \(mismatch); nothing was kept. Sign in as \(mismatch.account.upn)."
        case .tokenCacheUnreadable(let reason):
            "The token cache cannot be read (\(reason)); the request was not sent. Try again; if it persists, check the storage of the state directory."
        case .accountRemoved:
            "This app may not hand the account a token: the organization's allowed accounts leave it out, or it is being signed out and its data wiped."
        }
    }

    public var description: String { message }
}
