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

    /// Ends a browser session (logout).
    func endSession(_ id: String) {
        locked { $0.sessions[id] = nil }
    }
}
