import Foundation
import Testing
@testable import Flows

/// The runner's web checks: ComplianceCore's decisions against the step's expectations, with
/// readable differences, and flows of web checks that start no server.
@Suite struct WebCheckRunnerTests {
    /// The checks of a one-app flow, each decided.
    static func checks(_ steps: String, app: String, extra: String = "") throws -> [StepCheck] {
        let flow = try WebStepParserTests.flow(steps, app: app, extra: extra)
        let profile = try #require(flow.webApp)
        return flow.steps.map { step -> StepCheck in
            guard case .web(let check) = step.action else { return .failed("not a web check") }
            return check.evaluate(profile)
        }
    }

    @Test func webViewIdentityAndNavigationsPassOrNameEachDifference() throws {
        let steps = """
            {"do": "expectWebView", "view": "E", "policy": "currentIdentity", "uiIdentity": "managed", "account": "alice@contoso.com",
             "delegate": {"internalURLs": ["https://docs.contoso.com/plan.docx"]}, "linkPolicy": "managedBrowser",
             "navigations": [{"url": "https://docs.contoso.com/plan.docx#p2", "expect": "loadInView"},
                             {"url": "https://bing.com/?q=x", "expect": "openInManagedBrowser", "browserURL": "microsoft-edge-https://bing.com/?q=x"},
                             {"url": "mailto:a@b.c", "expect": "blocked"}],
             "expect": {"dataIdentity": "managed"}},
            {"do": "expectWebView", "view": "A", "uiIdentity": "managed", "account": "alice@contoso.com", "delegate": {}, "linkPolicy": "managedBrowser",
             "navigations": [{"url": "https://bing.com/", "expect": "openInManagedBrowser", "browserURL": "microsoft-edge-https://bing.com/"}],
             "expect": {"dataIdentity": "managed"}}
            """
        let results = try Self.checks(steps, app: "webviews-example-Info.plist")
        #expect(results[0].passed, "\(results[0].mismatches)")
        #expect(results[0].detail == "cut/copy/paste managed (alice@contoso.com); https://docs.contoso.com/plan.docx#p2 → loadInView; "
            + "https://bing.com/?q=x → openInManagedBrowser microsoft-edge-https://bing.com/?q=x; mailto:a@b.c → blocked")
        // A is unset under TreatAllWebViewsAsUnmanaged: unmanaged, so its links are never sent to Edge.
        #expect(!results[1].passed)
        #expect(results[1].mismatches == [
            "dataIdentity: expected managed, got unmanaged",
            "navigation 1 https://bing.com/: expected openInManagedBrowser microsoft-edge-https://bing.com/, got loadInView",
        ])
    }

    @Test func appBoundEventsFollowOrderAndDenyMatchesEitherReason() throws {
        let steps = """
            {"do": "expectAppBound", "limitsNavigations": true,
             "events": [{"navigate": "https://hybrid.example", "expect": "load"}, {"call": "evaluateJavaScript", "expect": "allow"},
                        {"navigate": "https://shop.example", "expect": "appBoundDomainFailure"},
                        {"navigate": "https://ads.example/x", "frame": "iframe", "expect": "load"}],
             "expect": {"topFrame": "https://hybrid.example"}},
            {"do": "expectAppBound",
             "events": [{"navigate": "https://shop.example", "expect": "load"}, {"call": "getAllCookies", "expect": "deny"},
                        {"call": "setCookie", "expect": "denyNavigationsNotLimited"}, {"navigate": "https://hybrid.example", "expect": "appBoundDomainFailure"}],
             "expect": {"topFrame": ""}},
            {"do": "expectAppBound", "expect": {"error": "tooManyAppBoundDomains"}}
            """
        let results = try Self.checks(steps, app: "appbound-hybrid-Info.plist")
        #expect(results[0].passed, "\(results[0].mismatches)")
        #expect(results[0].detail.hasPrefix("WKAppBoundDomains [hybrid.example]: navigate https://hybrid.example → load; call evaluateJavaScript → allow"))
        #expect(results[1].mismatches == [
            "event 3 call setCookie: expected denyNavigationsNotLimited, got denyNotAppBound",
            "event 4 navigate https://hybrid.example: expected appBoundDomainFailure, got load",
            "topFrame: expected nothing loaded, got https://hybrid.example",
        ])
        #expect(results[2].mismatches == ["error: expected tooManyAppBoundDomains, got none"])

        let refused = try Self.checks(#"{"do": "expectAppBound", "expect": {"error": "tooManyAppBoundDomains"}}, {"do": "expectAppBound", "events": [{"call": "setCookie", "expect": "allow"}]}"#,
            app: "appbound-eleven-domains-Info.plist")
        #expect(refused[0].passed && refused[0].detail == "the profile is refused: tooManyAppBoundDomains (11 domains listed, at most 10 allowed)")
        #expect(refused[1].mismatches == ["error: expected none, got tooManyAppBoundDomains (11 domains listed, at most 10 allowed)"])
    }

    @Test func anUnrestrictedViewReportsItsLastTopFrameLoad() throws {
        let steps = """
            {"do": "expectAppBound",
             "events": [{"navigate": "https://news.example/", "expect": "load"}, {"navigate": "https://tracker.example/", "expect": "load"},
                        {"navigate": "https://ads.example/", "frame": "iframe", "expect": "load"}],
             "expect": {"topFrame": "https://tracker.example/"}},
            {"do": "expectAppBound", "events": [{"navigate": "https://news.example/", "expect": "load"}], "expect": {"topFrame": ""}},
            {"do": "expectAppBound", "events": [{"call": "setCookie", "expect": "allow"}], "expect": {"topFrame": ""}}
            """
        for (app, extra) in [("appbound-unchanged-Info.plist", ""), ("appbound-browser-Info.plist", #", "entitlements": "../mocks/fixtures/apps/appbound-browser.entitlements""#)] {
            let results = try Self.checks(steps, app: app, extra: extra)
            #expect(results[0].passed, "\(app): \(results[0].mismatches)")
            #expect(results[1].mismatches == ["topFrame: expected nothing loaded, got https://news.example/"], "\(app)")
            #expect(results[2].passed, "\(app): \(results[2].mismatches)")
        }
    }

    @Test func authBrowserDecisionsAndIntuneFindings() throws {
        let steps = """
            {"do": "expectAuthBrowser", "os": "iOS", "version": "14.0", "appInitiated": true,
             "expect": {"webView": "ASWebAuthenticationSession", "browser": "system", "sharesCookies": true, "sso": "withSafariInstances",
                        "findings": ["requiresSafariViewControllerBlockedOverride"]}},
            {"do": "expectAuthBrowser", "os": "macOS", "version": "10.14", "expect": {"webView": "ASWebAuthenticationSession", "sharesCookies": true, "findings": []}},
            {"do": "expectAuthBrowser", "os": "iOS", "version": "10.3", "webviewType": "authSession", "expect": {"error": "webviewTypeUnavailable"}},
            {"do": "expectAuthBrowser", "os": "iOS", "version": "10.3", "webviewType": "authSession", "expect": {"webView": "SFAuthenticationSession"}},
            {"do": "expectAuthBrowser", "os": "iOS", "version": "12.0", "expect": {"error": "webviewTypeUnavailable"}}
            """
        let results = try Self.checks(steps, app: "chatr-Info.plist")
        #expect(results[0].passed, "\(results[0].mismatches)")
        #expect(results[0].detail == "webView ASWebAuthenticationSession, browser system, sharesCookies true, sso withSafariInstances, "
            + "findings [requiresSafariViewControllerBlockedOverride]")
        #expect(results[1].mismatches == ["webView: expected ASWebAuthenticationSession, got WKWebView", "sharesCookies: expected true, got false"])
        #expect(results[2].passed && results[2].detail.hasPrefix("MSAL fails the request: the requested web view type is not available"))
        #expect(results[3].mismatches == ["error: expected none, got webviewTypeUnavailable"])
        #expect(results[4].mismatches == ["error: expected webviewTypeUnavailable, got none"])
    }

    @Test func aFlowOfWebChecksRunsWithoutAnyServer() async throws {
        let flow = try WebStepParserTests.flow("""
            {"do": "expectWebView", "uiIdentity": "managed", "expect": {"dataIdentity": "unmanaged"}},
            {"do": "expectWebView", "uiIdentity": "managed", "expect": {"dataIdentity": "managed"}},
            {"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {"webView": "ASWebAuthenticationSession"}}
            """)
        // Executables that do not exist: starting either would be a setup error.
        let options = RunOptions(mockauthPath: "/nonexistent/mockauth", compliancedPath: "/nonexistent/complianced")
        let result = await FlowRunner(flow: flow, options: options, progress: { _ in }).run()
        #expect(result.setupError == nil)
        #expect(result.steps.map(\.outcome) == [.passed, .failed, .skipped])
        #expect(result.failedStep?.mismatches == ["dataIdentity: expected managed, got unmanaged"])
        #expect(result.lastEvents.isEmpty && result.daemonLog.isEmpty)
    }
}
