import ComplianceCore
import Testing
@testable import Flows

/// The web content checks in the flow format: what parses, and every mistake named.
@Suite struct WebStepParserTests {
    static func flow(_ steps: String, app: String = "webviews-example-Info.plist", extra: String = "") throws(FlowError) -> Flow {
        try FlowParserTests.parse(#"{"app": "../mocks/fixtures/apps/\#(app)"\#(extra), "steps": [\#(steps)]}"#)
    }

    @Test func theThreeChecksParseWithTheirDefaults() throws {
        let flow = try Self.flow("""
            {"do": "expectWebView", "view": "E", "policy": "currentIdentity", "uiIdentity": "managed", "account": "alice@contoso.com",
             "delegate": {"internalURLs": ["https://docs.contoso.com/a"], "internalHosts": ["contoso.com"]}, "linkPolicy": "managedBrowser",
             "navigations": [{"url": "https://bing.com/", "expect": "openInManagedBrowser", "browserURL": "microsoft-edge-https://bing.com/"},
                             {"url": "https://ads.example/", "frame": "iframe", "expect": "loadInView"}],
             "expect": {"dataIdentity": "managed"}},
            {"do": "expectAppBound", "limitsNavigations": true,
             "events": [{"call": "evaluateJavaScript", "expect": "allow"}, {"navigate": "htmlString", "expect": "load"}],
             "expect": {"topFrame": "htmlString"}},
            {"do": "expectAuthBrowser", "os": "ios", "version": "12.4", "webviewType": "authSession", "expect": {"webView": "ASWebAuthenticationSession"}},
            {"do": "expectWebView", "uiIdentity": "none", "expect": {"dataIdentity": "unmanaged"}}
            """)
        #expect(!flow.needsServers)
        #expect(flow.webApp?.flag("TreatAllWebViewsAsUnmanaged") == true)
        guard case .web(.webView(let view)) = flow.steps[0].action else { Issue.record("step 1: \(flow.steps[0].action)"); return }
        #expect(view.policy == .currentIdentity && view.uiIdentity == .managed(account: "alice@contoso.com") && view.linkPolicy == .managedBrowser)
        #expect(view.rule == .init(internal: [.url("https://docs.contoso.com/a"), .host("contoso.com")]))
        #expect(view.navigations.map(\.expected) == ["openInManagedBrowser", "loadInView"])
        #expect(view.navigations.map(\.frame) == [.top, .iframe])
        #expect(view.expectedDataIdentity == "managed")
        guard case .web(.appBound(let appBound)) = flow.steps[1].action else { Issue.record("step 2"); return }
        #expect(appBound.limitsNavigations && appBound.steps.map(\.expected) == ["allow", "load"] && appBound.expectedTopFrame == "htmlString")
        #expect(appBound.steps.map(\.event.summary) == ["call evaluateJavaScript", "navigate htmlString"])
        guard case .web(.authBrowser(let auth)) = flow.steps[2].action else { Issue.record("step 3"); return }
        #expect(auth.platform == .iOS(12, 4) && auth.webviewType == .authenticationSession && !auth.appInitiated)
        guard case .web(.webView(let nobody)) = flow.steps[3].action else { Issue.record("step 4"); return }
        #expect(nobody.view == "web view" && nobody.policy == .unset && nobody.uiIdentity == UIPolicyIdentity.none && nobody.rule == nil && nobody.linkPolicy == .anyApp)
        #expect(flow.steps[0].action.summary == "expectWebView E (currentIdentity, UI managed (alice@contoso.com))")
    }

    @Test func aFlowWithAnyOtherStepNeedsServersAndReadsNoProfile() throws {
        let flow = try Self.flow(#"{"do": "clearFaults"}"#, app: "wrongtype-Info.plist")
        #expect(flow.needsServers)
        #expect(flow.webApp == nil)
        let mixed = try Self.flow(#"{"do": "clearFaults"}, {"do": "expectWebView", "uiIdentity": "none", "expect": {"dataIdentity": "unmanaged"}}"#)
        #expect(mixed.needsServers && mixed.webApp != nil)
    }

    @Test func theEntitlementsAreReadWithTheProfile() throws {
        let flow = try Self.flow(
            #"{"do": "expectAppBound", "events": [{"call": "setCookie", "expect": "allow"}]}"#, app: "appbound-browser-Info.plist",
            extra: #", "entitlements": "../mocks/fixtures/apps/appbound-browser.entitlements""#)
        #expect(try flow.webApp?.appBoundSettings().hasWebBrowserEntitlement == true)
        #expect(flow.entitlements == FlowParserTests.root + "/mocks/fixtures/apps/appbound-browser.entitlements")
    }

    @Test(arguments: [
        (#"{"do": "expectWebView", "expect": {"dataIdentity": "managed"}}"#, "expectWebView: field 'uiIdentity' is required (managed, unmanaged, none)"),
        (#"{"do": "expectWebView", "uiIdentity": "admin", "expect": {"dataIdentity": "managed"}}"#, "field 'uiIdentity' must be one of managed, unmanaged, none, found 'admin'"),
        (#"{"do": "expectWebView", "uiIdentity": "none", "account": "a@b.c", "expect": {"dataIdentity": "unmanaged"}}"#, "'account' goes with uiIdentity managed or unmanaged"),
        (#"{"do": "expectWebView", "uiIdentity": "managed"}"#, "give 'expect' ({\"dataIdentity\": …}) or 'navigations'"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "policy": "current", "expect": {"dataIdentity": "managed"}}"#, "field 'policy' must be one of unset, unmanaged, currentIdentity"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "expect": {"dataIdentity": "managed", "data": 1}}"#, "expectWebView: expect: unknown field 'data'"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "navigations": [{"url": "x", "expect": "loadInView"}]}"#, "navigation 1: field 'url': 'x' is not a URL"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "navigations": [{"url": "https://a/", "expect": "load"}]}"#, "navigation 1: field 'expect' must be one of loadInView, openInManagedBrowser, blocked"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "navigations": [{"url": "https://a/", "expect": "blocked", "browserURL": "x"}]}"#, "'browserURL' goes with expect openInManagedBrowser"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "navigations": [{"url": "https://a/", "expect": "blocked", "frmae": "top"}]}"#, "expectWebView: navigation 1: unknown field 'frmae'"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "delegate": {"internal": []}, "expect": {"dataIdentity": "managed"}}"#, "expectWebView: delegate: unknown field 'internal'"),
        (#"{"do": "expectWebView", "uiIdentity": "managed", "delegate": {"internalPrefixes": ["nope"]}, "expect": {"dataIdentity": "managed"}}"#, "delegate: field 'internalPrefixes'[0]: 'nope' is not a URL"),
        (#"{"do": "expectAppBound"}"#, "expectAppBound: field 'events' is required"),
        (#"{"do": "expectAppBound", "events": [{"navigate": "https://a/", "call": "setCookie", "expect": "load"}]}"#, "event 1: give exactly one of 'navigate'"),
        (#"{"do": "expectAppBound", "events": [{"call": "eval", "expect": "allow"}]}"#, "event 1: field 'call' must be one of evaluateJavaScript"),
        (#"{"do": "expectAppBound", "events": [{"call": "setCookie", "frame": "top", "expect": "allow"}]}"#, "expectAppBound: event 1: unknown field 'frame'"),
        (#"{"do": "expectAppBound", "events": [{"navigate": "https://a/", "expect": "allow"}]}"#, "event 1: field 'expect' must be one of load, appBoundDomainFailure"),
        (#"{"do": "expectAppBound", "events": [{"navigate": "nowhere", "expect": "load"}]}"#, "field 'navigate' must be a URL or \"htmlString\""),
        (#"{"do": "expectAppBound", "events": [{"call": "setCookie", "expect": "allow"}], "expect": {"error": "tooManyAppBoundDomains"}}"#, "with expect.error the profile is refused"),
        (#"{"do": "expectAppBound", "events": [{"call": "setCookie", "expect": "allow"}], "expect": {"topFrame": "somewhere"}}"#, "field 'topFrame' must be a URL"),
        (#"{"do": "expectAuthBrowser", "os": "android", "version": "12", "expect": {"webView": "WKWebView"}}"#, "'os' must be iOS or macOS"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12.x", "expect": {"webView": "WKWebView"}}"#, "found 'iOS' '12.x'"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": 12, "expect": {"webView": "WKWebView"}}"#, "field 'version' must be a string, found"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "webviewType": "safari", "expect": {"webView": "WKWebView"}}"#, "field 'webviewType' must be one of default, authSession"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12"}"#, "field 'expect' is required"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {}}"#, "expectAuthBrowser: expect: name at least one of"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {"webView": "Safari"}}"#, "field 'webView' must be one of ASWebAuthenticationSession"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {"findings": ["leak"]}}"#, "'leak' is not a finding"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {"error": "webviewTypeUnavailable", "webView": "WKWebView"}}"#, "with 'error' MSAL fails the request"),
        (#"{"do": "expectAuthBrowser", "os": "iOS", "version": "12", "expect": {"webview": "WKWebView"}}"#, "expectAuthBrowser: expect: unknown field 'webview'"),
        (#"{"do": "expectWebViewDecision"}"#, "expectWebViewDecision: field 'expect' is required"),
        (#"{"do": "expectWebViewDecision", "expect": {}}"#, "expect: name at least one of uiIdentity"),
        (#"{"do": "expectWebViewDecision", "uiIdentity": "managed", "expect": {"dataIdentity": "managed"}}"#, "expectWebViewDecision: unknown field 'uiIdentity'"),
        (#"{"do": "expectWebViewDecision", "expect": {"navigation": "loadInView"}}"#, "'navigation' needs the step's 'url'"),
        (#"{"do": "expectWebViewDecision", "url": "x", "expect": {"dataIdentity": "managed"}}"#, "field 'url': 'x' is not a URL"),
        (#"{"do": "expectWebViewDecision", "frame": "iframe", "expect": {"dataIdentity": "managed"}}"#, "field 'frame' goes with 'url'"),
        (#"{"do": "expectWebViewDecision", "delegate": {"internalHosts": ["contoso.com"]}, "expect": {"dataIdentity": "managed"}}"#, "field 'delegate' goes with 'url'"),
        (#"{"do": "expectWebViewDecision", "expect": {"clipboardRestriction": "some"}}"#, "field 'clipboardRestriction' must be one of allApps, managedAppsWithPasteIn, managedApps, blocked"),
        (#"{"do": "expectClipboard", "from": "app", "to": "desk", "expect": {"allowed": true}}"#, "field 'to' must be one of app, webView, managedApp, unmanagedApp, found 'desk'"),
        (#"{"do": "expectClipboard", "from": "app", "fromPolicy": "unset", "to": "managedApp", "expect": {"allowed": true}}"#, "field 'fromPolicy' goes with from \"webView\""),
        (#"{"do": "expectClipboard", "from": "app", "to": "managedApp", "expect": {"restriction": null}}"#, "expectClipboard: expect: field 'allowed' is required"),
        (#"{"do": "expectClipboard", "from": "app", "to": "managedApp", "expect": {"allowed": true, "restriction": "some"}}"#, "field 'restriction' must be null or one of allApps"),
    ])
    func aBadWebStepNamesItsIndexAndTheReason(step: String, reason: String) throws {
        do {
            _ = try Self.flow(#"{"do": "clearFaults"}, "# + step)
            Issue.record("parsed: \(step)")
        } catch {
            #expect(error.step == 2)
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.description.hasPrefix("\(FlowParserTests.file): step 2: "))
        }
    }

    @Test func aMissingEntitlementsFileIsNamed() {
        do {
            _ = try Self.flow(#"{"do": "clearFaults"}"#, extra: #", "entitlements": "nowhere.entitlements""#)
            Issue.record("parsed")
        } catch {
            #expect(error.reason.hasPrefix("field 'entitlements': ") && error.reason.hasSuffix("nowhere.entitlements does not exist"), "\(error)")
        }
    }

    @Test func anUnreadableProfileMakesAFlowWithWebChecksInvalid() throws {
        let step = #"{"do": "expectWebView", "uiIdentity": "none", "expect": {"dataIdentity": "unmanaged"}}"#
        do {
            _ = try Self.flow(step, app: "wrongtype-Info.plist")
            Issue.record("parsed")
        } catch {
            #expect(error.step == nil)
            #expect(error.reason.contains("the app profile of the web checks: "), "\(error)")
            #expect(error.reason.contains("wrongtype-Info.plist: IntuneMAMSettings.ADALClientId: expected a string, found integer"), "\(error)")
        }
    }
}
