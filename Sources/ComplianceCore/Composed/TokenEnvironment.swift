/// The issuer and client a cached token belongs to, as MSAL keys its cache by environment and
/// client id: a token is only ever read for, presented to, or removed from the issuer and
/// client that issued it.
///
/// Each value is the app's runtime override in force (``SettingsOverrides``) when the token
/// request started; nil is the app's own setting (its Info.plist and the daemon's options).
/// The Orchestrator turns an environment into the concrete client id and authority it keys
/// the store by and sends the request to.
public struct TokenEnvironment: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The overridden authority URL; nil: the app's own.
    public var authority: String?
    /// The overridden client id; nil: the app's own.
    public var clientID: String?

    public init(authority: String? = nil, clientID: String? = nil) {
        self.authority = authority
        self.clientID = clientID
    }

    /// The environment the overrides put in force (the redirect URI does not key tokens).
    public init(_ overrides: SettingsOverrides) {
        self.init(authority: overrides.authority, clientID: overrides.clientID)
    }

    /// The app's own issuer and client.
    public static let app = TokenEnvironment()

    public var description: String {
        "\(authority ?? "app authority") / \(clientID ?? "app client")"
    }
}

extension ComplianceMachine {
    /// The issuer and client in force: every new token request reads, stores and sends tokens
    /// of this environment only.
    public var tokenEnvironment: TokenEnvironment { TokenEnvironment(settingsOverrides) }
}
