/// The app's `WKAppBoundDomains` (WebKit App-Bound Domains, iOS 14+).
///
/// The key's presence opts the app in, even with an empty list. Content the app supplies
/// itself (local files, data URLs, HTML strings) is always app-bound and need not be listed.
public struct AppBoundDomains: Sendable, Hashable, Codable {
    /// WebKit honours at most this many domains.
    public static let maximumCount = 10

    /// The listed domains, lower-cased, in their order.
    public let domains: [String]

    /// Validates the list: more than ``maximumCount`` domains is a profile error.
    public init(_ domains: [String]) throws(WebContentError) {
        guard domains.count <= Self.maximumCount else {
            throw WebContentError(
                code: .tooManyAppBoundDomains,
                context: "\(domains.count) domains listed, at most \(Self.maximumCount) allowed"
            )
        }
        self.domains = domains.map { $0.lowercased() }
    }

    /// Whether loading `content` in the top frame stays on app-bound content: a listed domain
    /// or one of its subdomains, a file URL, a data URL or an HTML string.
    public func isAppBound(_ content: WebContent) -> Bool {
        switch content {
        case .htmlString:
            return true
        case .url(let url):
            if url.scheme == "file" || url.scheme == "data" { return true }
            guard let host = url.host else { return false }
            return domains.contains { host == $0 || host.hasSuffix("." + $0) }
        }
    }
}

/// What a web view is asked to load.
public enum WebContent: Sendable, Hashable, Codable {
    /// `loadRequest:` or `loadFileURL:` with this URL.
    case url(WebURL)
    /// `loadHTMLString:baseURL:`: always app-bound.
    case htmlString

    /// `.url` for a string that parses, `nil` otherwise.
    public init?(_ string: String) {
        guard let url = WebURL(string) else { return nil }
        self = .url(url)
    }
}

/// The APIs App-Bound Domains restricts.
public enum RestrictedWebAPI: String, Sendable, Hashable, CaseIterable, Codable {
    /// `evaluateJavaScript:completionHandler:`.
    case evaluateJavaScript
    /// `WKUserContentController addUserScript:`.
    case addUserScript
    /// Custom style sheets injected into pages.
    case userStyleSheet
    /// `window.webkit.messageHandlers`.
    case messageHandlers
    /// `WKHTTPCookieStore setCookie:completionHandler:`.
    case setCookie
    /// `WKHTTPCookieStore getAllCookies:`.
    case getAllCookies
}

/// How the app is set up for App-Bound Domains.
public struct AppBoundSettings: Sendable, Hashable, Codable {
    /// `WKAppBoundDomains`, or `nil` when the Info.plist does not have the key.
    public var appBoundDomains: AppBoundDomains?
    /// The `com.apple.developer.web-browser` entitlement: every restriction is lifted.
    public var hasWebBrowserEntitlement: Bool

    public init(appBoundDomains: AppBoundDomains?, hasWebBrowserEntitlement: Bool = false) {
        self.appBoundDomains = appBoundDomains
        self.hasWebBrowserEntitlement = hasWebBrowserEntitlement
    }

    /// An app that does not opt in (UnchangedApp): no restrictions.
    public static let notOptedIn = AppBoundSettings(appBoundDomains: nil)
}
