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
        WebViewHierarchy(treatAllWebViewsAsUnmanaged: flag("TreatAllWebViewsAsUnmanaged"))
    }

    /// What the Intune rule on auth web views needs from the profile.
    public func intuneAuthContext(appInitiated: Bool) -> IntuneAuthContext {
        IntuneAuthContext(
            appInitiated: appInitiated,
            safariViewControllerBlockedOverride: flag("SafariViewControllerBlockedOverride"))
    }
}
