/// A mistake in how web content is set up: too many app-bound domains, an unknown view,
/// a delegate set on something that is not a web view.
///
/// Compare `code` with the static constants (`error.code == .tooManyAppBoundDomains`);
/// `context` names the view or the count.
public struct WebContentError: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    public struct Code: Sendable, Hashable, CustomStringConvertible, Codable {
        private enum Base: Sendable, Hashable, Codable {
            case tooManyAppBoundDomains, unknownView, duplicateView, unknownParent
            case delegateRequiresWebView, parentIsNotAContainer, webviewTypeUnavailable
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `WKAppBoundDomains` lists more than ``AppBoundDomains/maximumCount`` domains.
        public static let tooManyAppBoundDomains = Code(.tooManyAppBoundDomains)
        /// A view id that was never added.
        public static let unknownView = Code(.unknownView)
        /// A view id added twice.
        public static let duplicateView = Code(.duplicateView)
        /// A view added under a parent that was never added.
        public static let unknownParent = Code(.unknownParent)
        /// `setWebViewPolicyDelegate:forWebViewer:` was called on a container.
        public static let delegateRequiresWebView = Code(.delegateRequiresWebView)
        /// A view added under a web view; only containers hold other views.
        public static let parentIsNotAContainer = Code(.parentIsNotAContainer)
        /// The requested `MSALWebviewType` does not exist on this OS or version; MSAL fails the request.
        public static let webviewTypeUnavailable = Code(.webviewTypeUnavailable)

        public var description: String {
            switch base {
            case .tooManyAppBoundDomains:
                "WKAppBoundDomains lists more than \(AppBoundDomains.maximumCount) domains"
            case .unknownView: "no view with this id was added"
            case .duplicateView: "a view with this id was already added"
            case .unknownParent: "the parent view was never added"
            case .delegateRequiresWebView:
                "setWebViewPolicyDelegate:forWebViewer: must be called directly on a WKWebView or SFSafariViewController"
            case .parentIsNotAContainer: "only a UIView or UIViewController can contain other views"
            case .webviewTypeUnavailable: "the requested web view type is not available on this OS version"
            }
        }
    }

    public let code: Code
    /// What the error is about: the view id, the domain count.
    public let context: String

    public init(code: Code, context: String) {
        self.code = code
        self.context = context
    }

    public var description: String { "\(code) (\(context))" }
}
