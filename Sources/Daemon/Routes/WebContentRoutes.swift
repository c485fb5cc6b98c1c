import ComplianceCore
import Hummingbird
import JSON
import Orchestrator

/// `/v1/webview/decide` and `/v1/clipboard/decide`: the web-view and cut/copy/paste decisions
/// of the running app, from its effective UI identity and the managed account's policy in force
/// (ComplianceCore decides: ``ComplianceMachine/webViewDecision(_:app:)``,
/// ``ComplianceMachine/clipboardDecision(from:to:app:)``).
struct WebContentRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.post("/v1/webview/decide", use: webView)
        router.post("/v1/clipboard/decide", use: clipboard)
    }

    static let sides = ["app", "webView", "managedApp", "unmanagedApp"]

    /// `POST /v1/webview/decide` `{"policy"?: "unset" | "unmanaged" | "currentIdentity",
    /// "url"?, "frame"?: "top" | "iframe", "delegate"?: bool, "internalURLs"?, "internalPrefixes"?,
    /// "internalHosts"?}` → 200 `{"uiIdentity", "dataIdentity", "linkPolicy",
    /// "clipboardRestriction", "navigation"?, "managedBrowserURL"?}`. The view has an
    /// `isExternalURL:` delegate when `delegate` is true or an internal list is given; it calls
    /// those locations internal and every other URL external.
    @Sendable func webView(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/webview/decide"
        let body = try await request.controlBody(
            route: route, known: ["policy", "url", "frame", "delegate", "internalURLs", "internalPrefixes", "internalHosts"])
        let policy = try Self.viewPolicy(body, "policy")
        var url: WebURL?
        if let text = try body.optionalString("url") {
            guard let parsed = WebURL(text) else { throw ControlError.badRequest("\(route): field 'url' is not a URL: '\(text.prefix(80))'") }
            url = parsed
        } else if let stray = ["frame", "delegate", "internalURLs", "internalPrefixes", "internalHosts"].first(where: { body.object[$0].map { $0 != .null } == true }) {
            throw ControlError.badRequest("\(route): field '\(stray)' describes a navigation and goes with 'url'")
        }
        let frame: WebFrame = try body.choice("frame", ["top", "iframe"], default: "top") == "iframe" ? .iframe : .top
        var locations: [ExternalURLRule.Match] = []
        locations += try Self.strings(body, "internalURLs", route).map { .url($0) }
        locations += try Self.strings(body, "internalPrefixes", route).map { .prefix($0) }
        locations += try Self.strings(body, "internalHosts", route).map { .host($0) }
        let hasDelegate = try body.bool("delegate", default: !locations.isEmpty)
        let answer = await engine.webViewDecision(
            WebViewRequest(policy: policy, rule: hasDelegate ? ExternalURLRule(internal: locations) : nil, url: url, frame: frame))
        var object: JSONObject = [
            "uiIdentity": answer.uiIdentity.json, "dataIdentity": answer.dataIdentity.json,
            "linkPolicy": .string(answer.linkPolicy.rawValue), "clipboardRestriction": .string(answer.clipboardRestriction.rawValue),
            "policy": .string(policy.rawValue),
        ]
        if let navigation = answer.navigation {
            object["navigation"] = .string(navigation.name)
            if case .openInManagedBrowser(let edge) = navigation { object["managedBrowserURL"] = .string(edge) }
        }
        return .json(.object(object))
    }

    /// `POST /v1/clipboard/decide` `{"from": side, "to": side, "fromPolicy"?, "toPolicy"?}` (a
    /// side: `app` the app's UI, `webView` a web view with that policy, `managedApp`,
    /// `unmanagedApp`) → 200 `{"allowed", "restriction" (null when none applies), "reason",
    /// "from", "to"}` (each side's data identity).
    @Sendable func clipboard(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/clipboard/decide"
        let body = try await request.controlBody(route: route, known: ["from", "to", "fromPolicy", "toPolicy"])
        func side(_ name: String, _ policyField: String) throws(ControlError) -> ClipboardSide {
            guard let given = body.object[name], given != .null else { throw ControlError.badRequest("\(route): field '\(name)' is required (\(Self.sides.joined(separator: ", ")))") }
            let policy = try Self.viewPolicy(body, policyField)
            let chosen = try body.choice(name, Self.sides, default: "app")
            if chosen != "webView", body.object[policyField].map({ $0 != .null }) == true {
                throw ControlError.badRequest("\(route): field '\(policyField)' goes with \(name) \"webView\", not \"\(chosen)\"")
            }
            switch chosen {
            case "webView": return .webView(policy)
            case "managedApp": return .otherApp(managed: true)
            case "unmanagedApp": return .otherApp(managed: false)
            default: return .app
            }
        }
        let source = try side("from", "fromPolicy")
        let destination = try side("to", "toPolicy")
        let decision = await engine.clipboardDecision(from: source, to: destination)
        let endpoints = await (engine.clipboardEndpoint(source), engine.clipboardEndpoint(destination))
        return .json([
            "allowed": .bool(decision.allowed), "restriction": decision.restriction.map { .string($0.rawValue) } ?? .null,
            "reason": .string(decision.reason), "from": Self.json(endpoints.0), "to": Self.json(endpoints.1),
        ])
    }

    private static func viewPolicy(_ body: ControlBody, _ name: String) throws(ControlError) -> WebViewPolicy {
        let text = try body.choice(name, WebViewPolicy.allCases.map(\.rawValue), default: WebViewPolicy.unset.rawValue)
        return WebViewPolicy(rawValue: text) ?? .unset
    }

    private static func strings(_ body: ControlBody, _ name: String, _ route: String) throws(ControlError) -> [String] {
        guard let value = body.object[name], value != .null else { return [] }
        guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
            throw ControlError.badRequest("\(route): field '\(name)' must be an array of strings, got \(value.kindName)")
        }
        return list.compactMap(\.stringValue)
    }

    /// A side: `{"kind": "managed" | "unmanaged", "account"?}` in the app, `{"kind": "managedApp" | "unmanagedApp"}` outside.
    static func json(_ endpoint: ClipboardEndpoint) -> JSONValue {
        switch endpoint {
        case .app(let identity): identity.json
        case .otherApp(let managed): ["kind": .string(managed ? "managedApp" : "unmanagedApp")]
        }
    }
}
