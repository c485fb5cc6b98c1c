import Foundation

extension MockState {
    /// Starts a browser session for `upn` (the sign-in page's cookie); returns its id.
    func startSession(upn: String) -> String {
        let id = Base64URL.randomToken()
        locked { $0.sessions[id] = upn.lowercased() }
        return id
    }

    /// The UPN signed in under session `id`.
    func sessionUser(_ id: String) -> String? {
        locked { $0.sessions[id] }
    }

    /// Records that `upn` consented, for `clientId`, to `scopes`' consent-requiring scopes.
    func recordConsent(upn: String, clientId: String, scopes: ScopeRequest) {
        guard let resource = scopes.resource, !scopes.consentScopes.isEmpty else { return }
        locked { state in
            for scope in scopes.consentScopes { state.consents.insert(Self.consentKey(upn, clientId, resource, scope)) }
        }
    }

    /// The consent-requiring scopes of `scopes` that `upn` has not consented to for `clientId`.
    func missingConsent(upn: String, clientId: String, scopes: ScopeRequest) -> [String] {
        guard let resource = scopes.resource, !scopes.consentScopes.isEmpty else { return [] }
        return locked { state in
            scopes.consentScopes.filter { !state.consents.contains(Self.consentKey(upn, clientId, resource, $0)) }
        }
    }

    private static func consentKey(_ upn: String, _ clientId: String, _ resource: String, _ scope: String) -> String {
        "\(upn)|\(clientId)|\(resource)/\(scope)".lowercased()
    }

    /// Ends a browser session (logout).
    func endSession(_ id: String) {
        locked { $0.sessions[id] = nil }
    }
}
