import Testing
@testable import ComplianceCore

/// The web-view guide's scenario 4 and its example app with web views A–E.
@Suite struct WebViewExampleAppTests {
    let user = UIPolicyIdentity.managed(account: "User@Contoso.com")
    let document = "https://contoso.sharepoint.com/sites/team/Shared%20Documents/plan.docx"

    /// A, B, C show no user data; D an organization page; E the user's documents, with links.
    func makeExampleApp() throws -> WebViewHierarchy {
        // "Since the majority of web views are unmanaged (A, B, and C), we can set TreatAllWebViewsAsUnmanaged"
        var app = WebViewHierarchy(treatAllWebViewsAsUnmanaged: true)
        for id: WebViewID in ["A", "B", "C", "D", "E"] { try app.add(id, .wkWebView) }
        // "we need to tag them [D, E] with setWebViewPolicy:forWebViewer: using IntuneMAMWebViewPolicyCurrentIdentity"
        try app.setPolicy(.currentIdentity, for: "D")
        try app.setPolicy(.currentIdentity, for: "E")
        // "check incoming URLs and see if they are the same as the URL for the document"
        try app.setExternalURLRule(ExternalURLRule(internal: [.url(document)]), for: "E")
        return app
    }

    @Test func managedContentCannotLeakToWebViewsABC() throws {
        let app = try makeExampleApp()
        #expect(try app.dataIdentity(of: "A", uiIdentity: user) == .unmanaged)
        #expect(try app.dataIdentity(of: "B", uiIdentity: user) == .unmanaged)
        #expect(try app.dataIdentity(of: "C", uiIdentity: user) == .unmanaged)
    }

    @Test func webViewsDAndEAreProtectedAsTheCurrentIdentity() throws {
        let app = try makeExampleApp()
        #expect(try app.dataIdentity(of: "D", uiIdentity: user) == .managed(account: "User@Contoso.com"))
        #expect(try app.dataIdentity(of: "E", uiIdentity: user) == .managed(account: "User@Contoso.com"))
    }

    @Test func linksInEToOtherURLsOpenInTheManagedBrowser() throws {
        let app = try makeExampleApp()
        let search = try #require(WebURL("https://www.bing.com/search?q=contoso"))
        // "If they don't match, then we know it's an external URL and can return YES."
        #expect(try app.navigate("E", to: search, uiIdentity: user, linkPolicy: .managedBrowser)
            == .openInManagedBrowser("microsoft-edge-https://www.bing.com/search?q=contoso"))
        // "If they do match, then we know it's an internal URL and can return NO."
        let same = try #require(WebURL(document + "#page=2"))
        #expect(try app.navigate("E", to: same, uiIdentity: user, linkPolicy: .managedBrowser) == .loadInView)
        // Only "if current policy settings require it".
        #expect(try app.navigate("E", to: search, uiIdentity: user, linkPolicy: .anyApp) == .loadInView)
        // D has no delegate: it is never asked.
        #expect(try app.navigate("D", to: search, uiIdentity: user, linkPolicy: .managedBrowser) == .loadInView)
    }

    @Test func scenario4DelegateDecidesEachNavigation() throws {
        var app = WebViewHierarchy()
        try app.add("feedback", .safariViewController)
        try app.setExternalURLRule(
            ExternalURLRule(internal: [.prefix("https://feedback.contoso.com/app/"), .host("contoso.com")]),
            for: "feedback"
        )
        func decide(_ text: String, frame: WebFrame = .top, as identity: UIPolicyIdentity? = nil) throws -> NavigationDecision {
            try app.navigate("feedback", to: #require(WebURL(text)), frame: frame, uiIdentity: identity ?? user, linkPolicy: .managedBrowser)
        }
        #expect(try decide("https://feedback.contoso.com/app/ideas/42") == .loadInView)
        #expect(try decide("https://intranet.contoso.com/") == .loadInView)
        #expect(try decide("http://search.example/?q=x") == .openInManagedBrowser("microsoft-edge-http://search.example/?q=x"))
        #expect(try decide("https://contoso.com.evil.example/") == .openInManagedBrowser("microsoft-edge-https://contoso.com.evil.example/"))
        // Not a page the managed browser can open.
        #expect(try decide("ftp://files.example/report.pdf") == .blocked)
        // Each navigation to a new page is asked; an iframe is not a new page.
        #expect(try decide("https://ads.example/frame", frame: .iframe) == .loadInView)
        // "These APIs only need to be called if there is a managed user signed into the app."
        #expect(try decide("https://search.example/", as: .unmanaged(account: "me@example.com")) == .loadInView)
    }
}
