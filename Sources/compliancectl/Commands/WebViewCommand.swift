import ArgumentParser
import ComplianceCore
import Flows

/// `compliancectl webview decide`: what the Intune SDK and WebKit decide for one web view.
struct WebViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webview",
        abstract: "Decide what the Intune SDK and WebKit do with a web view of an app.",
        discussion: "Example:\n  compliancectl webview decide --app Info.plist --url https://contoso.com/",
        subcommands: [Decide.self])

    struct Decide: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a web view's cut/copy/paste identity, what happens to a navigation, and the App-Bound Domains outcome.",
            discussion: """
                The app's Info.plist gives TreatAllWebViewsAsUnmanaged and WKAppBoundDomains, its \
                entitlements the web-browser entitlement. The web view's policy is the value of \
                setWebViewPolicy:forWebViewer: (unset follows TreatAllWebViewsAsUnmanaged); cut, copy \
                and paste act as the managed account only for a managed UI identity.

                --internal-url/--internal-prefix/--internal-host give the view an isExternalURL: \
                delegate that answers NO for those locations and YES for every other URL. An external \
                top-frame link in a view holding managed data opens in the managed browser \
                (microsoft-edge-https://...) when the app protection policy asks for it \
                (--managed-browser-policy); a link it cannot open there is blocked.

                A page the view loads is then judged by App-Bound Domains (only the top frame is \
                checked), and each --api call is made after it, or before it with --api-first (the \
                order matters: an API call first binds the view to app-bound domains).

                Exit status: 0 decided, 64 usage (the message names the argument), 65 the profile \
                cannot be read or is invalid (e.g. more than 10 WKAppBoundDomains).

                Examples:
                  compliancectl webview decide \\
                      --app mocks/fixtures/apps/webviews-example-Info.plist \\
                      --view-policy currentIdentity --account alice@contoso.com \\
                      --internal-url https://contoso.sharepoint.com/plan.docx \\
                      --managed-browser-policy --url https://www.bing.com/
                  compliancectl webview decide \\
                      --app mocks/fixtures/apps/appbound-hybrid-Info.plist \\
                      --limits-navigations --url https://shop.example/ \\
                      --api evaluateJavaScript --api-first --json
                """)

        @Option(name: .long, help: ArgumentHelp("The app's Info.plist.", valueName: "plist"))
        var app: String

        @Option(name: .long, help: ArgumentHelp("The app's entitlements (for com.apple.developer.web-browser).", valueName: "file"))
        var entitlements: String?

        @Option(name: .customLong("view-policy"), help: ArgumentHelp("unset, unmanaged or currentIdentity.", valueName: "policy"))
        var viewPolicy = "unset"

        @Option(name: .customLong("ui-identity"), help: ArgumentHelp("The current UI policy identity: managed, unmanaged or none.", valueName: "kind"))
        var uiIdentity = "managed"

        @Option(name: .long, help: ArgumentHelp("The UI identity's account (default: user@contoso.com).", valueName: "upn"))
        var account: String?

        @Option(name: .long, help: ArgumentHelp("The URL the web view navigates to.", valueName: "url"))
        var url: String

        @Option(name: .long, help: ArgumentHelp("top or iframe.", valueName: "frame"))
        var frame = "top"

        @Option(name: .customLong("internal-url"), help: ArgumentHelp("A URL the delegate calls internal (repeatable).", valueName: "url"))
        var internalURLs: [String] = []

        @Option(name: .customLong("internal-prefix"), help: ArgumentHelp("A URL prefix the delegate calls internal (repeatable).", valueName: "url"))
        var internalPrefixes: [String] = []

        @Option(name: .customLong("internal-host"), help: ArgumentHelp("A host (and its subdomains) the delegate calls internal (repeatable).", valueName: "host"))
        var internalHosts: [String] = []

        @Flag(name: .customLong("managed-browser-policy"), help: "The app protection policy opens external links in the managed browser.")
        var managedBrowserPolicy = false

        @Flag(name: .customLong("limits-navigations"), help: "The view sets limitsNavigationsToAppBoundDomains.")
        var limitsNavigations = false

        @Option(name: .customLong("api"), help: ArgumentHelp(
            "A restricted API the app calls (repeatable): \(RestrictedWebAPI.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"))
        var apis: [String] = []

        @Flag(name: .customLong("api-first"), help: "Call the --api APIs before the navigation instead of after it.")
        var apiFirst = false

        @Flag(name: .long, help: "Print JSON instead of lines.")
        var json = false

        func validate() throws {
            _ = try query()
        }

        func run() throws {
            let query = try query()
            let profile = try ProfileInput.load(app, entitlements: entitlements, json: json)
            let settings = try ProfileInput.appBoundSettings(profile, file: app, json: json)
            let decision = query.decide(treatAllWebViewsAsUnmanaged: profile.webViewHierarchy().treatAllWebViewsAsUnmanaged, appBound: settings)
            let output = WebViewOutput(app: app, query: query, decision: decision)
            print(json ? output.json.encodedString() : output.lines.joined(separator: "\n"))
        }

        /// The arguments, checked: a bad one is a usage error naming it.
        private func query() throws -> WebViewQuery {
            func pick<T>(_ option: String, _ text: String, _ value: T?, _ allowed: String) throws -> T {
                guard let value else { throw ValidationError("\(option) must be \(allowed), found '\(text)'.") }
                return value
            }
            let policy = try pick("--view-policy", viewPolicy, WebViewPolicy(rawValue: viewPolicy), "unset, unmanaged or currentIdentity")
            let identity = try pick("--ui-identity", uiIdentity, WebNames.uiIdentity(uiIdentity, account: account ?? "user@contoso.com"), "managed, unmanaged or none")
            if case .none = identity, account != nil { throw ValidationError("--account goes with --ui-identity managed or unmanaged, not none.") }
            let target = try pick("--url", url, WebURL(url), "a URL such as https://contoso.com/")
            let webFrame = try pick("--frame", frame, WebNames.frame(frame), "top or iframe")
            var locations: [ExternalURLRule.Match] = []
            for text in internalURLs { locations.append(.url(try pick("--internal-url", text, WebURL(text)?.string, "a URL"))) }
            for text in internalPrefixes { locations.append(.prefix(try pick("--internal-prefix", text, WebURL(text)?.string, "a URL"))) }
            locations += internalHosts.map { .host($0) }
            let calls = try apis.map { try pick("--api", $0, RestrictedWebAPI(rawValue: $0), "one of " + RestrictedWebAPI.allCases.map(\.rawValue).joined(separator: ", ")) }
            return WebViewQuery(
                policy: policy, uiIdentity: identity, url: target, frame: webFrame,
                rule: locations.isEmpty ? nil : ExternalURLRule(internal: locations),
                linkPolicy: managedBrowserPolicy ? .managedBrowser : .anyApp, limitsNavigations: limitsNavigations, apis: calls, apiFirst: apiFirst)
        }
    }
}
