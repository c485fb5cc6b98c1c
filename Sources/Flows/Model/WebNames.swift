import ComplianceCore

/// The words web-content decisions are written in, by flows (`expectWebView`, `expectAppBound`,
/// `expectAuthBrowser`) and by `compliancectl webview` and `browser`: parsing what people type
/// and naming what ComplianceCore decides.
public enum WebNames {
    // MARK: Reading

    /// `iOS` or `macOS` (any case) with `12`, `12.4` or `10.15.7` (the patch is ignored); nil otherwise.
    public static func platform(os: String, version: String) -> AuthPlatform? {
        let system: AuthPlatform.OS
        switch os.lowercased() {
        case "ios": system = .iOS
        case "macos": system = .macOS
        default: return nil
        }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let major = Int(parts[0]), major >= 1
        else { return nil }
        let minor = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        return AuthPlatform(system, major, minor)
    }

    /// `MSALWebviewType` by its case name (`default`, `authenticationSession` or `authSession`,
    /// `safariViewController`, `wkWebView`; any case).
    public static func webviewType(_ text: String) -> MSALWebviewType? {
        if text.lowercased() == "authsession" { return .authenticationSession }
        return MSALWebviewType.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
    }

    public static let webviewTypeNames = "default, authSession (authenticationSession), safariViewController, wkWebView"

    /// The current UI policy identity's kinds: `managed` or `unmanaged` with `account`, or `none`.
    public static func uiIdentities(account: String) -> [(String, UIPolicyIdentity)] {
        [("managed", .managed(account: account)), ("unmanaged", .unmanaged(account: account)), ("none", .none)]
    }

    /// The UI identity of a kind (`managed`, `unmanaged`, `none`); nil for another word.
    public static func uiIdentity(_ kind: String, account: String) -> UIPolicyIdentity? {
        uiIdentities(account: account).first { $0.0 == kind }?.1
    }

    /// `top` and `iframe`.
    public static let frames: [(String, WebFrame)] = [("top", .top), ("iframe", .iframe)]

    /// The frame named `top` or `iframe`; nil for another word.
    public static func frame(_ text: String) -> WebFrame? { frames.first { $0.0 == text }?.1 }

    /// What a web view is asked to load: `htmlString` for `loadHTMLString:baseURL:`, else a URL.
    public static func content(_ text: String) -> WebContent? {
        text == "htmlString" ? .htmlString : WebContent(text)
    }

    // MARK: Naming

    /// `managed` or `unmanaged`.
    public static func name(_ identity: DataIdentity) -> String { identity.isManaged ? "managed" : "unmanaged" }

    /// `managed (alice@contoso.com)` or `unmanaged`.
    public static func describe(_ identity: DataIdentity) -> String {
        if case .managed(let account) = identity { return "managed (\(account))" }
        return "unmanaged"
    }

    /// `managed (alice@contoso.com)`, `unmanaged (me@example.com)` or `none`.
    public static func describe(_ identity: UIPolicyIdentity) -> String {
        switch identity {
        case .none: "none"
        case .unmanaged(let account): "unmanaged (\(account))"
        case .managed(let account): "managed (\(account))"
        }
    }

    /// A URL as written, or `htmlString`.
    public static func describe(_ content: WebContent) -> String {
        if case .url(let url) = content { return url.string }
        return "htmlString"
    }

    /// `WKAppBoundDomains [shop.example, shop-cdn.example]`, `no WKAppBoundDomains (not opted in)`,
    /// and the web-browser entitlement when the app has it.
    public static func describe(_ settings: AppBoundSettings) -> String {
        let domains = settings.appBoundDomains.map { "WKAppBoundDomains [\($0.domains.joined(separator: ", "))]" }
            ?? "no WKAppBoundDomains (not opted in)"
        return settings.hasWebBrowserEntitlement ? domains + ", web-browser entitlement (no restrictions)" : domains
    }

    public static let navigationDecisionNames = ["loadInView", "openInManagedBrowser", "blocked"]

    /// `loadInView`, `openInManagedBrowser` or `blocked`.
    public static func name(_ decision: NavigationDecision) -> String { decision.name }

    /// The decision's name, with the managed browser's URL when it opens there.
    public static func describe(_ decision: NavigationDecision) -> String {
        if case .openInManagedBrowser(let url) = decision { return "openInManagedBrowser \(url)" }
        return name(decision)
    }

    public static let appBoundNavigationNames = ["load", "appBoundDomainFailure"]

    /// `load` or `appBoundDomainFailure`.
    public static func name(_ action: AppBoundWebViewSession.NavigationAction) -> String {
        switch action {
        case .load: "load"
        case .failAppBoundDomain: "appBoundDomainFailure"
        }
    }

    /// Expected API outcomes: `deny` stands for either reason.
    public static let apiActionNames = ["allow", "deny", "denyNotAppBound", "denyNavigationsNotLimited", "denyAppBoundDomainFailure"]

    /// `allow`, `denyNotAppBound` or `denyNavigationsNotLimited`.
    public static func name(_ action: AppBoundWebViewSession.APIAction) -> String {
        switch action {
        case .allow: "allow"
        case .denyNotAppBound: "denyNotAppBound"
        case .denyNavigationsNotLimited: "denyNavigationsNotLimited"
        case .denyAppBoundDomainFailure: "denyAppBoundDomainFailure"
        }
    }

    /// `requiresSafariViewControllerBlockedOverride` or `safariViewControllerHooksDisabled`.
    public static func name(_ finding: IntuneAuthFinding) -> String {
        switch finding {
        case .requiresSafariViewControllerBlockedOverride: "requiresSafariViewControllerBlockedOverride"
        case .safariViewControllerHooksDisabled: "safariViewControllerHooksDisabled"
        }
    }

    /// An auth decision as name/value pairs: webView, browser, sharesCookies, sso, findings.
    public static func fields(of decision: AuthBrowserDecision) -> [(String, String)] {
        [
            ("webView", decision.webView.rawValue), ("browser", decision.traits.kind.rawValue),
            ("sharesCookies", "\(decision.traits.sharesCookies)"), ("sso", decision.traits.sso.rawValue),
            ("findings", "[\(decision.findings.map { name($0) }.joined(separator: ", "))]"),
        ]
    }

    public static let findingNames = ["requiresSafariViewControllerBlockedOverride", "safariViewControllerHooksDisabled"]

    /// `tooManyAppBoundDomains`, `webviewTypeUnavailable`, …: a stable name for a web-content error.
    public static func name(_ code: WebContentError.Code) -> String {
        let names: [(WebContentError.Code, String)] = [
            (.tooManyAppBoundDomains, "tooManyAppBoundDomains"), (.webviewTypeUnavailable, "webviewTypeUnavailable"),
            (.unknownView, "unknownView"), (.duplicateView, "duplicateView"), (.unknownParent, "unknownParent"),
            (.delegateRequiresWebView, "delegateRequiresWebView"), (.parentIsNotAContainer, "parentIsNotAContainer"),
        ]
        return names.first { $0.0 == code }?.1 ?? "\(code)"
    }
}
