import Testing
@testable import ComplianceCore

/// MSAL iOS/macOS "Customize browsers and WebViews": the default tables, the cookie/SSO table,
/// webviewType overrides; and the Intune SDK's rule for app-initiated auth.
@Suite struct AuthBrowserSelectionTests {
    @Test func defaultConfigurationForIOS() {
        #expect(AuthBrowserSelection.defaultWebView(on: .iOS(12)) == .asWebAuthenticationSession)
        #expect(AuthBrowserSelection.defaultWebView(on: .iOS(17, 4)) == .asWebAuthenticationSession)
        #expect(AuthBrowserSelection.defaultWebView(on: .iOS(11)) == .sfAuthenticationSession)
        #expect(AuthBrowserSelection.defaultWebView(on: .iOS(10)) == .sfSafariViewController)
    }

    @Test func defaultConfigurationForMacOS() {
        #expect(AuthBrowserSelection.defaultWebView(on: .macOS(10, 15)) == .asWebAuthenticationSession)
        #expect(AuthBrowserSelection.defaultWebView(on: .macOS(14)) == .asWebAuthenticationSession)
        #expect(AuthBrowserSelection.defaultWebView(on: .macOS(10, 14)) == .wkWebView)
    }

    @Test func cookieSharingAndSSOTable() throws {
        let system = AuthBrowserTraits(kind: .system, sharesCookies: true, sso: .withSafariInstances)
        #expect(AuthWebView.asWebAuthenticationSession.traits(on: .iOS(12)) == system)
        #expect(AuthWebView.asWebAuthenticationSession.traits(on: .macOS(10, 15)) == system)
        #expect(AuthWebView.asWebAuthenticationSession.traits(on: .iOS(11)) == nil)
        #expect(AuthWebView.asWebAuthenticationSession.traits(on: .macOS(10, 14)) == nil)
        #expect(AuthWebView.sfAuthenticationSession.traits(on: .iOS(11)) == system)
        #expect(AuthWebView.sfAuthenticationSession.traits(on: .macOS(12)) == nil)
        #expect(AuthWebView.sfSafariViewController.traits(on: .iOS(11))
            == AuthBrowserTraits(kind: .system, sharesCookies: false, sso: .needsTokenSharing))
        #expect(AuthWebView.sfSafariViewController.traits(on: .iOS(10)) == system)
        #expect(AuthWebView.sfSafariViewController.traits(on: .macOS(13)) == nil)
        let inApp = AuthBrowserTraits(kind: .inApp, sharesCookies: false, sso: .needsTokenSharing)
        #expect(AuthWebView.wkWebView.traits(on: .iOS(8)) == inApp)
        #expect(AuthWebView.wkWebView.traits(on: .macOS(10, 10)) == inApp)
        #expect(AuthWebView.wkWebView.traits(on: .macOS(10, 9)) == nil)
        // The decision carries the row of the web view it chose.
        #expect(try AuthBrowserSelection.decide(.default, on: .iOS(10)).traits == system)
        #expect(try AuthBrowserSelection.decide(.default, on: .macOS(10, 14)).traits == inApp)
    }

    @Test func webviewTypeOverrides() throws {
        #expect(try AuthBrowserSelection.webView(for: .wkWebView, on: .iOS(16)) == .wkWebView)
        #expect(try AuthBrowserSelection.webView(for: .safariViewController, on: .iOS(16)) == .sfSafariViewController)
        #expect(try AuthBrowserSelection.webView(for: .authenticationSession, on: .iOS(13)) == .asWebAuthenticationSession)
        #expect(try AuthBrowserSelection.webView(for: .authenticationSession, on: .iOS(11)) == .sfAuthenticationSession)
        #expect(try AuthBrowserSelection.webView(for: .authenticationSession, on: .macOS(11)) == .asWebAuthenticationSession)
        // "if either of these are not present, fails the request"
        #expect(throws: WebContentError(code: .webviewTypeUnavailable, context: "authenticationSession → SFAuthenticationSession on iOS 10.0")) {
            try AuthBrowserSelection.webView(for: .authenticationSession, on: .iOS(10))
        }
        #expect { try AuthBrowserSelection.webView(for: .authenticationSession, on: .macOS(10, 14)) } throws: {
            ($0 as? WebContentError)?.code == .webviewTypeUnavailable
        }
        // SafariViewController exists on iOS only.
        #expect { try AuthBrowserSelection.webView(for: .safariViewController, on: .macOS(14)) } throws: {
            ($0 as? WebContentError)?.code == .webviewTypeUnavailable
        }
    }

    @Test func intuneAppInitiatedAuthShouldUseWKWebView() throws {
        let plain = IntuneAuthContext(appInitiated: true, safariViewControllerBlockedOverride: false)
        #expect(try AuthBrowserSelection.decide(.wkWebView, on: .iOS(17), intune: plain).findings.isEmpty)
        // "By default, MSAL uses ASWebAuthenticationSession": without the override that is an error.
        let byDefault = try AuthBrowserSelection.decide(.default, on: .iOS(17), intune: plain)
        #expect(byDefault.webView == .asWebAuthenticationSession)
        #expect(byDefault.findings == [.requiresSafariViewControllerBlockedOverride(.asWebAuthenticationSession)])
        #expect(byDefault.findings.allSatisfy { !$0.isWarning })
        // With the override it works, with a data-leak warning.
        let overridden = IntuneAuthContext(appInitiated: true, safariViewControllerBlockedOverride: true)
        let withOverride = try AuthBrowserSelection.decide(.safariViewController, on: .iOS(17), intune: overridden)
        #expect(withOverride.findings == [.safariViewControllerHooksDisabled])
        #expect(withOverride.findings.allSatisfy { $0.isWarning })
        // The SDK's own sign-in is not app-initiated; no Intune context, no findings.
        let sdk = IntuneAuthContext(appInitiated: false, safariViewControllerBlockedOverride: false)
        #expect(try AuthBrowserSelection.decide(.default, on: .iOS(17), intune: sdk).findings.isEmpty)
        #expect(try AuthBrowserSelection.decide(.default, on: .iOS(17)).findings.isEmpty)
    }
}
