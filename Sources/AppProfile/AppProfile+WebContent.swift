import ComplianceCore

extension AppProfile {
    /// What the App-Bound Domains decisions need: `WKAppBoundDomains` (absent key: not opted in)
    /// and the `com.apple.developer.web-browser` entitlement.
    /// Throws when the list is longer than WebKit allows.
    public func appBoundSettings() throws(WebContentError) -> AppBoundSettings {
        let domains = try info[ProfileKeys.appBoundDomains]?.stringArrayValue.map { (list) throws(WebContentError) in
            try AppBoundDomains(list)
        }
        let browser = entitlements?[ProfileKeys.webBrowserEntitlement]?.boolValue ?? false
        return AppBoundSettings(appBoundDomains: domains, hasWebBrowserEntitlement: browser)
    }

    /// An empty web-view hierarchy carrying the app's `TreatAllWebViewsAsUnmanaged`.
    public func webViewHierarchy() -> WebViewHierarchy {
        WebViewHierarchy(treatAllWebViewsAsUnmanaged: treatAllWebViewsAsUnmanaged)
    }

    /// `TreatAllWebViewsAsUnmanaged` set to YES in `IntuneMAMSettings` or at the top level of the
    /// Info.plist: the SDK guide lists it among the settings, and its web-view chapter says to
    /// set it "in the app's `Info.plist`"; an app that follows either gets its web views unmanaged.
    public var treatAllWebViewsAsUnmanaged: Bool {
        flag(ProfileKeys.treatAllWebViewsAsUnmanaged) || info[ProfileKeys.treatAllWebViewsAsUnmanaged]?.boolValue == true
    }

    /// What the running app's web decisions need from the profile: `TreatAllWebViewsAsUnmanaged`
    /// and `WebViewHandledURLSchemes`.
    public func webViewAppSettings() -> WebViewAppSettings {
        WebViewAppSettings(
            treatAllWebViewsAsUnmanaged: treatAllWebViewsAsUnmanaged,
            handledURLSchemes: intuneSettings[ProfileKeys.webViewHandledURLSchemes]?.stringArrayValue ?? [])
    }

    /// The entries of `WebViewHandledURLSchemes` that are no scheme of the app's own, in list
    /// order: blank, not a URL scheme, or the web's (`http`, `https`, the managed browser's
    /// `microsoft-edge-http(s)`), any case.
    var invalidHandledURLSchemes: [String] {
        (intuneSettings[ProfileKeys.webViewHandledURLSchemes]?.stringArrayValue ?? []).filter {
            !Self.isURLScheme($0) || Self.webSchemes.contains($0.lowercased())
        }
    }

    /// The schemes web pages and the managed browser use: the link policy's, never an app's.
    static let webSchemes: Set<String> = ["http", "https", "microsoft-edge-http", "microsoft-edge-https"]

    /// Whether `text` is a URL scheme: a letter, then letters, digits, `+`, `-` or `.` (RFC 3986).
    static func isURLScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    /// The schemes of `CFBundleURLTypes`, each type's `CFBundleURLSchemes` in order.
    public var urlSchemes: [String] {
        (info[ProfileKeys.urlTypes]?.arrayValue ?? []).flatMap { $0.dictionaryValue?[ProfileKeys.urlSchemes]?.stringArrayValue ?? [] }
    }

    /// The URL scheme pair the profile lacks, when no scheme has its counterpart (the guide: "at
    /// least one schemeURL defined under its Info.plist `CFBundleURLTypes` along with its
    /// `-intunemam` counterpart"): the first base scheme and its missing `-intunemam` twin, or,
    /// when the app lists only twins, the first twin and its missing base. Nil when one pair is
    /// there (any scheme `x` beside `x-intunemam`, any case) or the app has no valid URL scheme.
    var urlSchemePairMissing: (present: String, missing: String)? {
        let schemes = urlSchemes.filter(Self.isURLScheme)
        let lowered = Set(schemes.map { $0.lowercased() })
        let suffix = ProfileKeys.twinSuffix
        guard !schemes.contains(where: { lowered.contains($0.lowercased() + suffix) }) else { return nil }
        if let base = schemes.first(where: { !$0.lowercased().hasSuffix(suffix) }) { return (base, base + suffix) }
        if let twin = schemes.first(where: { $0.count > suffix.count }) { return (twin, String(twin.dropLast(suffix.count))) }
        return nil
    }

    /// What the Intune rule on auth web views needs from the profile.
    public func intuneAuthContext(appInitiated: Bool) -> IntuneAuthContext {
        IntuneAuthContext(
            appInitiated: appInitiated,
            safariViewControllerBlockedOverride: flag("SafariViewControllerBlockedOverride"))
    }
}
