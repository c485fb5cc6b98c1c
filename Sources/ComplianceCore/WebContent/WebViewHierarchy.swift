/// Names one view of the app: a container (UIView, UIViewController) or a web viewer.
public struct WebViewID: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible, Codable {
    public let name: String
    public init(_ name: String) { self.name = name }
    public init(stringLiteral name: String) { self.name = name }
    public var description: String { name }
}

/// What kind of view an id names.
public enum WebViewerKind: Sendable, Hashable, Codable {
    /// A UIView or UIViewController that may contain web views, now or later.
    case container
    /// A WKWebView.
    case wkWebView
    /// An SFSafariViewController.
    case safariViewController
}

/// The app's views, the web-view policies set on them and the `isExternalURL` rules, with the
/// decisions the Intune SDK makes from them.
///
/// A policy set on a container applies to every web view inside it, including web views added
/// later. When several policies reach a web view (its own, its containers'), the one set last
/// wins, as each `setWebViewPolicy:forWebViewer:` call overwrites the views it reaches.
public struct WebViewHierarchy: Sendable {
    private struct Node: Sendable {
        var kind: WebViewerKind
        var parent: WebViewID?
        var policy: (value: WebViewPolicy, order: Int)?
        var rule: ExternalURLRule?
    }

    /// The app's `IntuneMAMSettings.TreatAllWebViewsAsUnmanaged`.
    public var treatAllWebViewsAsUnmanaged: Bool
    private var nodes: [WebViewID: Node] = [:]
    private var policyCalls = 0

    public init(treatAllWebViewsAsUnmanaged: Bool = false) {
        self.treatAllWebViewsAsUnmanaged = treatAllWebViewsAsUnmanaged
    }

    /// Adds a view, at the top level or inside a container.
    public mutating func add(_ id: WebViewID, _ kind: WebViewerKind, in parent: WebViewID? = nil) throws(WebContentError) {
        guard nodes[id] == nil else { throw WebContentError(code: .duplicateView, context: id.name) }
        if let parent {
            guard let parentNode = nodes[parent] else { throw WebContentError(code: .unknownParent, context: parent.name) }
            guard parentNode.kind == .container else {
                throw WebContentError(code: .parentIsNotAContainer, context: parent.name)
            }
        }
        nodes[id] = Node(kind: kind, parent: parent)
    }

    /// `setWebViewPolicy:forWebViewer:` on a web viewer or a container.
    public mutating func setPolicy(_ policy: WebViewPolicy, for id: WebViewID) throws(WebContentError) {
        guard nodes[id] != nil else { throw WebContentError(code: .unknownView, context: id.name) }
        policyCalls += 1
        nodes[id]?.policy = (policy, policyCalls)
    }

    /// `setWebViewPolicyDelegate:forWebViewer:`: only on a WKWebView or SFSafariViewController.
    public mutating func setExternalURLRule(_ rule: ExternalURLRule, for id: WebViewID) throws(WebContentError) {
        guard let node = nodes[id] else { throw WebContentError(code: .unknownView, context: id.name) }
        guard node.kind != .container else { throw WebContentError(code: .delegateRequiresWebView, context: id.name) }
        nodes[id]?.rule = rule
    }

    /// The policy in force for a view: the last one set on it or on any container above it.
    public func effectivePolicy(of id: WebViewID) throws(WebContentError) -> WebViewPolicy {
        guard var node = nodes[id] else { throw WebContentError(code: .unknownView, context: id.name) }
        var best = node.policy
        while let parent = node.parent, let parentNode = nodes[parent] {
            if let candidate = parentNode.policy, candidate.order > (best?.order ?? 0) { best = candidate }
            node = parentNode
        }
        return best?.value ?? .unset
    }

    /// The identity that cut, copy and paste in this view act as.
    public func dataIdentity(of id: WebViewID, uiIdentity: UIPolicyIdentity) throws(WebContentError) -> DataIdentity {
        DataIdentity.decide(
            policy: try effectivePolicy(of: id),
            treatAllWebViewsAsUnmanaged: treatAllWebViewsAsUnmanaged,
            uiIdentity: uiIdentity
        )
    }

    /// What happens when this view navigates to `url`.
    public func navigate(
        _ id: WebViewID,
        to url: WebURL,
        frame: WebFrame = .top,
        uiIdentity: UIPolicyIdentity,
        linkPolicy: WebLinkPolicy
    ) throws(WebContentError) -> NavigationDecision {
        guard let node = nodes[id] else { throw WebContentError(code: .unknownView, context: id.name) }
        return NavigationDecision.decide(
            url: url,
            frame: frame,
            rule: node.rule,
            dataIdentity: try dataIdentity(of: id, uiIdentity: uiIdentity),
            linkPolicy: linkPolicy
        )
    }
}
