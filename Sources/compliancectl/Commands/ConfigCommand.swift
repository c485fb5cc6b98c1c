import ArgumentParser
import ComplianceCore
import ControlClient
import JSON

/// `compliancectl config ACCOUNT [KEY]`: the account's MAM app configuration, as the SDK's
/// `IntuneMAMAppConfig` gives it to the app.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show an account's MAM app configuration (IntuneMAMAppConfig), or one key's values.",
        discussion: """
            The configuration arrives with the policy while the account is enrolled; targeted values
            win over the tenant default, which counts only when nothing targeted sets the key. A key
            set to different values by two targeted configurations has a conflict; --query picks:
            any (the first), min, max (strings and numbers), or, and (booleans).

            Examples:
              compliancectl config alice@contoso.com
              compliancectl config alice@contoso.com com.contoso.theme
              compliancectl config alice@contoso.com com.contoso.maxItems --query max
            """)

    @OptionGroup var daemon: DaemonOptions
    @Argument(help: ArgumentHelp("The account (UPN).", valueName: "account")) var account: String
    @Argument(help: ArgumentHelp("One key: stringValueForKey, allStringsForKey, hasConflict.", valueName: "key")) var key: String?
    @Option(name: .long, help: ArgumentHelp("Which value of several: any, min, max, or, and (default any).", valueName: "query")) var query: String?

    func validate() throws {
        try Arguments.account(account)
        if query != nil, key == nil { throw ValidationError("--query needs a key.") }
        if let query, !AppConfig.queryNames.contains(query) {
            throw ValidationError("--query must be any, min, max, or or and, not '\(query)'.")
        }
    }

    func run() async throws {
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.appConfig(account, key: key, query: query)
            return CommandResult(json: answer, lines: Self.describe(answer))
        }
    }

    static func describe(_ answer: JSONValue) -> [String] {
        let account = answer["account"]?.stringValue ?? "?"
        let entries = answer["fullData"]?.arrayValue ?? []
        guard let value = answer["value"] else {
            if entries.isEmpty { return ["\(account): no app configuration (it arrives with the policy of an enrolled account)"] }
            var lines = ["\(account): \(entries.count) configuration(s)"]
            for (index, entry) in entries.enumerated() {
                let isDefault = entry["__IsDefault"]?.boolValue == true
                let pairs = (entry.objectValue ?? JSONObject()).filter { $0.0 != "__IsDefault" }.map { "\($0.0)=\($0.1.stringValue ?? $0.1.encodedString())" }
                lines.append("  \(index + 1). \(isDefault ? "tenant default" : "targeted"): \(pairs.joined(separator: ", "))")
            }
            return lines
        }
        let key = value["key"]?.stringValue ?? "?"
        let all = value["allStrings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard !all.isEmpty else { return ["\(account): \(key) is not set"] }
        var lines = ["\(account): \(key) = \(value["string"]?.stringValue ?? "") (query \(value["query"]?.stringValue ?? "any"))"]
        lines.append("all values: [\(all.joined(separator: ", "))]\(value["hasConflict"] == true ? " — conflict: targeted configurations disagree" : "")")
        if let number = value["number"], number != .null { lines.append("as a number: \(number.encodedString())") }
        if let bool = value["bool"], bool != .null { lines.append("as a boolean: \(bool.encodedString())") }
        return lines
    }
}
