import ComplianceCore

/// A web-content check: decided by ComplianceCore from the flow's app profile, with no server
/// (flows/README.md, "Web content checks").
public enum WebCheck: Sendable {
    /// `expectWebView`: one web view's data identity and what happens to its navigations.
    case webView(WebViewCheck)
    /// `expectAppBound`: one WKWebView under App-Bound Domains, fed navigations and API calls in order.
    case appBound(AppBoundCheck)
    /// `expectAuthBrowser`: MSAL's auth web view on an OS version, with the Intune findings.
    case authBrowser(AuthBrowserCheck)

    /// The step's name with its main arguments.
    public var summary: String {
        switch self {
        case .webView(let check):
            "expectWebView \(check.view) (\(check.policy.rawValue), UI \(WebNames.describe(check.uiIdentity)))"
        case .appBound(let check):
            "expectAppBound (\(check.steps.count) events\(check.limitsNavigations ? ", limitsNavigationsToAppBoundDomains" : ""))"
        case .authBrowser(let check):
            "expectAuthBrowser \(check.platform) \(check.webviewType.rawValue)\(check.appInitiated ? " (app-initiated)" : "")"
        }
    }
}

extension FlowStep {
    /// Whether the step is a web check (decided locally, no server needed).
    public var isWebCheck: Bool {
        if case .web = action { true } else { false }
    }
}

/// `expectWebView`: a web view with its `setWebViewPolicy:forWebViewer:` value and optional
/// `isExternalURL:` delegate, seen by the current UI identity.
public struct WebViewCheck: Sendable {
    /// One navigation and what must happen to it.
    public struct Navigation: Sendable {
        public var url: WebURL
        public var frame: WebFrame
        /// `loadInView`, `openInManagedBrowser` or `blocked`.
        public var expected: String
        /// The managed browser's URL it must open (`microsoft-edge-https://…`), when given.
        public var browserURL: String?
    }

    /// A name for messages (`A`, `feedback`).
    public var view: String
    public var policy: WebViewPolicy
    public var uiIdentity: UIPolicyIdentity
    /// The delegate's rule, when the view has one.
    public var rule: ExternalURLRule?
    public var linkPolicy: WebLinkPolicy
    public var navigations: [Navigation]
    /// `managed` or `unmanaged`, when checked.
    public var expectedDataIdentity: String?
}

/// `expectAppBound`: one WKWebView session of the app, event by event.
public struct AppBoundCheck: Sendable {
    /// An event and the outcome it must have: for a navigation `load` or `appBoundDomainFailure`;
    /// for an API call `allow`, `deny` (either reason), `denyNotAppBound`, `denyNavigationsNotLimited` or `denyAppBoundDomainFailure`.
    public struct Step: Sendable {
        public var event: AppBoundEvent
        public var expected: String
    }

    /// The view's `limitsNavigationsToAppBoundDomains`.
    public var limitsNavigations: Bool
    public var steps: [Step]
    /// What the top frame shows after the events: a URL, `htmlString`, or `""` for nothing; nil: not checked.
    public var expectedTopFrame: String?
    /// The profile must be refused with this error (`tooManyAppBoundDomains`); then there are no events.
    public var expectedError: String?
}

/// What happens to a WKWebView under App-Bound Domains: a navigation or a restricted API call.
public enum AppBoundEvent: Sendable {
    case navigate(WebContent, WebFrame)
    case call(RestrictedWebAPI)

    /// `navigate https://x (iframe)`, `call evaluateJavaScript`.
    public var summary: String {
        switch self {
        case .navigate(let content, let frame): "navigate \(WebNames.describe(content))\(frame == .iframe ? " (iframe)" : "")"
        case .call(let api): "call \(api.rawValue)"
        }
    }
}

/// `expectAuthBrowser`: an interactive MSAL request on one OS version.
public struct AuthBrowserCheck: Sendable {
    /// What the decision must show; every field optional.
    public struct Expected: Sendable {
        public var webView: AuthWebView?
        /// `system` or `inApp`.
        public var browser: AuthBrowserTraits.Kind?
        public var sharesCookies: Bool?
        public var sso: AuthBrowserTraits.SSO?
        /// The Intune findings' names, in order (`[]`: none).
        public var findings: [String]?
        /// MSAL fails the request with this error (`webviewTypeUnavailable`).
        public var error: String?
    }

    public var platform: AuthPlatform
    public var webviewType: MSALWebviewType
    /// The app starts the sign-in itself (not the Intune SDK's enrollment).
    public var appInitiated: Bool
    public var expected: Expected
}

extension AppBoundWebViewSession {
    /// Feeds one event; returns the outcome's name (`load`, `appBoundDomainFailure`, `allow`,
    /// `denyNotAppBound`, `denyNavigationsNotLimited`, `denyAppBoundDomainFailure`).
    public mutating func apply(_ event: AppBoundEvent) -> String {
        switch event {
        case .navigate(let content, let frame): WebNames.name(navigationRequested(content, frame: frame))
        case .call(let api): WebNames.name(restrictedAPICalled(api))
        }
    }
}
