import ArgumentParser
import ControlClient
import JSON

/// `compliancectl status`: the daemon's health, clock and accounts.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether the daemon runs, its app (registered, allowed and managed accounts), its clock and its accounts.",
        discussion: "Example:\n  compliancectl --state-dir /tmp/cd status")

    @OptionGroup var daemon: DaemonOptions

    func run() async throws {
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let health = try await client.health()
            let accounts = try await client.accounts()["accounts"]?.arrayValue ?? []
            let app = try await client.app()
            let list = { (value: JSONValue?) in (value?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ") }
            var lines = [
                "complianced pid \(health["pid"]?.intValue ?? 0): \(health["status"]?.stringValue ?? "?")",
                "app: \(health["app"]?.stringValue ?? "?")",
                "issuer: \(health["issuer"]?.stringValue ?? "?") (\(health["issuerKind"]?.stringValue == "oidc" ? "OpenID Connect" : "Entra-shaped"))",
                "clock: \(health["clock"]?.stringValue ?? "?"), now \(Describe.time(health["now"]))",
                "last event: #\(health["lastEventSeq"]?.intValue ?? 0)",
                "registered accounts: [\(list(app["registeredAccounts"]))]",
                "allowed accounts: \(app["allowedAccounts"] == .null ? "anyone (the policy names none)" : "[\(list(app["allowedAccounts"]))]")",
                "managed account: \(app["managedAccount"]?.stringValue ?? "none")\(app["policyVersion"]?.stringValue.map { " (policy version \($0))" } ?? "")",
            ]
            if let owed = app["restartOwed"]?.stringValue {
                lines.append("restart owed by the app (first policy of \(owed)): run compliancectl app restarted once it restarted")
            }
            lines.append(accounts.isEmpty ? "no accounts" : "\n" + Describe.accounts(accounts))
            return CommandResult(json: ["health": health, "app": app, "accounts": .array(accounts)], lines: lines)
        }
    }
}

/// `compliancectl accounts [ACCOUNT]`: the accounts table, or one account.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the accounts the daemon knows (sign-in, management, compliance, enrollment, wipe, files).",
        discussion: "Examples:\n  compliancectl accounts\n  compliancectl accounts alice@contoso.com --json")

    @OptionGroup var daemon: DaemonOptions

    @Argument(help: ArgumentHelp("Show only this account (case-insensitive UPN).", valueName: "account"))
    var account: String?

    func validate() throws {
        if let account { try Arguments.account(account) }
    }

    func run() async throws {
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            if let account {
                let answer = try await client.account(account)
                return CommandResult(json: answer, lines: [Describe.accounts([answer])])
            }
            let accounts = try await client.accounts()
            let list = accounts["accounts"]?.arrayValue ?? []
            return CommandResult(json: accounts, lines: [list.isEmpty ? "no accounts" : Describe.accounts(list)])
        }
    }
}
