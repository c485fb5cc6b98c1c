import AppProfile
import ArgumentParser
import ComplianceCore
import Flows

/// `compliancectl browser`: MSAL's auth web view on an OS version, and the Intune SDK's view of it.
struct BrowserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browser",
        abstract: "Print the web view MSAL signs in with on an iOS or macOS version, its cookie sharing and SSO, and the Intune findings.",
        discussion: """
            MSAL's default (--webview-type default): iOS 12+ ASWebAuthenticationSession, iOS 11 \
            SFAuthenticationSession, iOS 10 SFSafariViewController; macOS 10.15+ \
            ASWebAuthenticationSession, older macOS WKWebView. Other types: authSession \
            (ASWebAuthenticationSession, or SFAuthenticationSession on iOS 11; MSAL fails the \
            request where neither exists), safariViewController (iOS only), wkWebView.

            With --app the Intune SDK's rules apply: app-initiated sign-in (--app-initiated) should \
            use WKWebView unless the app sets IntuneMAMSettings.SafariViewControllerBlockedOverride, \
            and that override is always reported as a data-leak warning.

            Exit status: 0 MSAL can use the web view and Intune finds no error (warnings allowed), \
            1 MSAL fails the request or Intune finds an error, 64 usage (the message names the \
            argument), 65 the --app profile cannot be read or is invalid.

            Examples:
              compliancectl browser --os ios --version 12.4
              compliancectl browser --os macos --version 10.14 --json
              compliancectl browser --os ios --version 13 --app-initiated \\
                  --app mocks/fixtures/apps/auth-override-Info.plist
            """)

    @Option(name: .long, help: ArgumentHelp("ios or macos.", valueName: "os"))
    var os: String

    @Option(name: .long, help: ArgumentHelp("The OS version, e.g. 12.4 or 10.15.", valueName: "version"))
    var version: String

    @Option(name: .customLong("webview-type"), help: ArgumentHelp("MSALWebviewType: \(WebNames.webviewTypeNames).", valueName: "type"))
    var webviewType = "default"

    @Option(name: .long, help: ArgumentHelp("The app's Info.plist: apply the Intune SDK's rules.", valueName: "plist"))
    var app: String?

    @Flag(name: .customLong("app-initiated"), help: "The app starts the sign-in itself (not the Intune SDK's enrollment). Needs --app.")
    var appInitiated = false

    @Flag(name: .long, help: "Print JSON instead of lines.")
    var json = false

    func validate() throws {
        _ = try request()
    }

    func run() throws {
        let (platform, type) = try request()
        var context: IntuneAuthContext?
        if let app {
            context = try ProfileInput.load(app, entitlements: nil, json: json).intuneAuthContext(appInitiated: appInitiated)
        }
        let output = BrowserOutput(platform: platform, type: type, app: app, context: context)
        if json { print(output.json.encodedString()) } else { Terminal.say(output.lines.joined(separator: "\n")) }
        if !output.succeeded { throw Exit.failed }
    }

    private func request() throws -> (AuthPlatform, MSALWebviewType) {
        guard ["ios", "macos"].contains(os.lowercased()) else { throw ValidationError("--os must be ios or macos, found '\(os)'.") }
        guard let platform = WebNames.platform(os: os, version: version) else {
            throw ValidationError("--version must be a version such as 12.4 or 10.15, found '\(version)'.")
        }
        guard let type = WebNames.webviewType(webviewType) else {
            throw ValidationError("--webview-type must be one of \(WebNames.webviewTypeNames), found '\(webviewType)'.")
        }
        if appInitiated, app == nil { throw ValidationError("--app-initiated needs --app (the Info.plist says whether SafariViewControllerBlockedOverride is set).") }
        return (platform, type)
    }
}
