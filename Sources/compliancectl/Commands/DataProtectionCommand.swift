import ArgumentParser
import ControlClient
import JSON

/// `compliancectl data-protection [ACCOUNT]`: what the account's policy object answers the app
/// (save-to and open-from locations, encryption, notifications, sharing, URLs, shared items).
struct DataProtectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data-protection",
        abstract: "Show what an account's app protection policy allows (IntuneMAMPolicy's data-protection checks).",
        discussion: """
            The answers come from the live policy of the managed (enrolled) account; any other
            account, and no account at all, is unmanaged with unrestricted settings. --owner names
            the account that owns the location (save-to, open-from) or the shared item; without it
            the owner is unknown, which counts as unmanaged (as the SDK treats a nil account since 15.1.0).

            Examples:
              compliancectl data-protection alice@contoso.com --owner alice@contoso.com
              compliancectl data-protection alice@contoso.com --scheme ms-excel --known-managed-app-scheme
              compliancectl data-protection            # no identity: unmanaged
            """)

    @OptionGroup var daemon: DaemonOptions
    @Argument(help: ArgumentHelp("The identity whose policy answers (UPN); none: unmanaged.", valueName: "account")) var account: String?
    @Option(name: .long, help: ArgumentHelp("The account owning the location or the shared item.", valueName: "upn")) var owner: String?
    @Option(name: .long, help: ArgumentHelp("Also answer isURLAllowed for a URL of this scheme.", valueName: "scheme")) var scheme: String?
    @Flag(name: .customLong("known-managed-app-scheme"), help: "The --scheme belongs to a known managed app.") var knownManagedAppScheme = false

    func validate() throws {
        if let account { try Arguments.account(account) }
        if let owner { try Arguments.account(owner) }
        if knownManagedAppScheme, scheme == nil { throw ValidationError("--known-managed-app-scheme needs --scheme.") }
    }

    func run() async throws {
        try await DaemonCall.run(daemon) { client throws(ControlClientError) in
            let answer = try await client.dataProtection(account, owner: owner, scheme: scheme, knownManagedAppScheme: knownManagedAppScheme)
            return CommandResult(json: answer, lines: Self.describe(answer))
        }
    }

    /// The answer as lines: who, then each check.
    static func describe(_ answer: JSONValue) -> [String] {
        let who = answer["identity"]?.stringValue ?? "no identity"
        let managed = answer["managed"]?.boolValue == true ? "managed" : "unmanaged, unrestricted"
        var lines = ["\(who) (\(managed)); owner: \(answer["owner"]?.stringValue ?? "none (unmanaged)")"]
        for (title, key) in [("save to", "saveTo"), ("open from", "openFrom")] {
            let entries = answer[key]?.objectValue.map { Array($0) } ?? []
            let allowed = entries.filter { $0.1 == true }.map(\.0)
            let blocked = entries.filter { $0.1 != true }.map(\.0)
            lines.append("\(title): allowed [\(allowed.joined(separator: ", "))], blocked [\(blocked.joined(separator: ", "))]")
        }
        for key in ["isFileEncryptionRequired", "notificationPolicy", "isAppSharingAllowed", "canReceiveSharedItem", "isURLAllowed"] {
            guard let value = answer[key] else { continue }
            lines.append("\(key): \(value.stringValue ?? value.encodedString())")
        }
        return lines
    }
}
