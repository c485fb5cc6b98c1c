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

    /// The app's own partition, computed once: every token read of an app without overrides
    /// (the hot path of a cache hit) uses it.
    private let appPartition: String

    init(base: IssuerClient) {
        self.base = base
        state = Mutex((SettingsOverrides(), base))
        appPartition = Self.partition(clientID: base.configuration.clientID, authority: base.configuration.authority.url)
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

    /// The client that talks to `environment`'s issuer as its client: the one in force when
    /// the environment is, else one built for it (a request that started before the
    /// overrides changed still goes to the issuer whose tokens it carries).
    func client(for environment: TokenEnvironment) -> IssuerClient {
        state.withLock { state in
            if TokenEnvironment(state.overrides) == environment { return state.client }
            if environment == .app { return base }
            let overrides = SettingsOverrides(authority: environment.authority, clientID: environment.clientID, redirectURI: state.overrides.redirectURI)
            return IssuerClient(configuration: Self.configuration(base.configuration, overrides), http: base.http, logger: base.logger)
        }
    }

    /// The token store's partition for `environment`: its client id and authority, so tokens
    /// are stored, read and removed per issuer and client, as MSAL keys its cache.
    func partition(_ environment: TokenEnvironment) -> String {
        if environment == .app { return appPartition }
        return Self.partition(clientID: environment.clientID ?? base.configuration.clientID, authority: environment.authority ?? base.configuration.authority.url)
    }

    /// `clientID`, a space, the authority without trailing slashes and with its scheme and
    /// host lowercased (a client id holds no space, a URL none unescaped).
    static func partition(clientID: String, authority: String) -> String {
        clientID + " " + normalizedAuthority(authority)
    }

    static func normalizedAuthority(_ authority: String) -> String {
        var url = authority
        while url.hasSuffix("/") { url.removeLast() }
        guard let schemeEnd = url.range(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex(of: "/") ?? url.endIndex
        return url[..<hostEnd].lowercased() + url[hostEnd...]
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
