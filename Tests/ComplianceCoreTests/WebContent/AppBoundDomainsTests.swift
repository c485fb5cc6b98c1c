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

    @Test func hybridAppInjectsOnItsDomainAndBrowsesInASecondView() throws {
        let settings = AppBoundSettings(appBoundDomains: try AppBoundDomains(["hybrid.example"]))
        var own = AppBoundWebViewSession(settings: settings, limitsNavigationsToAppBoundDomains: true)
        // "HybridApp can now navigate to hybrid.example and successfully inject JavaScript"
        #expect(try own.navigationRequested(content("https://hybrid.example")) == .load)
        #expect(own.restrictedAPICalled(.evaluateJavaScript) == .allow)
        // "navigate to shop.example ... will result in the error 'App-bound domain failure.'"
        #expect(try own.navigationRequested(content("https://shop.example")) == .failAppBoundDomain)
        #expect(try own.topFrame == content("https://hybrid.example"))

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
