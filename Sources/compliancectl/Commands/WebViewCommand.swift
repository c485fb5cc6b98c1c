import ArgumentParser
import ComplianceCore
import ControlClient
import Flows
import JSON

/// `compliancectl webview decide`: what the Intune SDK and WebKit decide for one web view.
struct WebViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webview",
        abstract: "Decide what the Intune SDK and WebKit do with a web view of an app.",
        discussion: """
            Examples:
              compliancectl webview decide --app Info.plist --url https://contoso.com/
              compliancectl webview decide --state-dir /var/lib/complianced --url https://contoso.com/
            """,
        subcommands: [Decide.self])

    struct Decide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a web view's cut/copy/paste identity, what happens to a navigation, and the App-Bound Domains outcome.",
            discussion: """
                Without --app the running daemon decides (give it with --socket, --state-dir or \
                COMPLIANCED_SOCKET): the UI identity is its effective UI identity, managed only when \
                it is the managed account, and the link policy (openLinksInManagedBrowser), the \
                clipboard restriction and WebViewHandledURLSchemes are those of the managed \
                account's policy in force and of the daemon's profile. --ui-identity, --account, \
                --managed-browser-policy and the App-Bound Domains options describe an app offline \
                and go with --app only.

                With --app the decision is made offline from the profile alone:
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

        @Option(name: .long, help: ArgumentHelp("The app's Info.plist: decide offline from it (without it: ask the daemon).", valueName: "plist"))
        var app: String?

        @Option(name: .long, help: ArgumentHelp("The app's entitlements (for com.apple.developer.web-browser).", valueName: "file"))
        var entitlements: String?

        @Option(name: .customLong("view-policy"), help: ArgumentHelp("unset, unmanaged or currentIdentity.", valueName: "policy"))
        var viewPolicy = "unset"

        @Option(name: .customLong("ui-identity"), help: ArgumentHelp("The current UI policy identity: managed (default), unmanaged or none (with --app).", valueName: "kind"))
        var uiIdentity: String?

        @Option(name: .long, help: ArgumentHelp("The UI identity's account (default: user@contoso.com).", valueName: "upn"))
        var account: String?

        @Option(name: .long, help: ArgumentHelp("The URL the web view navigates to (required with --app).", valueName: "url"))
        var url: String?

        @Option(name: .long, help: ArgumentHelp("top (default) or iframe; goes with --url.", valueName: "frame"))
        var frame: String?

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

        @OptionGroup var address: DaemonAddress

        var json: Bool { address.json }

        func validate() throws {
            guard app != nil else {
                let offline: [(String, Bool)] = [
                    ("--ui-identity", uiIdentity != nil), ("--account", account != nil), ("--managed-browser-policy", managedBrowserPolicy),
                    ("--entitlements", entitlements != nil), ("--limits-navigations", limitsNavigations), ("--api", !apis.isEmpty), ("--api-first", apiFirst),
                ]
                if let given = offline.first(where: \.1) {
                    throw ValidationError("\(given.0) describes an app offline and goes with --app; without --app the daemon's identity and policy decide.")
                }
                try address.check()
                _ = try daemonQuestion()
                return
            }
            _ = try query()
        }

        func run() async throws {
            guard let app else {
                let question = try daemonQuestion()
                try await DaemonCall.run(address) { client throws(ControlClientError) in
                    let answer = try await client.webViewDecision(question)
                    return CommandResult(json: answer, lines: WebViewOutput.daemonLines(answer, url: url), succeeded: true)
                }
                return
            }
            let query = try query()
            let profile = try ProfileInput.load(app, entitlements: entitlements, json: json)
            let settings = try ProfileInput.appBoundSettings(profile, file: app, json: json)
            let web = profile.webViewAppSettings()
            let decision = query.decide(
                treatAllWebViewsAsUnmanaged: web.treatAllWebViewsAsUnmanaged, appBound: settings, handledSchemes: web.handledURLSchemes)
            let output = WebViewOutput(app: app, query: query, decision: decision)
            if json { print(output.json.encodedString()) } else { Terminal.say(output.lines.joined(separator: "\n")) }
        }

        /// The daemon's question (`POST /v1/webview/decide`), checked like the offline arguments.
        private func daemonQuestion() throws -> JSONObject {
            guard let policy = WebViewPolicy(rawValue: viewPolicy) else {
                throw ValidationError("--view-policy must be unset, unmanaged or currentIdentity, found '\(viewPolicy)'.")
            }
            var question: JSONObject = ["policy": .string(policy.rawValue)]
            if let url {
                guard WebURL(url) != nil else { throw ValidationError("--url must be a URL such as https://contoso.com/, found '\(url)'.") }
                let frame = frame ?? "top"
                guard WebNames.frame(frame) != nil else { throw ValidationError("--frame must be top or iframe, found '\(frame)'.") }
                question["url"] = .string(url)
                question["frame"] = .string(frame)
            } else if frame != nil || !internalURLs.isEmpty || !internalPrefixes.isEmpty || !internalHosts.isEmpty {
                throw ValidationError("--frame and --internal-url/--internal-prefix/--internal-host describe a navigation and go with --url.")
            }
            for (option, texts) in [("--internal-url", internalURLs), ("--internal-prefix", internalPrefixes)] {
                if let bad = texts.first(where: { WebURL($0) == nil }) { throw ValidationError("\(option) must be a URL, found '\(bad)'.") }
            }
            if !internalURLs.isEmpty || !internalPrefixes.isEmpty || !internalHosts.isEmpty {
                question["internalURLs"] = .array(internalURLs.map { .string($0) })
                question["internalPrefixes"] = .array(internalPrefixes.map { .string($0) })
                question["internalHosts"] = .array(internalHosts.map { .string($0) })
            }
            return question
        }

        /// The arguments, checked: a bad one is a usage error naming it.
        private func query() throws -> WebViewQuery {
            func pick<T>(_ option: String, _ text: String, _ value: T?, _ allowed: String) throws -> T {
                guard let value else { throw ValidationError("\(option) must be \(allowed), found '\(text)'.") }
                return value
            }
            let policy = try pick("--view-policy", viewPolicy, WebViewPolicy(rawValue: viewPolicy), "unset, unmanaged or currentIdentity")
            let kind = uiIdentity ?? "managed"
            let identity = try pick("--ui-identity", kind, WebNames.uiIdentity(kind, account: account ?? "user@contoso.com"), "managed, unmanaged or none")
            if case .none = identity, account != nil { throw ValidationError("--account goes with --ui-identity managed or unmanaged, not none.") }
            guard let url else { throw ValidationError("--url is required with --app.") }
            let target = try pick("--url", url, WebURL(url), "a URL such as https://contoso.com/")
            let webFrame = try pick("--frame", frame ?? "top", WebNames.frame(frame ?? "top"), "top or iframe")
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
