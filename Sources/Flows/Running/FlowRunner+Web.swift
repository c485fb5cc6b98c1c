import AppProfile
import ComplianceCore

/// The web checks: ComplianceCore decides from the flow's app profile, here and now (no server).
extension WebCheck {
    func evaluate(_ app: AppProfile) -> StepCheck {
        switch self {
        case .webView(let check): check.evaluate(app)
        case .appBound(let check): check.evaluate(app)
        case .authBrowser(let check): check.evaluate(app)
        }
    }
}

extension WebViewCheck {
    func evaluate(_ app: AppProfile) -> StepCheck {
        let web = app.webViewAppSettings()
        let identity = DataIdentity.decide(policy: policy, treatAllWebViewsAsUnmanaged: web.treatAllWebViewsAsUnmanaged, uiIdentity: uiIdentity)
        var detail = ["cut/copy/paste \(WebNames.describe(identity))"]
        var mismatches: [String] = []
        if let expectedDataIdentity, expectedDataIdentity != WebNames.name(identity) {
            mismatches.append("dataIdentity: expected \(expectedDataIdentity), got \(WebNames.describe(identity))")
        }
        for (offset, navigation) in navigations.enumerated() {
            let decision = NavigationDecision.decide(
                url: navigation.url, frame: navigation.frame, rule: rule, dataIdentity: identity, linkPolicy: linkPolicy,
                handledSchemes: web.handledURLSchemes)
            let place = "\(navigation.url)\(navigation.frame == .iframe ? " (iframe)" : "")"
            detail.append("\(place) → \(WebNames.describe(decision))")
            var wanted = navigation.expected
            var matches = WebNames.name(decision) == wanted
            if let browserURL = navigation.browserURL {
                wanted += " \(browserURL)"
                matches = matches && decision == .openInManagedBrowser(browserURL)
            }
            if !matches { mismatches.append("navigation \(offset + 1) \(place): expected \(wanted), got \(WebNames.describe(decision))") }
        }
        return StepCheck(passed: mismatches.isEmpty, detail: detail.joined(separator: "; "), mismatches: mismatches)
    }
}

extension AppBoundCheck {
    func evaluate(_ app: AppProfile) -> StepCheck {
        let settings: AppBoundSettings
        do {
            settings = try app.appBoundSettings()
        } catch {
            let name = WebNames.name(error.code)
            let detail = "the profile is refused: \(name) (\(error.context))"
            guard let expectedError else { return .failed(detail, ["error: expected none, got \(name) (\(error.context))"]) }
            return expectedError == name ? .passed(detail) : .failed(detail, ["error: expected \(expectedError), got \(name)"])
        }
        if let expectedError { return .failed(WebNames.describe(settings), ["error: expected \(expectedError), got none"]) }
        var session = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: limitsNavigations)
        var outcomes: [String] = []
        var mismatches: [String] = []
        for (offset, step) in steps.enumerated() {
            let outcome = session.apply(step.event)
            outcomes.append("\(step.event.summary) → \(outcome)")
            let matches = step.expected == outcome || (step.expected == "deny" && outcome.hasPrefix("deny"))
            if !matches { mismatches.append("event \(offset + 1) \(step.event.summary): expected \(step.expected), got \(outcome)") }
        }
        let topFrame = session.topFrame.map(WebNames.describe) ?? ""
        if let expectedTopFrame, expectedTopFrame != topFrame {
            mismatches.append("topFrame: expected \(Self.show(expectedTopFrame)), got \(Self.show(topFrame))")
        }
        let detail = "\(WebNames.describe(settings)): " + outcomes.joined(separator: "; ")
        return StepCheck(passed: mismatches.isEmpty, detail: detail, mismatches: mismatches)
    }

    private static func show(_ topFrame: String) -> String { topFrame.isEmpty ? "nothing loaded" : topFrame }
}

extension AuthBrowserCheck {
    func evaluate(_ app: AppProfile) -> StepCheck {
        let decision: AuthBrowserDecision
        do {
            decision = try AuthBrowserSelection.decide(webviewType, on: platform, intune: app.intuneAuthContext(appInitiated: appInitiated))
        } catch {
            let name = WebNames.name(error.code)
            let detail = "MSAL fails the request: \(error)"
            return expected.error == name ? .passed(detail) : .failed(detail, ["error: expected \(expected.error ?? "none"), got \(name)"])
        }
        let got = WebNames.fields(of: decision)
        var mismatches: [String] = []
        if let error = expected.error { mismatches.append("error: expected \(error), got none") }
        let wanted: [(String, String?)] = [
            ("webView", expected.webView?.rawValue), ("browser", expected.browser?.rawValue),
            ("sharesCookies", expected.sharesCookies.map { "\($0)" }), ("sso", expected.sso?.rawValue),
            ("findings", expected.findings.map { "[\($0.joined(separator: ", "))]" }),
        ]
        for (key, value) in wanted {
            guard let value, let actual = got.first(where: { $0.0 == key })?.1, value != actual else { continue }
            mismatches.append("\(key): expected \(value), got \(actual)")
        }
        return StepCheck(passed: mismatches.isEmpty, detail: got.map { "\($0.0) \($0.1)" }.joined(separator: ", "), mismatches: mismatches)
    }
}
