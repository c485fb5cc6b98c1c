import ArgumentParser
import ControlClient

/// `compliancectl remediate ACCOUNT [--silent]`.
struct RemediateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remediate",
        abstract: "Remediate an account (MAM token, enroll, apply policy, report compliance) and print its one report.",
        discussion: """
            Like the SDK's remediateComplianceForIdentity. Silent remediation that needs the \
            user reports InteractionRequired (4); run it again without --silent. The user \
            (--password-stdin, or a browser) answers the sign-in page only when the \
            remediation needs one: like the SDK, it first uses the account's session, so with \
            a MAM-service token cached no page is shown and the password is not checked. \
            To check credentials, use sign-in.

            Examples:
              compliancectl remediate alice@contoso.com --silent
              compliancectl remediate alice@contoso.com --password-stdin < password.txt
            """)

    @OptionGroup var daemon: DaemonOptions
    @OptionGroup var userOptions: UserOptions

    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account"))
    var account: String

    @Flag(name: .long, help: "Never show the sign-in page.")
    var silent = false

    func validate() throws {
        try Arguments.account(account)
        try userOptions.checkAsks(silent: silent, how: "leave out --silent to let the user answer a sign-in page")
    }

    func run() async throws {
        let user = try userOptions.user(silent: silent)
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.remediate(account, silent: silent, user: user)
            let report = answer["report"]
            let ok = report?["status"]?["code"]?.intValue == 0
            var lines = ["\(report?["account"]?.stringValue ?? account): \(Describe.report(report) ?? "no report")"]
            lines += Describe.token(answer["token"]).map { "  " + $0 }
            return CommandResult(json: answer, lines: lines, succeeded: ok)
        }
    }
}

/// `compliancectl deregister ACCOUNT [--wipe]`.
struct DeregisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deregister",
        abstract: "Unenroll an account from the MAM service (104), and selectively wipe its data with --wipe.",
        discussion: "Example:\n  compliancectl deregister alice@contoso.com --wipe")

    @OptionGroup var daemon: DaemonOptions

    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account"))
    var account: String

    @Flag(name: .long, help: "Also wipe the account's files, tokens and enrollment.")
    var wipe = false

    func validate() throws { try Arguments.account(account) }

    func run() async throws {
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.deregister(account, wipe: wipe)
            let wiped = answer["wiped"]?.boolValue == true
            return CommandResult(json: answer, lines: [
                "\(answer["account"]?.stringValue ?? account): deregistered, enrollment status \(Describe.status(answer["enrollmentStatus"]))\(wiped ? ", wiped" : "")"
            ])
        }
    }
}
