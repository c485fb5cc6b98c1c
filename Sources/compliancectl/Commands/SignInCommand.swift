import ArgumentParser
import ControlClient
import JSON

/// `compliancectl sign-in ACCOUNT [--silent]`.
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign an account in: allowed-accounts check, a token (remediating on 53005), then MAM registration.",
        discussion: """
            Interactive by default: the issuer's sign-in page is answered with the password from \
            --password-stdin, $COMPLIANCE_PASSWORD or a prompt; --cancel presses cancel. With \
            --silent (or no password) a step that needs the user ends in InteractionRequired (4).

            Examples:
              echo 'Passw0rd!' | compliancectl sign-in alice@contoso.com --password-stdin
              compliancectl sign-in bob@contoso.com --silent
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var userOptions: UserOptions

    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account"))
    var account: String

    @Flag(name: .long, help: "Never show the sign-in page (cached or refreshed tokens only).")
    var silent = false

    @Option(name: .customLong("scope"), help: ArgumentHelp("Scope to request (repeatable; default: the daemon's sign-in scopes).", valueName: "scope"))
    var scopes: [String] = []

    func validate() throws { try Arguments.account(account) }

    func run() async throws {
        let user = try userOptions.user(silent: silent)
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.signIn(account, silent: silent, scopes: scopes.isEmpty ? nil : scopes, user: user)
            let signedIn = answer["signedIn"]?.boolValue == true
            var lines = ["\(answer["account"]?.stringValue ?? account): \(Describe.status(answer["status"])) — \(signedIn ? "signed in" : "not signed in")"]
            lines += TokenCommand.details(answer).map { "  " + $0 }
            return CommandResult(json: answer, lines: lines, succeeded: signedIn)
        }
    }
}

/// `compliancectl token ACCOUNT --scope S…`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Acquire an access token for an account; a 53005 answer starts remediation unless --no-remediate.",
        discussion: """
            Silent by default (cache, then refresh); --interactive may show the sign-in page. \
            --print-token prints only the access token (for scripts); otherwise the token \
            itself is never printed except in --json.

            Examples:
              compliancectl token alice@contoso.com --scope api://contoso-chat/Chat.Read
              scope=api://contoso-chat/Chat.Read
              token=$(compliancectl token bob@contoso.com --scope $scope --print-token)
              curl -H "Authorization: Bearer $token" …
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
        return lines + Describe.token(answer["token"])
    }
}
