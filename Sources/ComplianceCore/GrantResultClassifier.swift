/// What a grant that got no token answer means to the machine (``ComplianceMachine/GrantResult``):
/// an error the issuer's sign-in redirected back with, a sign-in nobody finished, and what
/// went wrong talking to the issuer. Pure, beside ``TokenResponseClassifier`` (which reads the
/// token endpoint's answers); the Orchestrator only reports what happened.
public enum GrantResultClassifier {
    /// What went wrong talking to the issuer, as the issuer client saw it.
    public enum Problem: Sendable, Hashable, Codable {
        /// No answer (connection refused or reset, a timeout).
        case network(String)
        /// The issuer's sign-in cannot work as configured (its authorize endpoint refused).
        case misconfigured(String)
        /// The answer's id_token does not hold (signature, issuer, audience, nonce, times).
        case invalidIDToken(String)
        /// The sign-in page did not let the user in (a wrong password, no form); the HTTP
        /// status when there was one.
        case signInFailed(status: Int?, message: String)
        /// The issuer failed (an HTTP status), with its `Retry-After`, when given.
        case serviceFailure(status: Int, retryAfterSeconds: Int?)
        /// Anything else the client could not use (`code` names it).
        case other(code: String, message: String)
    }

    /// The grant's result for `problem`.
    public static func result(of problem: Problem) -> ComplianceMachine.GrantResult {
        switch problem {
        case .network(let message):
            return .transportFailed(message)
        case .misconfigured(let message):
            return .misconfigured(message)
        case .invalidIDToken(let message):
            // Nothing of an answer whose id_token does not hold is kept.
            return .response(.malformed(MalformedResponse(status: 200, message: "its id_token was refused: \(message)")))
        case .signInFailed(let status, let message):
            // The app needs the user again, as a failed interactive sign-in is for MSAL; not a
            // broken service.
            let server = ServerError(status: status ?? 200, error: "sign_in_failed", errorDescription: message, errorCodes: AADSTSCodes.codes(in: message))
            return .response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: server)))
        case .serviceFailure(let status, let retryAfter):
            return .response(.serviceFailure(ServiceFailure(status: status, retryAfter: retryAfter.flatMap(RetryAfterHolds.wait(seconds:)))))
        case .other(let code, let message):
            return .response(.malformed(MalformedResponse(status: 0, message: "\(code): \(message)")))
        }
    }

    /// An error the issuer's sign-in redirected back with (RFC 6749 §4.1.2.1), other than
    /// `access_denied` (the user's: cancelled). There is no HTTP status to report: the
    /// redirect is the answer.
    public static func redirectError(_ code: String, _ description: String?) -> ComplianceMachine.GrantResult {
        let detail = description.map { ": \($0)" } ?? ""
        switch code {
        case "login_required", "interaction_required", "consent_required", "account_selection_required":
            let error = ServerError(status: 302, error: code, errorDescription: description)
            return .response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: error)))
        case "server_error", "temporarily_unavailable":
            return .response(.serviceFailure(ServiceFailure(status: 503, serverError: ServerError(status: 503, error: code, errorDescription: description))))
        default:
            return .misconfigured("its sign-in redirected back with error \(code)\(detail)")
        }
    }

    /// A sign-in a person did not finish (no redirect in time, an expired device code): the
    /// account still needs its user.
    public static func interactionEnded(_ detail: String) -> ComplianceMachine.GrantResult {
        let error = ServerError(status: 0, error: "interaction_timeout", errorDescription: detail)
        return .response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: error)))
    }

    /// An interactive grant with nobody to ask: the caller whose person would sign in is gone
    /// (answered, or a request resumed after a restart). Not a cancel (nobody pressed
    /// anything): the account still needs its user, as MSAL answers when no UI can be shown.
    public static func nobodyToAsk() -> ComplianceMachine.GrantResult {
        let error = ServerError(status: 0, error: "interaction_required", errorDescription: "nobody is there to sign in")
        return .response(.interactionRequired(InteractionRequired(reason: .interactionRequired, serverError: error)))
    }

    /// A successful token answer that carries no id_token: OpenID Connect Core 3.1.3.3 has a
    /// code redeemed for `openid` come with one, so an interactive sign-in that sent a nonce
    /// (`openIDSignIn`) gets a malformed answer; the password and device-code grants, like a
    /// refresh, may come without one (their answer stands).
    public static func withoutIDToken(_ response: TokenResponse, status: Int, openIDSignIn: Bool) -> ComplianceMachine.GrantResult {
        guard openIDSignIn else { return .response(response) }
        return .response(.malformed(MalformedResponse(status: status, message: "the issuer sent no id_token for an OpenID Connect sign-in")))
    }
}
