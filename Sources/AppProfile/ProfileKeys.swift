/// The keys and values the Intune App SDK for iOS guide defines for an app's Info.plist and
/// entitlements.
public enum ProfileKeys {
    public static let intuneMAMSettings = "IntuneMAMSettings"
    public static let appBoundDomains = "WKAppBoundDomains"
    public static let queriesSchemes = "LSApplicationQueriesSchemes"
    public static let faceIDUsageDescription = "NSFaceIDUsageDescription"
    /// The app's MSAL client capabilities (`clientApplicationCapabilities`), an array of strings.
    public static let clientCapabilities = "MSALClientCapabilities"
    public static let bundleIdentifier = "CFBundleIdentifier"
    /// The app's URL types: an array of dictionaries, each with `CFBundleURLSchemes`.
    public static let urlTypes = "CFBundleURLTypes"
    public static let urlSchemes = "CFBundleURLSchemes"
    /// Read in `IntuneMAMSettings` and, as the web-view guide writes it ("set
    /// `TreatAllWebViewsAsUnmanaged` to `YES` in the app's `Info.plist`"), at the top level.
    public static let treatAllWebViewsAsUnmanaged = "TreatAllWebViewsAsUnmanaged"
    public static let webViewHandledURLSchemes = "WebViewHandledURLSchemes"
    public static let keychainAccessGroups = "keychain-access-groups"
    public static let applicationGroups = "com.apple.security.application-groups"
    public static let webBrowserEntitlement = "com.apple.developer.web-browser"

    /// The colour settings: `#XXXXXX` hexadecimal RGB, the pound sign optional.
    public static let colorSettings = [
        "BackgroundColor", "ForegroundColor", "AccentColor", "SecondaryBackgroundColor", "SecondaryForegroundColor",
    ]

    /// `MaxFileProtectionLevel`'s possible values.
    public static let fileProtectionLevels = [
        "NSFileProtectionComplete", "NSFileProtectionCompleteUnlessOpen",
        "NSFileProtectionCompleteUntilFirstUserAuthentication", "NSFileProtectionNone",
    ]

    /// What every app adds to `LSApplicationQueriesSchemes` besides the `-intunemam` twins of its
    /// own schemes: the managed browsers' schemes and the Mobile Threat Defense apps' schemes.
    public static let requiredQuerySchemes = [
        "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam", "microsoft-edge-https-intunemam",
        "smart-ns", "zips", "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield",
        "smsec", "mvisionmobile", "scmx",
    ]
    /// The suffix of the twin of each scheme the app queries.
    public static let twinSuffix = "-intunemam"
    /// Required when the app uses `mailto:`.
    public static let outlookQueryScheme = "ms-outlook-intunemam"

    /// Xcode's placeholder for the team id in entitlements files.
    public static let appIdentifierPrefix = "$(AppIdentifierPrefix)"
    /// The keychain group the Intune SDK stores its data in.
    public static let intuneKeychainGroup = "com.microsoft.intune.mam"
    /// MSAL's shared cache group, unless `ADALCacheKeychainGroupOverride` names another.
    public static let msalCacheKeychainGroup = "com.microsoft.adalcache"

    /// The default purpose string `fix` writes.
    public static let defaultFaceIDUsageDescription =
        "Face ID can be used to unlock this app when your organization's policy allows it."

    /// The type each known key must have.
    enum ValueType: String {
        case string, boolean, number, dictionary
        case stringArray = "array of strings"
        /// `CFBundleURLTypes`: each item a dictionary (its `CFBundleURLSchemes` checked apart).
        case dictionaryArray = "array of dictionaries"
    }

    /// Known top-level Info.plist keys.
    static let infoTypes: [String: ValueType] = [
        intuneMAMSettings: .dictionary, appBoundDomains: .stringArray, queriesSchemes: .stringArray,
        faceIDUsageDescription: .string, bundleIdentifier: .string, treatAllWebViewsAsUnmanaged: .boolean,
        urlTypes: .dictionaryArray,
    ]

    /// Known keys of each `CFBundleURLTypes` item.
    static let urlTypeTypes: [String: ValueType] = [urlSchemes: .stringArray]

    /// Known `IntuneMAMSettings` keys (the guide's settings table, plus TreatAllWebViewsAsUnmanaged).
    static let settingTypes: [String: ValueType] = {
        var types: [String: ValueType] = [:]
        for key in [
            "ADALClientId", "ADALAuthority", "ADALRedirectUri", "ADALRedirectScheme", "ADALCacheKeychainGroupOverride",
            "ContainingAppBundleId", "SplashIconFile", "SplashIconFile~ipad", "MaxFileProtectionLevel",
            "DocumentBrowserFileCachePath",
        ] + colorSettings { types[key] = .string }
        for key in [
            "ADALLogOverrideDisabled", "AutoEnrollOnLaunch", "MAMPolicyRequired", "MAMPolicyWarnAbsent", "MultiIdentity",
            "SafariViewControllerBlockedOverride", "SupportsDarkMode", "MAMTelemetryDisabled", "MAMTelemetryUsePPE",
            "OpenInActionExtension", "VerboseLoggingEnabled", "FinishLaunchingAtStartup", "TreatAllWebViewsAsUnmanaged",
        ] { types[key] = .boolean }
        for key in ["AppGroupIdentifiers", "WebViewHandledURLSchemes", "ValuesToScrubFromLogging"] { types[key] = .stringArray }
        types["SplashDuration"] = .number
        return types
    }()

    /// Known entitlements keys.
    static let entitlementTypes: [String: ValueType] = [
        keychainAccessGroups: .stringArray, applicationGroups: .stringArray, webBrowserEntitlement: .boolean,
    ]
}

extension PlistValue {
    func matches(_ type: ProfileKeys.ValueType) -> Bool {
        switch (type, self) {
        case (.string, .string), (.boolean, .bool), (.number, .integer), (.number, .real), (.dictionary, .dictionary):
            true
        case (.stringArray, _):
            stringArrayValue != nil
        case (.dictionaryArray, .array(let items)):
            items.allSatisfy { $0.dictionaryValue != nil }
        default:
            false
        }
    }
}
