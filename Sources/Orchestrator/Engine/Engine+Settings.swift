import ComplianceCore

/// The app's Entra settings as the engine uses them: the profile's, and the runtime overrides
/// (`IntuneMAMSettings` `aadAuthorityUriOverride`, `aadClientIdOverride`, `aadRedirectUriOverride`).
extension Engine {
    /// One override in a change: left as it is, cleared, or set.
    public enum OverrideChange: Sendable, Hashable {
        case keep, clear
        case set(String)

        func applied(to current: String?) -> String? {
            switch self {
            case .keep: current
            case .clear: nil
            case .set(let value): value
            }
        }
    }

    /// The settings in force, the profile's, and the runtime overrides.
    public func settingsView() -> SettingsView {
        func settings(_ configuration: IssuerConfiguration) -> SettingsView.Settings {
            .init(authority: configuration.authority.url, clientID: configuration.clientID, redirectURI: configuration.redirectURI)
        }
        return SettingsView(inForce: settings(issuer.configuration), profile: settings(issuers.base.configuration), overrides: machine.settingsOverrides)
    }

    /// Changes the runtime overrides (each `keep`, `clear` or `set`), stored until the
    /// managed user is unenrolled; answers ``settingsView()``. A value that cannot be an
    /// override is `bad_request` naming it, and nothing changes.
    public func updateSettingsOverrides(authority: OverrideChange, clientID: OverrideChange, redirectURI: OverrideChange) async throws(EngineError) -> SettingsView {
        let current = machine.settingsOverrides
        let next = SettingsOverrides(
            authority: authority.applied(to: current.authority), clientID: clientID.applied(to: current.clientID),
            redirectURI: redirectURI.applied(to: current.redirectURI))
        if let problem = SettingsOverrides.problem(authority: next.authority, clientID: next.clientID, redirectURI: next.redirectURI) {
            throw EngineError(.badRequest, problem)
        }
        try await ask("a settings change") { machine, ticket in
            machine.setSettingsOverrides(next, ticket: ticket, now: clock.now)
        } narrow: {
            if case .settings = $0 { () } else { nil }
        }
        return settingsView()
    }
}
