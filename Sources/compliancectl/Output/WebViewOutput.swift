import ComplianceCore
import Flows
import JSON

/// One web view and one navigation, as `webview decide` takes them.
struct WebViewQuery {
    var policy: WebViewPolicy
    var uiIdentity: UIPolicyIdentity
    var url: WebURL
    var frame: WebFrame
    var rule: ExternalURLRule?
    var linkPolicy: WebLinkPolicy
    var limitsNavigations: Bool
    var apis: [RestrictedWebAPI]
    var apiFirst: Bool

    /// What ComplianceCore decides for the query.
    struct Decision {
        var treatAllWebViewsAsUnmanaged: Bool
        var dataIdentity: DataIdentity
        var navigation: NavigationDecision
        var appBound: AppBoundSettings
        /// The App-Bound events in the order they happen, each with its outcome's name; the
        /// navigation is one only when the page loads in the view.
        var appBoundEvents: [(event: AppBoundEvent, outcome: String)]
    }

    func decide(treatAllWebViewsAsUnmanaged: Bool, appBound settings: AppBoundSettings, handledSchemes: Set<String> = []) -> Decision {
        let identity = DataIdentity.decide(policy: policy, treatAllWebViewsAsUnmanaged: treatAllWebViewsAsUnmanaged, uiIdentity: uiIdentity)
        let navigation = NavigationDecision.decide(
            url: url, frame: frame, rule: rule, dataIdentity: identity, linkPolicy: linkPolicy, handledSchemes: handledSchemes)
        let calls = apis.map(AppBoundEvent.call)
        let load: [AppBoundEvent] = navigation == .loadInView ? [.navigate(.url(url), frame)] : []
        var session = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: limitsNavigations)
        let events = (apiFirst ? calls + load : load + calls).map { (event: $0, outcome: session.apply($0)) }
        return Decision(
            treatAllWebViewsAsUnmanaged: treatAllWebViewsAsUnmanaged, dataIdentity: identity, navigation: navigation, appBound: settings,
            appBoundEvents: events)
    }
}

/// What `webview decide` prints: lines, or JSON.
struct WebViewOutput {
    let app: String
    let query: WebViewQuery
    let decision: WebViewQuery.Decision

    var lines: [String] {
        let delegate = query.rule.map { "isExternalURL delegate (internal: \(WebWords.describe($0)); every other URL external)" } ?? "no isExternalURL delegate"
        let frame = query.frame == .top ? "top frame" : "iframe"
        var lines = [
            "app: \(app) — TreatAllWebViewsAsUnmanaged \(decision.treatAllWebViewsAsUnmanaged ? "YES" : "NO"), \(WebNames.describe(decision.appBound))",
            "web view: policy \(query.policy.rawValue), \(delegate), UI identity \(WebNames.describe(query.uiIdentity))",
            "cut/copy/paste: \(WebNames.describe(decision.dataIdentity)) — \(WebWords.explain(decision.dataIdentity))",
            "navigation: \(query.url) (\(frame)) → \(WebNames.describe(decision.navigation)) — \(WebWords.explain(WebNames.name(decision.navigation)))",
        ]
        if decision.navigation != .loadInView { lines.append("app-bound: the page is not loaded in the web view") }
        lines += decision.appBoundEvents.map { "app-bound: \($0.event.summary) → \($0.outcome) — \(WebWords.explain($0.outcome))" }
        return lines
    }

    var json: JSONValue {
        var navigation: JSONObject = [
            "url": .string(query.url.string), "frame": .string(query.frame == .top ? "top" : "iframe"),
            "decision": .string(WebNames.name(decision.navigation)),
        ]
        if case .openInManagedBrowser(let url) = decision.navigation { navigation["managedBrowserURL"] = .string(url) }
        let events: [JSONValue] = decision.appBoundEvents.map { event, outcome in
            switch event {
            case .navigate(let content, _): ["event": "navigate", "url": .string(WebNames.describe(content)), "outcome": .string(outcome)]
            case .call(let api): ["event": "call", "api": .string(api.rawValue), "outcome": .string(outcome)]
            }
        }
        return [
            "app": [
                "infoPlist": .string(app), "treatAllWebViewsAsUnmanaged": .bool(decision.treatAllWebViewsAsUnmanaged),
                "appBoundDomains": decision.appBound.appBoundDomains.map { .array($0.domains.map(JSONValue.string)) } ?? .null,
                "webBrowserEntitlement": .bool(decision.appBound.hasWebBrowserEntitlement),
            ],
            "webView": [
                "policy": .string(query.policy.rawValue), "uiIdentity": WebWords.json(query.uiIdentity),
                "delegate": query.rule.map { ["internal": .array($0.internalLocations.map(WebWords.json))] } ?? .null,
                "linkPolicy": .string(query.linkPolicy.rawValue), "limitsNavigations": .bool(query.limitsNavigations),
            ],
            "dataIdentity": WebWords.json(decision.dataIdentity),
            "navigation": .object(navigation),
            "appBound": .array(events),
        ]
    }
}

extension WebViewOutput {
    /// The daemon's web-view answer (`POST /v1/webview/decide`) as lines.
    static func daemonLines(_ answer: JSONValue, url: String?) -> [String] {
        func identity(_ value: JSONValue?) -> String {
            let kind = value?["kind"]?.stringValue ?? "?"
            return value?["account"]?.stringValue.map { "\(kind) (\($0))" } ?? kind
        }
        var lines = [
            "UI identity: \(identity(answer["uiIdentity"]))",
            "cut/copy/paste: \(identity(answer["dataIdentity"])) — " + (answer["dataIdentity"]?["kind"] == "managed"
                ? "copied content is managed, pasting follows the account's policy" : "no policy applies: copied content can go anywhere"),
            "external links: \(answer["linkPolicy"]?.stringValue ?? "?"); clipboard: \(answer["clipboardRestriction"]?.stringValue ?? "?")",
        ]
        if let url, let navigation = answer["navigation"]?.stringValue {
            let edge = answer["managedBrowserURL"]?.stringValue.map { " \($0)" } ?? ""
            lines.append("navigation: \(url) → \(navigation)\(edge) — \(WebWords.explain(navigation))")
        }
        return lines
    }
}
