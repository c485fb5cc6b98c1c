import ComplianceCore
import Flows
import JSON

/// What `browser` prints: MSAL's choice with its traits and the Intune findings, or MSAL's failure.
struct BrowserOutput {
    let platform: AuthPlatform
    let type: MSALWebviewType
    /// The --app file, when the Intune rules apply.
    let app: String?
    let context: IntuneAuthContext?
    let result: Result<AuthBrowserDecision, WebContentError>

    init(platform: AuthPlatform, type: MSALWebviewType, app: String?, context: IntuneAuthContext?) {
        self.platform = platform
        self.type = type
        self.app = app
        self.context = context
        result = Result { () throws(WebContentError) in try AuthBrowserSelection.decide(type, on: platform, intune: context) }
    }

    /// MSAL can sign in and Intune finds no error.
    var succeeded: Bool {
        guard case .success(let decision) = result else { return false }
        return decision.findings.allSatisfy(\.isWarning)
    }

    var lines: [String] {
        let request = "MSAL on \(platform), webviewType \(type.rawValue)"
        let decision: AuthBrowserDecision
        switch result {
        case .failure(let error): return ["\(request): MSAL fails the request — \(error)"]
        case .success(let value): decision = value
        }
        let traits = decision.traits
        var lines = [
            "\(request) → \(decision.webView.rawValue)",
            "  browser: \(traits.kind == .system ? "system (outside the app)" : "in-app"); shares cookies with Safari: \(WebWords.yesNo(traits.sharesCookies)); "
                + "SSO: \(traits.sso == .withSafariInstances ? "with Safari instances" : "no cookie SSO: tokens must be shared (token cache or broker)")",
        ]
        guard let app, let context else { return lines + ["Intune: not checked (give --app to apply the Intune SDK's rules)"] }
        lines.append("Intune (\(app): SafariViewControllerBlockedOverride \(context.safariViewControllerBlockedOverride ? "YES" : "NO"); "
            + "\(context.appInitiated ? "app-initiated sign-in" : "sign-in not app-initiated")):")
        if decision.findings.isEmpty { lines.append("  no findings") }
        lines += decision.findings.map { "  \($0.isWarning ? "warning" : "error"): \($0)" }
        return lines
    }

    var json: JSONValue {
        var object: JSONObject = [
            "platform": ["os": .string(platform.os.rawValue), "version": .string("\(platform.major).\(platform.minor)")],
            "webviewType": .string(type.rawValue),
        ]
        switch result {
        case .failure(let error):
            object["error"] = ["code": .string(WebNames.name(error.code)), "message": .string("\(error)")]
        case .success(let decision):
            object["webView"] = .string(decision.webView.rawValue)
            object["browser"] = .string(decision.traits.kind.rawValue)
            object["sharesCookies"] = .bool(decision.traits.sharesCookies)
            object["sso"] = .string(decision.traits.sso.rawValue)
            object["intune"] = context.map { context in
                [
                    "app": app.map(JSONValue.string) ?? .null, "appInitiated": .bool(context.appInitiated),
                    "safariViewControllerBlockedOverride": .bool(context.safariViewControllerBlockedOverride),
                    "findings": .array(decision.findings.map {
                        ["name": .string(WebNames.name($0)), "severity": .string($0.isWarning ? "warning" : "error"), "message": .string($0.description)]
                    }),
                ]
            } ?? .null
        }
        return .object(object)
    }
}
