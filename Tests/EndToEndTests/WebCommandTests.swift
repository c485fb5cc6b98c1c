import Foundation
import JSON
import Testing

/// `compliancectl webview decide` and `compliancectl browser`: decisions in lines and JSON,
/// usage errors naming the argument, invalid profiles refused.
@Suite struct WebCommandTests {
    static let apps = CLI.root + "/mocks/fixtures/apps"

    @Test func webViewEOfTheExampleAppSendsForeignLinksToEdge() async throws {
        let arguments = [
            "webview", "decide", "--app", Self.apps + "/webviews-example-Info.plist", "--view-policy", "currentIdentity",
            "--ui-identity", "managed", "--account", "alice@contoso.com", "--internal-url", "https://contoso.sharepoint.com/plan.docx",
            "--managed-browser-policy", "--url", "https://www.bing.com/search?q=contoso",
        ]
        let result = try await CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasSuffix("webviews-example-Info.plist — TreatAllWebViewsAsUnmanaged YES, no WKAppBoundDomains (not opted in)"))
        #expect(lines[2] == "cut/copy/paste: managed (alice@contoso.com) — copied content is managed, pasting follows the account's policy")
        #expect(lines[3] == "navigation: https://www.bing.com/search?q=contoso (top frame) → openInManagedBrowser "
            + "microsoft-edge-https://www.bing.com/search?q=contoso — the page opens in the managed browser instead of the web view")
        #expect(lines[4] == "app-bound: the page is not loaded in the web view")

        let json = try await CLI.run(arguments + ["--json"])
        #expect(json.status == 0)
        #expect(json.json["dataIdentity"] == ["kind": "managed", "account": "alice@contoso.com"])
        #expect(json.json["navigation"]?["decision"] == "openInManagedBrowser")
        #expect(json.json["navigation"]?["managedBrowserURL"] == "microsoft-edge-https://www.bing.com/search?q=contoso")
        #expect(json.json["webView"]?["delegate"] == ["internal": [["url": "https://contoso.sharepoint.com/plan.docx"]]])
        #expect(json.json["appBound"] == [])
    }

    @Test func appBoundOrderDecidesWhichFails() async throws {
        let base = ["webview", "decide", "--app", Self.apps + "/appbound-hybrid-Info.plist", "--url", "https://shop.example/", "--api", "evaluateJavaScript", "--json"]
        let after = try await CLI.run(base)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.json["appBound"] == [
            ["event": "navigate", "url": "https://shop.example/", "outcome": "load"],
            ["event": "call", "api": "evaluateJavaScript", "outcome": "denyNotAppBound"],
        ])
        let first = try await CLI.run(base + ["--api-first"])
        #expect(first.json["appBound"]?[0]?["outcome"] == "allow")
        #expect(first.json["appBound"]?[1]?["outcome"] == "appBoundDomainFailure")
        let human = try await CLI.run(Array(base.dropLast()) + ["--api-first"])
        #expect(human.stdout.contains("app-bound: navigate https://shop.example/ → appBoundDomainFailure — the navigation fails with \"App-bound domain failure\""))
        let browser = try await CLI.run([
            "webview", "decide", "--app", Self.apps + "/appbound-browser-Info.plist", "--entitlements", Self.apps + "/appbound-browser.entitlements",
            "--url", "https://any.example/", "--api", "getAllCookies", "--json",
        ])
        #expect(browser.json["app"]?["webBrowserEntitlement"] == true)
        #expect(browser.json["appBound"]?[1]?["outcome"] == "allow")
    }

    @Test func webViewRefusesBadArgumentsAndInvalidProfiles() async throws {
        let app = Self.apps + "/webviews-default-Info.plist"
        let cases: [([String], String)] = [
            (["--url", "nowhere"], "--url must be a URL"),
            (["--url", "https://a/", "--view-policy", "managed"], "--view-policy must be unset, unmanaged or currentIdentity, found 'managed'"),
            (["--url", "https://a/", "--ui-identity", "admin"], "--ui-identity must be managed, unmanaged or none"),
            (["--url", "https://a/", "--frame", "side"], "--frame must be top or iframe"),
            (["--url", "https://a/", "--api", "eval"], "--api must be one of evaluateJavaScript"),
            (["--url", "https://a/", "--internal-prefix", "docs"], "--internal-prefix must be a URL, found 'docs'"),
            (["--url", "https://a/", "--ui-identity", "none", "--account", "a@b.c"], "--account goes with --ui-identity managed or unmanaged"),
            ([], "--url is required with --app."),
        ]
        for (arguments, message) in cases {
            let result = try await CLI.run(["webview", "decide", "--app", app] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let tooMany = try await CLI.run(["webview", "decide", "--app", Self.apps + "/appbound-eleven-domains-Info.plist", "--url", "https://a/"])
        #expect(tooMany.status == 65)
        #expect(tooMany.stderr.contains("appbound-eleven-domains-Info.plist: WKAppBoundDomains: 11 domains listed, at most 10 allowed"))
        let unreadable = try await CLI.run(["webview", "decide", "--app", "/nonexistent/Info.plist", "--url", "https://a/", "--json"])
        #expect(unreadable.status == 65 && unreadable.json["error"]?["code"] == "unreadable")
    }

    @Test func browserPrintsMSALsChoiceItsTraitsAndTheIntuneFindings() async throws {
        let plain = try await CLI.run(["browser", "--os", "ios", "--version", "11.4"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == """
            MSAL on iOS 11.4, webviewType default → SFAuthenticationSession
              browser: system (outside the app); shares cookies with Safari: yes; SSO: with Safari instances
            Intune: not checked (give --app to apply the Intune SDK's rules)

            """)
        let mac = try await CLI.run(["browser", "--os", "macOS", "--version", "10.14", "--json"])
        #expect(mac.json["webView"] == "WKWebView" && mac.json["browser"] == "inApp" && mac.json["sharesCookies"] == false)
        #expect(mac.json["sso"] == "needsTokenSharing" && mac.json["intune"] == .null)

        let blocked = try await CLI.run(["browser", "--os", "ios", "--version", "14", "--app", Self.apps + "/chatr-Info.plist", "--app-initiated"])
        #expect(blocked.status == 1, "an Intune error")
        #expect(blocked.stdout.contains("  error: app-initiated MSAL auth uses ASWebAuthenticationSession: set webviewType to WKWebView"))
        let override = try await CLI.run(["browser", "--os", "ios", "--version", "14", "--app", Self.apps + "/auth-override-Info.plist", "--app-initiated", "--json"])
        #expect(override.status == 0, "a warning only")
        #expect(override.json["intune"]?["findings"]?[0]?["name"] == "safariViewControllerHooksDisabled")
        #expect(override.json["intune"]?["findings"]?[0]?["severity"] == "warning")
        let wk = try await CLI.run(["browser", "--os", "ios", "--version", "14", "--webview-type", "wkWebView", "--app", Self.apps + "/chatr-Info.plist", "--app-initiated"])
        #expect(wk.status == 0 && wk.stdout.contains("  no findings"))

        let unavailable = try await CLI.run(["browser", "--os", "macos", "--version", "11", "--webview-type", "safariViewController", "--json"])
        #expect(unavailable.status == 1)
        #expect(unavailable.json["error"]?["code"] == "webviewTypeUnavailable")
    }

    /// A profile value or a file name with control characters is printed escaped by `webview
    /// decide` and `browser`, as `profile lint` prints it.
    @Test func webAndBrowserPrintOutsideTextEscaped() async throws {
        let directory = NSTemporaryDirectory() + "web-escapes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let shop = try String(contentsOfFile: Self.apps + "/appbound-shop-Info.plist", encoding: .utf8)
        #expect(shop.contains("<string>shop-cdn.example</string>"))
        let hostile = directory + "/shop.plist"
        try shop.replacingOccurrences(of: "<string>shop-cdn.example</string>", with: "<string>ev&#x1B;]0;PWNED&#x7;\u{9B}31m\u{202E}il.example</string>")
            .write(toFile: hostile, atomically: true, encoding: .utf8)
        let named = directory + "/app\u{1B}]0;TITLE\u{7}\u{202E}.plist"
        try FileManager.default.copyItem(atPath: Self.apps + "/webviews-example-Info.plist", toPath: named)
        let results = [
            try await CLI.run(["webview", "decide", "--app", hostile, "--url", "https://shop.example/"]),
            try await CLI.run(["browser", "--os", "ios", "--version", "11.4", "--app", named, "--app-initiated"]),
        ]
        for result in results {
            let printed = result.stdout + result.stderr
            #expect(!printed.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, "\(printed)")
            #expect(printed.contains("\\u{1B}]0;"), "\(printed)")
        }
    }

    @Test func browserRefusesBadArguments() async throws {
        let cases: [([String], String)] = [
            (["--os", "android", "--version", "12"], "--os must be ios or macos, found 'android'"),
            (["--os", "ios", "--version", "twelve"], "--version must be a version such as 12.4"),
            (["--os", "ios", "--version", "12", "--webview-type", "safari"], "--webview-type must be one of default, authSession"),
            (["--os", "ios", "--version", "12", "--app-initiated"], "--app-initiated needs --app"),
            (["--os", "ios"], "Missing expected argument '--version <version>'"),
        ]
        for (arguments, message) in cases {
            let result = try await CLI.run(["browser"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let badApp = try await CLI.run(["browser", "--os", "ios", "--version", "12", "--app", Self.apps + "/wrongtype-Info.plist"])
        #expect(badApp.status == 65)
    }
}
