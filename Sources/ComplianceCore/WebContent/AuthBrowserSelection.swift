/// MSAL's choice of auth web view, and the Intune SDK's rule on app-initiated sign-in.
public enum AuthBrowserSelection {
    /// `MSALWebviewTypeDefault` per OS version: iOS 12+ ASWebAuthenticationSession,
    /// iOS 11 SFAuthenticationSession, older iOS SFSafariViewController; macOS 10.15+
    /// ASWebAuthenticationSession, older macOS WKWebView.
    public static func defaultWebView(on platform: AuthPlatform) -> AuthWebView {
        switch platform.os {
        case .iOS:
            if platform.isAtLeast(.iOS, 12) { return .asWebAuthenticationSession }
            if platform.isAtLeast(.iOS, 11) { return .sfAuthenticationSession }
            return .sfSafariViewController
        case .macOS:
            return platform.isAtLeast(.macOS, 10, 15) ? .asWebAuthenticationSession : .wkWebView
        }
    }

    /// The web view MSAL uses for a request that asks for `type` (`webviewParameters.webviewType`).
    /// Throws ``WebContentError/Code/webviewTypeUnavailable`` where MSAL fails the request.
    public static func webView(for type: MSALWebviewType, on platform: AuthPlatform) throws(WebContentError) -> AuthWebView {
        let chosen: AuthWebView
        switch type {
        case .default:
            chosen = defaultWebView(on: platform)
        case .authenticationSession:
            chosen = platform.isAtLeast(.iOS, 12) || platform.os == .macOS ? .asWebAuthenticationSession : .sfAuthenticationSession
        case .safariViewController:
            chosen = .sfSafariViewController
        case .wkWebView:
            chosen = .wkWebView
        }
        guard chosen.isAvailable(on: platform) else {
            throw WebContentError(code: .webviewTypeUnavailable, context: "\(type.rawValue) → \(chosen.rawValue) on \(platform)")
        }
        return chosen
    }

    /// The web view for a request, with its cookie/SSO traits and, when the app uses the Intune
    /// SDK, the Intune findings.
    public static func decide(
        _ type: MSALWebviewType,
        on platform: AuthPlatform,
        intune: IntuneAuthContext? = nil
    ) throws(WebContentError) -> AuthBrowserDecision {
        let webView = try webView(for: type, on: platform)
        guard let traits = webView.traits(on: platform) else {
            throw WebContentError(code: .webviewTypeUnavailable, context: "\(webView.rawValue) on \(platform)")
        }
        return AuthBrowserDecision(webView: webView, traits: traits, findings: intune.map { $0.findings(for: webView) } ?? [])
    }
}

/// The outcome of ``AuthBrowserSelection/decide(_:on:intune:)``.
public struct AuthBrowserDecision: Sendable, Hashable, Codable {
    public let webView: AuthWebView
    public let traits: AuthBrowserTraits
    public let findings: [IntuneAuthFinding]
}

/// What the Intune SDK needs to judge an interactive MSAL request.
public struct IntuneAuthContext: Sendable, Hashable, Codable {
    /// The app started the sign-in itself (rather than the SDK's own enrollment UI).
    public var appInitiated: Bool
    /// `IntuneMAMSettings.SafariViewControllerBlockedOverride`.
    public var safariViewControllerBlockedOverride: Bool

    public init(appInitiated: Bool, safariViewControllerBlockedOverride: Bool) {
        self.appInitiated = appInitiated
        self.safariViewControllerBlockedOverride = safariViewControllerBlockedOverride
    }

    /// App-initiated auth should use WKWebView; any other web view needs
    /// `SafariViewControllerBlockedOverride`, and that override turns off Intune's
    /// SafariViewController hooks (a data-leak risk, reported as a warning whenever it is set).
    public func findings(for webView: AuthWebView) -> [IntuneAuthFinding] {
        var findings: [IntuneAuthFinding] = []
        if appInitiated, webView != .wkWebView, !safariViewControllerBlockedOverride {
            findings.append(.requiresSafariViewControllerBlockedOverride(webView))
        }
        if safariViewControllerBlockedOverride {
            findings.append(.safariViewControllerHooksDisabled)
        }
        return findings
    }
}

/// A problem the Intune SDK's rules find with an auth web view choice.
public enum IntuneAuthFinding: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Error: app-initiated auth in this web view is blocked by Intune's SafariViewController
    /// hooks. Set `webviewType` to WKWebView, or set `SafariViewControllerBlockedOverride`.
    case requiresSafariViewControllerBlockedOverride(AuthWebView)
    /// Warning: `SafariViewControllerBlockedOverride` is set; corporate data shown in
    /// SFSafariViewController, SFAuthenticationSession or ASWebAuthenticationSession can leak.
    case safariViewControllerHooksDisabled

    /// Whether the finding is only a warning.
    public var isWarning: Bool {
        if case .safariViewControllerHooksDisabled = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .requiresSafariViewControllerBlockedOverride(let webView):
            "app-initiated MSAL auth uses \(webView.rawValue): set webviewType to WKWebView, or set IntuneMAMSettings.SafariViewControllerBlockedOverride"
        case .safariViewControllerHooksDisabled:
            "SafariViewControllerBlockedOverride turns off Intune's SafariViewController hooks: data shown in SFSafariViewController, SFAuthenticationSession or ASWebAuthenticationSession is not protected (data-leak risk)"
        }
    }
}
