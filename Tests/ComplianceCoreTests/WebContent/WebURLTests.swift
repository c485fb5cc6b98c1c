import Testing
@testable import ComplianceCore

@Suite struct WebURLTests {
    @Test func splitsSchemeHostAndPath() throws {
        let url = try #require(WebURL("HTTPS://User:pw@Shop.Example:8443/Cart/Items?id=1#top"))
        #expect(url.scheme == "https")
        #expect(url.host == "shop.example")
        #expect(url.path == "/Cart/Items")
        #expect(url.isWeb)
    }

    @Test func urlsWithoutAuthorityHaveNoHost() throws {
        let data = try #require(WebURL("data:text/html,<p>hi</p>"))
        #expect(data.scheme == "data")
        #expect(data.host == nil)
        #expect(data.path == "text/html,<p>hi</p>")
        let file = try #require(WebURL("file:///var/app/index.html"))
        #expect(file.host == nil)
        #expect(file.path == "/var/app/index.html")
        #expect(try #require(WebURL("http://[::1]:8080/x")).host == "[::1]")
    }

    @Test func rejectsTextWithoutScheme() {
        #expect(WebURL("shop.example/path") == nil)
        #expect(WebURL("://x") == nil)
        #expect(WebURL("1http://x") == nil)
    }

    @Test func managedBrowserFormOfAURL() throws {
        #expect(ManagedBrowser.url(opening: try #require(WebURL("https://x"))) == "microsoft-edge-https://x")
        #expect(ManagedBrowser.url(opening: try #require(WebURL("HTTP://x/a?b"))) == "microsoft-edge-http://x/a?b")
        #expect(ManagedBrowser.url(opening: try #require(WebURL("mailto:a@b.example"))) == nil)
    }
}
