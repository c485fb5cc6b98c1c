import ComplianceCore
import Synchronization

/// The issuer client the engine talks to: the one built from the profile, or one rebuilt from
/// the app's runtime overrides of its Entra settings (``SettingsOverrides``). An overridden
/// authority keeps the profile's kind (Entra or OpenID Connect); an overridden client id is a
/// public client (the overrides are MSAL's public-client settings), so the daemon's client
/// secret is not sent for it.
final class IssuerSelection: Sendable {
    /// The client built from the profile and the daemon's options.
    let base: IssuerClient
    private let state: Mutex<(overrides: SettingsOverrides, client: IssuerClient)>

    init(base: IssuerClient) {
        self.base = base
        state = Mutex((SettingsOverrides(), base))
    }

    /// The client in force.
    var current: IssuerClient { state.withLock { $0.client } }

    /// Puts `overrides` in force; returns true when the client changed.
    func apply(_ overrides: SettingsOverrides) -> Bool {
        state.withLock { state in
            guard state.overrides != overrides else { return false }
            state.overrides = overrides
            state.client = overrides.isEmpty ? base : IssuerClient(configuration: Self.configuration(base.configuration, overrides), http: base.http, logger: base.logger)
            return true
        }
    }

    /// The profile's configuration with `overrides` applied.
    static func configuration(_ profile: IssuerConfiguration, _ overrides: SettingsOverrides) -> IssuerConfiguration {
        var configuration = profile
        if let authority = overrides.authority {
            configuration.authority = profile.authority.isEntra ? .entra(authority) : .oidc(authority)
        }
        if let clientID = overrides.clientID, clientID != profile.clientID {
            configuration.clientID = clientID
            configuration.clientAuthentication = .none
        }
        if let redirectURI = overrides.redirectURI { configuration.redirectURI = redirectURI }
        return configuration
    }
}
