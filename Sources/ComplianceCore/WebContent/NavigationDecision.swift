/// Where links that leave the organization's web content may open (the app protection
/// policy's "restrict web content transfer" setting, reduced to what a web view needs).
public enum WebLinkPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// No restriction: external pages load in the view.
    case anyApp
    /// External pages open in the managed browser (Microsoft Edge) instead of the view.
    case managedBrowser
}

/// Which frame a navigation is for.
public enum WebFrame: Sendable, Hashable, Codable {
    /// The top-level frame: a new page.
    case top
    /// An iframe inside the current page.
    case iframe
}

/// What happens to one navigation in a web view.
public enum NavigationDecision: Sendable, Hashable, Codable {
    /// The page loads in the web view.
    case loadInView
    /// The page opens in the managed browser instead, at this URL
    /// (`https://x` becomes `microsoft-edge-https://x`).
    case openInManagedBrowser(String)
    /// An external link the managed browser cannot open (not http or https) is not followed.
    case blocked

    /// `loadInView`, `openInManagedBrowser` or `blocked`: the decision's name on the wire and in flows.
    public var name: String {
        switch self {
        case .loadInView: "loadInView"
        case .openInManagedBrowser: "openInManagedBrowser"
        case .blocked: "blocked"
        }
    }

    /// Decides one navigation.
    ///
    /// The delegate is asked "each time the web view navigates to a new page", so iframes load
    /// in the view. An external page is sent to the managed browser only when the view holds
    /// managed data (its ``DataIdentity`` is managed: the policy "applies if there is a managed
    /// user") and the policy asks for the managed browser. A URL of a scheme the app's web views
    /// handle themselves (`IntuneMAMSettings.WebViewHandledURLSchemes`, lower-cased) stays in
    /// the view: the app declared that its web view handles it, so it is neither sent to the
    /// managed browser nor blocked. The web schemes are not the app's to claim: `http` or
    /// `https` in that list changes nothing (the link policy decides web pages; lint reports
    /// the entry).
    public static func decide(
        url: WebURL,
        frame: WebFrame,
        rule: ExternalURLRule?,
        dataIdentity: DataIdentity,
        linkPolicy: WebLinkPolicy,
        handledSchemes: Set<String> = []
    ) -> NavigationDecision {
        guard frame == .top, let rule, rule.isExternal(url), dataIdentity.isManaged, linkPolicy == .managedBrowser,
            url.isWeb || !handledSchemes.contains(url.scheme)
        else {
            return .loadInView
        }
        guard let edge = ManagedBrowser.url(opening: url) else { return .blocked }
        return .openInManagedBrowser(edge)
    }
}

/// The managed browser's URL schemes.
public enum ManagedBrowser {
    /// The prefix Microsoft Edge's schemes put before `http` and `https`.
    public static let schemePrefix = "microsoft-edge-"

    /// `https://x` → `microsoft-edge-https://x`, `http://x` → `microsoft-edge-http://x`;
    /// `nil` for any other scheme.
    public static func url(opening url: WebURL) -> String? {
        guard url.isWeb else { return nil }
        return schemePrefix + url.scheme + url.string.dropFirst(url.scheme.count)
    }
}
