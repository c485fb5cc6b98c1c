import ComplianceCore

/// What the daemon (and an engine built without it) reads from the app's Info.plist: `IntuneMAMSettings` `ADALClientId`,
/// `ADALAuthority` (absent: the common authority, ``DaemonConfiguration/commonAuthority``),
/// `ADALRedirectUri` (or `ADALRedirectScheme`, meaning the redirect `scheme://bundle_id` with
/// the app's `CFBundleIdentifier`), the top-level `MSALClientCapabilities` (absent: none, so a
/// user that app protection CA targets gets AADSTS53009, as MSAL without
/// `clientApplicationCapabilities`; `profile lint` reports it), and what the web decisions need
/// (`TreatAllWebViewsAsUnmanaged`, `WebViewHandledURLSchemes`).
public struct AppSettings: Sendable, Hashable {
    public var clientID: String
    public var authority: String?
    public var redirectURI: String
    public var capabilities: [String]
    /// `AutoEnrollOnLaunch`, `MAMPolicyRequired`, `MAMPolicyWarnAbsent` (all NO by default).
    public var launch: LaunchSettings
    /// `MultiIdentity` (NO by default): the app sets its process and UI identities itself.
    public var multiIdentity: Bool
    /// `TreatAllWebViewsAsUnmanaged` and `WebViewHandledURLSchemes`.
    public var webViews = WebViewAppSettings()

    public init(
        clientID: String, authority: String?, redirectURI: String, capabilities: [String], launch: LaunchSettings = LaunchSettings(),
        multiIdentity: Bool = false
    ) {
        self.clientID = clientID
        self.authority = authority
        self.redirectURI = redirectURI
        self.capabilities = capabilities
        self.launch = launch
        self.multiIdentity = multiIdentity
    }

    /// The key the capabilities are read from.
    public static let capabilitiesKey = ProfileKeys.clientCapabilities

    /// Reads the profile; a missing client id or redirect is an error naming the key.
    public static func load(infoPlist path: String) throws -> AppSettings {
        let profile = try AppProfile.load(infoPlist: path)
        guard let clientID = profile.setting("ADALClientId"), !clientID.isEmpty else {
            throw AppSettingsError("\(path): IntuneMAMSettings.ADALClientId is missing; the daemon needs the app's client id")
        }
        let redirect: String
        if let uri = profile.setting("ADALRedirectUri"), !uri.isEmpty {
            redirect = uri
        } else if let scheme = profile.setting("ADALRedirectScheme"), !scheme.isEmpty {
            // The guide: "if the application's redirect URI is in the format scheme://bundle_id".
            guard let bundle = profile.bundleIdentifier, !bundle.isEmpty else {
                throw AppSettingsError("\(path): IntuneMAMSettings.ADALRedirectScheme needs CFBundleIdentifier (the redirect URI is scheme://bundle_id), and CFBundleIdentifier is missing")
            }
            redirect = "\(scheme)://\(bundle)"
        } else {
            throw AppSettingsError("\(path): IntuneMAMSettings has neither ADALRedirectUri nor ADALRedirectScheme")
        }
        var capabilities: [String] = []
        if let declared = profile.info[capabilitiesKey] {
            guard let list = declared.stringArrayValue else {
                throw AppSettingsError("\(path): \(capabilitiesKey) must be an array of strings, got \(declared.typeName)")
            }
            capabilities = list
        }
        let launch = LaunchSettings(
            autoEnrollOnLaunch: profile.flag("AutoEnrollOnLaunch"), policyRequired: profile.flag("MAMPolicyRequired"),
            warnAbsent: profile.flag("MAMPolicyWarnAbsent"))
        var settings = AppSettings(
            clientID: clientID, authority: profile.setting("ADALAuthority"), redirectURI: redirect, capabilities: capabilities, launch: launch,
            multiIdentity: profile.flag("MultiIdentity"))
        settings.webViews = profile.webViewAppSettings()
        return settings
    }
}

/// A profile the daemon cannot run with.
public struct AppSettingsError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
