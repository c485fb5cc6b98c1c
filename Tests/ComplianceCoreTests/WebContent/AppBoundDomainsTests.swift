import Testing
@testable import ComplianceCore

/// WebKit's App-Bound Domains article: UnchangedApp, ShopApp, SocialApp, BrowserApp, HybridApp.
@Suite struct AppBoundDomainsTests {
    func content(_ text: String) throws -> WebContent { try #require(WebContent(text)) }

    @Test func unchangedAppHasNoRestrictedAPIsOnAnyDomain() throws {
        var view = AppBoundWebViewSession(settings: .notOptedIn, limitsNavigationsToAppBoundDomains: false)
        #expect(try view.navigationRequested(content("https://tracker.example/")) == .load)
        for api in RestrictedWebAPI.allCases { #expect(view.restrictedAPICalled(api) == .allow) }
        #expect(try view.navigationRequested(content("https://anything.example/")) == .load)
    }

    @Test func shopAppHasEveryAPIOnItsOwnDomainsAndThirdPartyIframes() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains(["shop.example", "shop-cdn.example"]))
        var view = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
        #expect(try view.navigationRequested(content("https://shop.example/")) == .load)
        for api in RestrictedWebAPI.allCases { #expect(view.restrictedAPICalled(api) == .allow) }
        #expect(try view.navigationRequested(content("https://shop-cdn.example/img")) == .load)
        #expect(view.restrictedAPICalled(.getAllCookies) == .allow)
        // "the check for app-bound domains only occurs for the top-level frame"
        #expect(try view.navigationRequested(content("https://ads.example/banner"), frame: .iframe) == .load)
        #expect(view.restrictedAPICalled(.evaluateJavaScript) == .allow)
        #expect(try view.topFrame == content("https://shop-cdn.example/img"))
        // "any attempt to navigate away from an app-bound domain will fail"
        #expect(try view.navigationRequested(content("https://elsewhere.example/")) == .failAppBoundDomain)
        #expect(AppBoundWebViewSession.appBoundDomainFailure == "App-bound domain failure")
    }

    @Test func localFilesDataURLsAndHTMLStringsAreAlwaysAppBound() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains(["shop.example"]))
        var view = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
        #expect(try view.navigationRequested(content("file:///app/index.html")) == .load)
        #expect(view.restrictedAPICalled(.addUserScript) == .allow)
        #expect(try view.navigationRequested(content("data:text/html,<b>hi</b>")) == .load)
        #expect(view.navigationRequested(.htmlString) == .load)
        #expect(view.restrictedAPICalled(.messageHandlers) == .allow)
        #expect(try view.navigationRequested(content("https://www.shop.example/")) == .load)
    }

    @Test func socialAppWithEmptyListRestrictsAPIsButNotBrowsing() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains([]))
        var browsing = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: false)
        #expect(try browsing.navigationRequested(content("https://news.example/")) == .load)
        #expect(try browsing.navigationRequested(content("https://tracker.example/")) == .load)
        // "if SocialApp first navigates to a non-app-bound domain then tries to use a restricted API, the API call will fail"
        for api in RestrictedWebAPI.allCases { #expect(browsing.restrictedAPICalled(api) == .denyNotAppBound) }

        // "If a WKWebView in SocialApp uses a restricted API before any navigations occur, and then tries to
        // navigate to a domain outside of the set ..., the navigation will fail with the error 'App-bound domain failure.'"
        var early = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: false)
        #expect(early.restrictedAPICalled(.evaluateJavaScript) == .allow)
        #expect(try early.navigationRequested(content("https://news.example/")) == .failAppBoundDomain)
        #expect(early.topFrame == nil)
    }

    @Test func browserAppEntitlementLiftsEveryRestriction() throws {
        // Even with a (needless) WKAppBoundDomains key, the entitlement wins.
        for domains in [nil, try AppBoundDomains(["browser.example"])] {
            let settings = AppBoundSettings(appBoundDomains: domains, hasWebBrowserEntitlement: true)
            var view = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
            #expect(view.restrictedAPICalled(.evaluateJavaScript) == .allow)
            #expect(try view.navigationRequested(content("https://any.example/")) == .load)
            for api in RestrictedWebAPI.allCases { #expect(view.restrictedAPICalled(api) == .allow) }
        }
    }

    @Test func unrestrictedViewsShowTheirLastTopFrameLoad() throws {
        // UnchangedApp ("pre-iOS 14.0 WKWebView behavior") and BrowserApp (with or without a
        // needless key): every navigation loads, so the top frame is the last one loaded.
        let unrestricted = [
            AppBoundSettings.notOptedIn,
            AppBoundSettings(appBoundDomains: nil, hasWebBrowserEntitlement: true),
            AppBoundSettings(appBoundDomains: try AppBoundDomains(["browser.example"]), hasWebBrowserEntitlement: true),
        ]
        for settings in unrestricted {
            for limits in [false, true] {
                var view = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: limits)
                #expect(view.topFrame == nil, "nothing loaded yet")
                #expect(view.restrictedAPICalled(.evaluateJavaScript) == .allow)
                #expect(view.topFrame == nil, "an API call loads nothing")
                #expect(try view.navigationRequested(content("https://news.example/a")) == .load)
                #expect(try view.topFrame == content("https://news.example/a"))
                #expect(try view.navigationRequested(content("https://tracker.example/b")) == .load)
                #expect(try view.topFrame == content("https://tracker.example/b"))
                #expect(try view.navigationRequested(content("https://ads.example/frame"), frame: .iframe) == .load)
                #expect(try view.topFrame == content("https://tracker.example/b"), "an iframe leaves the top frame as it was")
                #expect(view.restrictedAPICalled(.getAllCookies) == .allow)
                #expect(view.navigationRequested(.htmlString) == .load)
                #expect(view.topFrame == .htmlString)
            }
        }
    }

    @Test func appBoundViewsShowTheirLastAcceptedTopFrameLoad() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains(["hybrid.example"]))
        // Not limited: blank → foreign → app-bound; iframes change nothing.
        var browsing = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: false)
        #expect(browsing.topFrame == nil)
        #expect(try browsing.navigationRequested(content("https://shop.example/")) == .load)
        #expect(try browsing.topFrame == content("https://shop.example/"))
        #expect(try browsing.navigationRequested(content("https://hybrid.example/")) == .load)
        #expect(try browsing.navigationRequested(content("https://ads.example/"), frame: .iframe) == .load)
        #expect(try browsing.topFrame == content("https://hybrid.example/"))

        // Limited: a refused navigation keeps what the frame showed.
        var limited = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
        #expect(try limited.navigationRequested(content("https://hybrid.example/")) == .load)
        #expect(try limited.navigationRequested(content("https://shop.example/")) == .failAppBoundDomain)
        #expect(try limited.topFrame == content("https://hybrid.example/"))

        // Bound by an early API call: blank until an app-bound load.
        var early = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: false)
        #expect(early.restrictedAPICalled(.addUserScript) == .allow)
        #expect(try early.navigationRequested(content("https://shop.example/")) == .failAppBoundDomain)
        #expect(early.topFrame == nil)
        #expect(try early.navigationRequested(content("https://www.hybrid.example/")) == .load)
        #expect(try early.topFrame == content("https://www.hybrid.example/"))
    }

    @Test func hybridAppInjectsOnItsDomainAndBrowsesInASecondView() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains(["hybrid.example"]))
        var own = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
        // "HybridApp can now navigate to hybrid.example and successfully inject JavaScript"
        #expect(try own.navigationRequested(content("https://hybrid.example")) == .load)
        #expect(own.restrictedAPICalled(.evaluateJavaScript) == .allow)
        // "navigate to shop.example ... will result in the error 'App-bound domain failure.'"
        #expect(try own.navigationRequested(content("https://shop.example")) == .failAppBoundDomain)
        // "// An App-bound domain error should be handled here." (the call right after the load)
        #expect(own.restrictedAPICalled(.evaluateJavaScript) == .denyAppBoundDomainFailure)
        #expect(try own.topFrame == content("https://hybrid.example"))
        #expect(own.restrictedAPICalled(.evaluateJavaScript) == .allow)
        // A navigation after the refused one settles it, loaded or refused again.
        #expect(try own.navigationRequested(content("https://shop.example")) == .failAppBoundDomain)
        #expect(try own.navigationRequested(content("https://hybrid.example/cart")) == .load)
        #expect(own.restrictedAPICalled(.addUserScript) == .allow)

        // "a different WKWebView with no limitsNavigationsToAppBoundDomains ... can navigate to any domain,
        // including app-bound domains. However, any attempts to call restricted APIs will fail."
        var browser = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: false)
        #expect(try browser.navigationRequested(content("https://shop.example")) == .load)
        #expect(browser.restrictedAPICalled(.evaluateJavaScript) == .denyNotAppBound)
        #expect(try browser.navigationRequested(content("https://hybrid.example")) == .load)
        for api in RestrictedWebAPI.allCases { #expect(browser.restrictedAPICalled(api) == .denyNavigationsNotLimited) }
    }

    @Test func atMostTenDomains() throws {
        let ten = (1...10).map { "d\($0).example" }
        #expect(try AppBoundDomains(ten).domains.count == 10)
        #expect(throws: WebContentError(code: .tooManyAppBoundDomains, context: "11 domains listed, at most 10 allowed")) {
            try AppBoundDomains(ten + ["d11.example"])
        }
    }
}
