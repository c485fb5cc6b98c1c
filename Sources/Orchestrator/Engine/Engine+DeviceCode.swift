import ComplianceCore
import HTTPClient

extension Engine {
    /// How a device-code sign-in ended before a token answer.
    enum DeviceSignIn {
        /// The token endpoint's answer to classify (tokens, or an error other than the polling ones).
        case reply(TokenEndpointReply)
        /// The person declined (`access_denied`, `authorization_declined`) or the session was cancelled.
        case cancelled
        /// The code expired before anyone signed in.
        case expired(String)
    }

    /// RFC 8628: asks for a device code, publishes the verification URI and user code on
    /// `session`, then polls the token endpoint every `interval` seconds, as each answer's
    /// meaning says (``DeviceCodePoll``), until a sign-in, a refusal, the code's expiry, or
    /// the session's cancellation.
    nonisolated func signInOnAnotherDevice(_ issuer: IssuerClient, scopes: [String], claims: String?, session: InteractionSession) async throws(IssuerError) -> DeviceSignIn {
        let authorization = try await issuer.deviceAuthorization(scopes: scopes, claims: claims)
        let expires = ContinuousClock.now + .seconds(authorization.expiresIn)
        guard session.prompt(InteractionSession.Prompt(
            verificationURI: authorization.verificationURI, verificationURIComplete: authorization.verificationURIComplete,
            userCode: authorization.userCode, message: authorization.message,
            expiresAt: OrchestratorStore.wallClock() + Int64(authorization.expiresIn) * 1000))
        else { return .cancelled }
        var interval = authorization.interval
        while true {
            let next = ContinuousClock.now + .seconds(interval)
            while ContinuousClock.now < next, !session.isCancelled, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(50)) }
            if session.isCancelled || Task.isCancelled { return .cancelled }
            if ContinuousClock.now >= expires { return .expired("the device code expired after \(authorization.expiresIn) s before anyone signed in") }
            let reply = try await issuer.requestToken(.deviceCode(authorization.deviceCode), scopes: [], claims: claims)
            switch DeviceCodePoll.classify(status: reply.status, body: reply.body) {
            case .pending: continue
            case .slowDown: interval += DeviceCodePoll.slowDownIncrementSeconds
            case .declined: return .cancelled
            case .expired: return .expired("the issuer says the device code expired before anyone signed in")
            case .final: return .reply(reply)
            }
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
