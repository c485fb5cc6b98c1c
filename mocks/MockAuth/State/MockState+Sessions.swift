import Foundation

/// A browser session of the sign-in page: who signed in with a password, and when.
struct BrowserSession: Sendable, Hashable {
    /// Lowercased UPN.
    var upn: String
    /// When the person last entered their password (mock clock): an id token's `auth_time`.
    var authTime: Date
}

extension MockState {
    /// Starts a browser session for `upn` (the sign-in page's cookie), signed in now; returns its id.
    func startSession(upn: String) -> String {
        let id = Base64URL.randomToken()
        locked { $0.sessions[id] = BrowserSession(upn: upn.lowercased(), authTime: $0.now()) }
        return id
    }

    /// The UPN signed in under session `id`.
    func sessionUser(_ id: String) -> String? {
        locked { $0.sessions[id]?.upn }
    }

    /// The session `id`, when it is live.
    func session(_ id: String) -> BrowserSession? {
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
