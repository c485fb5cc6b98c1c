/// One WKWebView under WebKit's App-Bound Domains, fed one event at a time.
///
/// Rules (WebKit's App-Bound Domains article):
/// - Without `WKAppBoundDomains`, or with the `com.apple.developer.web-browser` entitlement,
///   nothing is restricted (pre-iOS 14 behaviour): every navigation loads, every API call runs,
///   and the top frame shows the last top-frame load.
/// - With the key, restricted APIs (``RestrictedWebAPI``) are denied unless the view has
///   `limitsNavigationsToAppBoundDomains` and its top frame shows app-bound content.
/// - A view with that flag fails any top-frame navigation to other content with
///   "App-bound domain failure"; iframes are never checked.
/// - Order matters: a restricted API used before any navigation binds the view as if it had
///   the flag (a later foreign navigation fails); after a foreign navigation the API call fails.
///   Before any navigation the view shows nothing of anybody's, so that first call is allowed.
/// - The restricted API call the app makes right after a refused navigation (WebKit's HybridApp
///   sample: `loadRequest:` of shop.example, then `evaluateJavaScript:`) gets the App-bound
///   domain error in its completion handler ("An App-bound domain error should be handled
///   here"); the view still shows what it showed, and later calls are judged on it again.
public struct AppBoundWebViewSession: Sendable {
    /// What the web view does with a navigation.
    public enum NavigationAction: Sendable, Hashable, Codable {
        /// The content loads.
        case load
        /// The navigation fails with ``AppBoundWebViewSession/appBoundDomainFailure``;
        /// the top frame keeps what it showed.
        case failAppBoundDomain
    }

    /// What happens to a restricted API call.
    public enum APIAction: Sendable, Hashable, Codable {
        /// The call runs.
        case allow
        /// The call fails: the top frame is not on app-bound content.
        case denyNotAppBound
        /// The call fails: the view lacks `limitsNavigationsToAppBoundDomains`.
        case denyNavigationsNotLimited
        /// The call fails with the App-bound domain error: it was made right after a top-frame
        /// navigation the view refused.
        case denyAppBoundDomainFailure
    }

    /// The error WebKit reports for a refused top-frame navigation.
    public static let appBoundDomainFailure = "App-bound domain failure"

    private enum State: Sendable {
        /// No `WKAppBoundDomains`, or the web-browser entitlement (pre-iOS 14 behaviour).
        /// Every event leaves it here; a top-frame load replaces `topFrame` (nil: nothing loaded yet).
        case unrestricted(topFrame: WebContent?)
        /// Nothing loaded in the top frame yet.
        /// → `.appBound` on an app-bound top-frame load; → `.foreign` on another top-frame load
        /// when navigations are not limited; stays on a restricted API call (which limits them).
        case blank
        /// The top frame shows app-bound content.
        /// → `.foreign` on a foreign top-frame load when navigations are not limited.
        case appBound(WebContent)
        /// The top frame shows content outside the app-bound set.
        /// → `.appBound` on an app-bound top-frame load.
        case foreign(WebContent)
    }

    private var state: State
    private var navigationsLimited: Bool
    /// A top-frame navigation was refused and no API call or navigation came since.
    private var refusedNavigationPending = false
    /// `nil` exactly when the state is `.unrestricted`.
    private let domains: AppBoundDomains?

    /// A new web view.
    /// - Parameters:
    ///   - settings: the app's `WKAppBoundDomains` and browser entitlement.
    ///   - limitsNavigationsToAppBoundDomains: the view's `WKWebViewConfiguration` flag.
    public init(settings: AppBoundSettings, limitsNavigationsToAppBoundDomains: Bool) {
        if let domains = settings.appBoundDomains, !settings.hasWebBrowserEntitlement {
            self.state = .blank
            self.domains = domains
        } else {
            self.state = .unrestricted(topFrame: nil)
            self.domains = nil
        }
        self.navigationsLimited = limitsNavigationsToAppBoundDomains
    }

    /// The content the top frame shows: the last top-frame load that was not refused, `nil`
    /// before the first one.
    public var topFrame: WebContent? {
        switch state {
        case .unrestricted(let content): content
        case .blank: nil
        case .appBound(let content), .foreign(let content): content
        }
    }

    /// The web view was asked to load `content` in a frame.
    public mutating func navigationRequested(_ content: WebContent, frame: WebFrame = .top) -> NavigationAction {
        guard case .top = frame else { return .load }
        refusedNavigationPending = false
        switch state {
        case .unrestricted:
            state = .unrestricted(topFrame: content)
            return .load
        case .blank, .appBound, .foreign:
            if domains?.isAppBound(content) ?? true {
                state = .appBound(content)
                return .load
            }
            guard !navigationsLimited else {
                refusedNavigationPending = true
                return .failAppBoundDomain
            }
            state = .foreign(content)
            return .load
        }
    }

    /// The app called a restricted API on this web view.
    public mutating func restrictedAPICalled(_ api: RestrictedWebAPI) -> APIAction {
        if refusedNavigationPending {
            refusedNavigationPending = false
            return .denyAppBoundDomainFailure
        }
        switch state {
        case .unrestricted:
            return .allow
        case .blank:
            navigationsLimited = true
            return .allow
        case .appBound:
            return navigationsLimited ? .allow : .denyNavigationsNotLimited
        case .foreign:
            return .denyNotAppBound
        }
    }
}
