/// Web-view and clipboard decisions asked of the running app: the same rules as the offline
/// calculator (``DataIdentity``, ``NavigationDecision``, ``ClipboardDecision``), with the
/// inputs the machine holds: the effective UI identity, whether it is the managed account, and
/// the managed account's policy in force (`openLinksInManagedBrowser`, `clipboardRestriction`).
/// Queries only: nothing changes, so no step and no invariant of their own; the identity in
/// force they read is held by invariant 15, and a policy change or identity switch changes
/// their answers in the step that makes it.

/// What the app's profile says about its web views (Info.plist).
public struct WebViewAppSettings: Sendable, Hashable, Codable {
    /// `TreatAllWebViewsAsUnmanaged` (in `IntuneMAMSettings`, or at the top level).
    public var treatAllWebViewsAsUnmanaged: Bool
    /// `IntuneMAMSettings.WebViewHandledURLSchemes`, lower-cased.
    public var handledURLSchemes: Set<String>

    public init(treatAllWebViewsAsUnmanaged: Bool = false, handledURLSchemes: [String] = []) {
        self.treatAllWebViewsAsUnmanaged = treatAllWebViewsAsUnmanaged
        self.handledURLSchemes = Set(handledURLSchemes.map { $0.lowercased() })
    }
}

/// One web view and one navigation, as the app describes them to the daemon.
public struct WebViewRequest: Sendable, Hashable, Codable {
    /// The view's `setWebViewPolicy:forWebViewer:` value (its own or a container's).
    public var policy: WebViewPolicy
    /// The view's `isExternalURL:` delegate, if it has one.
    public var rule: ExternalURLRule?
    /// The navigation to decide, if any.
    public var url: WebURL?
    public var frame: WebFrame

    public init(policy: WebViewPolicy = .unset, rule: ExternalURLRule? = nil, url: WebURL? = nil, frame: WebFrame = .top) {
        self.policy = policy
        self.rule = rule
        self.url = url
        self.frame = frame
    }
}

/// The running app's answer for one web view.
public struct WebViewAnswer: Sendable, Hashable, Codable {
    /// The UI policy identity in force (``ComplianceMachine/uiPolicyIdentity``).
    public var uiIdentity: UIPolicyIdentity
    /// Whom cut, copy and paste in the view act as.
    public var dataIdentity: DataIdentity
    /// The managed policy's `openLinksInManagedBrowser` (anyApp without a managed account).
    public var linkPolicy: WebLinkPolicy
    /// What happens to the navigation, when one was asked.
    public var navigation: NavigationDecision?
    /// The managed policy's `clipboardRestriction`.
    public var clipboardRestriction: ClipboardRestriction
}

/// One side of a cut/copy/paste as the app names it.
public enum ClipboardSide: Sendable, Hashable, Codable {
    /// The app's own UI (acts as the UI identity).
    case app
    /// A web view of the app with this policy (acts as its ``DataIdentity``).
    case webView(WebViewPolicy)
    /// Another app.
    case otherApp(managed: Bool)
}

extension ComplianceMachine {
    /// The UI policy identity web views and the clipboard see: the effective UI identity,
    /// managed only when it is the managed account (its policy in force); any other account is
    /// "treated as unmanaged with unrestricted policy settings"; none for no user.
    public var uiPolicyIdentity: UIPolicyIdentity {
        guard let account = effectiveUIIdentity else { return .none }
        return dataProtectionPolicy(for: account).isManaged ? .managed(account: account.key) : .unmanaged(account: account.key)
    }

    /// The managed account's policy object (unrestricted when none is managed).
    private var managedPolicy: DataProtectionPolicy { dataProtectionPolicy(for: managedAccount) }

    /// The web view's data identity and its navigation's outcome, now.
    public func webViewDecision(_ request: WebViewRequest, app: WebViewAppSettings) -> WebViewAnswer {
        let ui = uiPolicyIdentity
        let identity = DataIdentity.decide(policy: request.policy, treatAllWebViewsAsUnmanaged: app.treatAllWebViewsAsUnmanaged, uiIdentity: ui)
        let policy = managedPolicy
        let navigation = request.url.map {
            NavigationDecision.decide(
                url: $0, frame: request.frame, rule: request.rule, dataIdentity: identity, linkPolicy: policy.webLinkPolicy,
                handledSchemes: app.handledURLSchemes)
        }
        return WebViewAnswer(
            uiIdentity: ui, dataIdentity: identity, linkPolicy: policy.webLinkPolicy, navigation: navigation,
            clipboardRestriction: policy.clipboardRestriction)
    }

    /// The endpoint a side acts as now: the app's UI as the UI identity, a web view as its data
    /// identity.
    public func clipboardEndpoint(_ side: ClipboardSide, app: WebViewAppSettings) -> ClipboardEndpoint {
        switch side {
        case .app:
            if case .managed(let account) = uiPolicyIdentity { return .app(.managed(account: account)) }
            return .app(.unmanaged)
        case .webView(let policy):
            return .app(DataIdentity.decide(policy: policy, treatAllWebViewsAsUnmanaged: app.treatAllWebViewsAsUnmanaged, uiIdentity: uiPolicyIdentity))
        case .otherApp(let managed):
            return .otherApp(managed: managed)
        }
    }

    /// Cut/copy from `source` and paste into `destination`, now, under the managed account's
    /// `clipboardRestriction`.
    public func clipboardDecision(from source: ClipboardSide, to destination: ClipboardSide, app: WebViewAppSettings) -> ClipboardDecision {
        ClipboardDecision.decide(
            from: clipboardEndpoint(source, app: app), to: clipboardEndpoint(destination, app: app), restriction: managedPolicy.clipboardRestriction)
    }
}
