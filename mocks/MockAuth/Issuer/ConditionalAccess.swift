/// The app-protection conditional-access policy.
///
/// A user it targets gets no token for any resource but the MAM service until (user, app)
/// has reported compliance to the MAM service. With `protapp` declared the answer is the
/// remediable AADSTS53005 (`unauthorized_client` + `protection_policy_required`); without
/// it, AADSTS53009 (`invalid_grant`), which an app cannot remediate. `protapp` is matched
/// ignoring case, as Entra does (the SDK guide's Swift sample declares `ProtApp`).
enum ConditionalAccess {
    static let message = "Application needs to enforce Intune protection policies."
    /// The policy's id, as a `capolids` claims challenge names it.
    static let policyId = "5a3d1c9e-7b2f-4e6a-8d1c-3f9b7e2a4c6d"
    /// The claims challenge of an on-behalf-of refusal: the middle tier hands it to its caller,
    /// which signs in again with it (Entra's `capolids` shape).
    static let claimsChallenge = #"{"access_token":{"capolids":{"essential":true,"values":["\#(policyId)"]}}}"#

    /// Throws the CA error when the request must be blocked.
    static func evaluate(
        user: Fixtures.User, clientId: String, scopes: ScopeRequest, capabilities: [String], state: MockState
    ) throws(OAuthError) {
        guard user.caTargeted, !scopes.isMAMService else { return }
        if state.isCompliant(AccountApp(upn: user.upn, appId: clientId)) { return }
        var error: OAuthError
        if capabilities.contains(where: { $0.lowercased() == "protapp" }) {
            error = .unauthorizedClient(code: 53005, message)
            error.suberror = "protection_policy_required"
            error.extra = ["adi": user.upn.lowercased()]
        } else {
            error = .invalidGrant(code: 53009, message)
        }
        error.status = .init(code: state.caErrorStatus)
        state.metrics.conditionalAccessBlocked(aadsts: error.aadsts)
        throw error
    }
}
