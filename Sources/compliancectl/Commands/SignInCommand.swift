import ArgumentParser
import Foundation
import ControlClient
import JSON

/// `compliancectl sign-in ACCOUNT [--silent | --browser | --device-code | --grant password]`.
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign an account in: allowed-accounts check, a token (remediating on 53005), then MAM registration.",
        discussion: """
            How the person signs in:
              (default)        the daemon fills the issuer's sign-in page (mockauth's, and pages \
            shaped like it) with the password from --password-stdin, $COMPLIANCE_PASSWORD or a \
            prompt; --cancel presses cancel.
              --browser        you sign in in a browser: authorization code + PKCE with a \
            loopback redirect to 127.0.0.1 (RFC 8252). The URL is printed (and opened with \
            xdg-open unless --no-open); the daemon waits --timeout seconds for the redirect.
              --device-code    you sign in on any device with the printed code (RFC 8628).
              --grant password the password grant (test issuers; Entra discourages it).
            With --silent (or no password) a step that needs the user ends in \
            InteractionRequired (4). Ctrl-C during --browser or --device-code cancels the \
            sign-in (exit 130). The issuer must allow the redirect http://127.0.0.1 (any \
            port) for --browser, and the device flow for --device-code.

            Examples:
              echo 'Passw0rd!' | compliancectl sign-in alice@contoso.com --password-stdin
              compliancectl sign-in bob@contoso.com --silent
              compliancectl sign-in alice@contoso.com --browser
              compliancectl sign-in alice@contoso.com --device-code
              compliancectl sign-in --silent     (the app's managed user, as loginAndEnrollAccount(nil))

            Without an account the daemon signs in the app's managed user, or the one account \
            registered with the MAM service; with neither it answers account_required.
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var userOptions: UserOptions

    @Argument(help: ArgumentHelp("The account (UPN). Left out: the app's managed user (loginAndEnrollAccount(nil)).", valueName: "account"))
    var account: String?

    @Flag(name: .long, help: "Never show the sign-in page (cached or refreshed tokens only).")
    var silent = false

    @Option(name: .customLong("scope"), help: ArgumentHelp("Scope to request (repeatable; default: the daemon's sign-in scopes).", valueName: "scope"))
    var scopes: [String] = []

    @Flag(name: .long, help: "Sign in in a browser (authorization code + PKCE, loopback redirect).")
    var browser = false

    @Flag(name: .customLong("no-open"), help: "With --browser: print the URL only, do not run xdg-open.")
    var noOpen = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --browser: seconds to wait for the browser's redirect (1...3600, default 300). With --device-code: seconds to wait for the approvals (default: as long as the issuer's code lives); then the sign-in is cancelled, exit 1.",
            valueName: "seconds"))
    var timeout: Int?

    @Flag(name: .customLong("device-code"), help: "Sign in on another device with a code (RFC 8628).")
    var deviceCode = false

    @Option(name: .long, help: ArgumentHelp("'password': use the password grant (test issuers) instead of the sign-in page.", valueName: "grant"))
    var grant: String?

    func validate() throws {
        if let account { try Arguments.account(account) }
        let methods = [browser, deviceCode, grant != nil, silent, userOptions.cancel].filter { $0 }.count
        if methods > 1 { throw ValidationError("give one of --browser, --device-code, --grant, --silent, --cancel.") }
        if let grant, grant != "password" { throw ValidationError("--grant takes 'password', got '\(grant)'.") }
        if (browser || deviceCode), userOptions.passwordFromStandardInput { throw ValidationError("--password-stdin has no use with --browser or --device-code: the person types it.") }
        try userOptions.checkAsks(silent: silent, how: "leave out --silent to sign in with the password")
        if !browser, noOpen { throw ValidationError("--no-open goes with --browser.") }
        if !browser, !deviceCode, timeout != nil { throw ValidationError("--timeout goes with --browser or --device-code.") }
        if let timeout, !(1...3600).contains(timeout) { throw ValidationError("--timeout must be 1...3600 seconds, got \(timeout).") }
    }

    func run() async throws {
        let scopes = scopes.isEmpty ? nil : scopes
        if browser || deviceCode {
            let method: InteractiveSignIn.Method = browser ? .browser(open: !noOpen, timeoutSeconds: timeout) : .deviceCode(timeoutSeconds: timeout)
            var interrupted = false
            let timeout = timeout
            // The person may take minutes (a device code lives 15 at Entra).
            try await DaemonCall.run(daemon.address, timeout: .seconds(3700)) { client throws(ControlClientError) in
                let (answer, ending) = try await InteractiveSignIn(method: method, json: daemon.address.json).run(client) { user throws(ControlClientError) in
                    try await client.signIn(account, silent: false, scopes: scopes, user: user)
                }
                interrupted = ending.interrupted
                var result = Self.result(answer, account: account ?? "the managed user", succeedsIf: !ending.interrupted && !ending.timedOut)
                if ending.timedOut, let timeout {
                    Terminal.warn("no approval within --timeout \(timeout) s: the device-code sign-in was cancelled")
                    result.lines.append("  cancelled: no approval within --timeout \(timeout) s")
                }
                return result
            } onFailure: { interrupted }
            return
        }
        var user = try userOptions.user(silent: silent)
        if grant == "password" {
            guard case .signIn(let password)? = user else { throw ValidationError("--grant password needs a password (--password-stdin or $COMPLIANCE_PASSWORD).") }
            user = .passwordGrant(password: password)
        }
        let passwordGrant = grant != nil
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            if passwordGrant, (try? await client.health())?["issuerKind"]?.stringValue == "entra" {
                FileHandle.standardError.write(Data("compliancectl: warning: the password grant skips the issuer's sign-in page (MFA, Conditional Access prompts, federation); Entra discourages it outside tests. Use --browser or --device-code for real people.\n".utf8))
            }
            let answer = try await client.signIn(account, silent: silent, scopes: scopes, user: user)
            return Self.result(answer, account: account ?? "the managed user", succeedsIf: true)
        }
    }

    static func result(_ answer: JSONValue, account: String, succeedsIf condition: Bool) -> CommandResult {
        let signedIn = answer["signedIn"]?.boolValue == true
        var lines = ["\(answer["account"]?.stringValue ?? account): \(Describe.status(answer["status"])) — \(signedIn ? "signed in" : "not signed in")"]
        lines += TokenCommand.details(answer).map { "  " + $0 }
        return CommandResult(json: answer, lines: lines, succeeded: signedIn && condition)
    }
}

/// `compliancectl token ACCOUNT --scope S…`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Acquire an access token for an account; a 53005 answer starts remediation unless --no-remediate.",
        discussion: """
            Silent by default (cache, then refresh); --interactive may show the sign-in page. \
            The token line says where the answer came from: "from the cache" (an access token \
            still valid for 5 minutes or more, for the same scopes, issuer and client) or "from \
            the issuer" (a refresh, a sign-in, or a request carrying credentials: --password-stdin, \
            --interactive); --json carries it as fromCache. --print-token prints only the access \
            token (for scripts); otherwise the token itself is never printed except in --json.

            Examples:
              compliancectl token alice@contoso.com --scope api://contoso-chat/Chat.Read
              scope=api://contoso-chat/Chat.Read
              token=$(compliancectl token bob@contoso.com --scope $scope --print-token)
              curl -H "Authorization: Bearer $token" https://api.example/...
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var userOptions: UserOptions

    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account"))
    var account: String

    @Option(name: .customLong("scope"), parsing: .singleValue, help: ArgumentHelp("Scope to request (repeatable, at least one).", valueName: "scope"))
    var scopes: [String] = []

    @Flag(name: .long, help: "Allow the sign-in page (default: silent).")
    var interactive = false

    @Flag(name: .customLong("no-remediate"), help: "Report 53005 instead of remediating.")
    var noRemediate = false

    @Flag(name: .customLong("print-token"), help: "Print only the access token.")
    var printToken = false

    func validate() throws {
        try Arguments.account(account)
        guard !scopes.isEmpty else { throw ValidationError("give at least one --scope (e.g. --scope api://contoso-chat/Chat.Read).") }
        try userOptions.checkAsks(silent: !interactive, how: "add --interactive to send it to the issuer")
    }

    func run() async throws {
        let user = try userOptions.user(silent: !interactive)
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.token(account, scopes: scopes, silent: !interactive, remediate: !noRemediate, user: user)
            let ok = answer["status"]?["code"]?.intValue == 0
            if printToken, !daemon.json {
                return CommandResult(json: answer, lines: ok ? [answer["token"]?["accessToken"]?.stringValue ?? ""] : [], succeeded: ok)
            }
            var lines = ["\(answer["account"]?.stringValue ?? account): \(Describe.status(answer["status"]))\(ok ? "" : " — no token")"]
            lines += Self.details(answer).map { "  " + $0 }
            return CommandResult(json: answer, lines: lines, succeeded: ok)
        }
    }

    /// The lines under a sign-in or token answer: failure, remediation report, token.
    static func details(_ answer: JSONValue) -> [String] {
        var lines = Describe.failure(answer["failure"])
        if let report = Describe.report(answer["report"]) { lines.append("remediation: \(report)") }
        return lines + Describe.token(answer["token"], fromCache: answer["fromCache"])
    }
}
