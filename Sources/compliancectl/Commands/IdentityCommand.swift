import ArgumentParser
import ControlClient
import JSON

/// `compliancectl identity [show | ui IDENTITY | process IDENTITY]`: the app's process and UI
/// identities (IntuneMAMPolicyManager `setProcessIdentity`, `setUIPolicyIdentity`).
struct IdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Show or set the app's process and UI identities (setProcessIdentity, setUIPolicyIdentity).",
        discussion: """
            An identity is a UPN, or "" for no user. Managed data (the managed account's files and \
            buffers) is readable only while the process identity is its owner (or unset since the \
            app started); the UI identity does not affect file tasks, as the SDK guide says. In an \
            app without MultiIdentity the process identity is the enrolled user unless set.

            Examples:
              compliancectl identity
              compliancectl identity ui alice@contoso.com
              compliancectl identity ui alice@contoso.com --cancel
              compliancectl identity ui ""
              compliancectl identity process bob@contoso.com
            """,
        subcommands: [Show.self, UI.self, Process.self],
        defaultSubcommand: Show.self)

    /// `compliancectl identity show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the process, UI and effective UI identities.")

        @OptionGroup var daemon: DaemonOptions

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.identity()
                return CommandResult(json: answer, lines: IdentityCommand.describe(answer))
            }
        }
    }

    /// `compliancectl identity ui IDENTITY [--cancel]`.
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui",
            abstract: "Switch the UI identity (setUIPolicyIdentity); exits 1 unless the result is Success.",
            discussion: """
                The result is Success, Canceled (the user cancelled the PIN a managed identity's \
                policy asks), NotAllowed (another managed identity, an account not allowed or \
                being removed) or Failed (MAMPolicyRequired and no policy yet).
                """)

        @OptionGroup var daemon: DaemonOptions
        @Argument(help: ArgumentHelp("The identity: a UPN, or \"\" for no user.", valueName: "identity")) var identity: String
        @Flag(name: .long, help: "The user cancels the conditional launch (the PIN prompt) if one is shown.") var cancel = false

        func validate() throws {
            if !identity.isEmpty { try Arguments.account(identity) }
        }

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.switchUIIdentity(identity, cancelConditionalLaunch: cancel)
                let result = answer["result"]?.stringValue ?? "?"
                var lines = ["setUIPolicyIdentity \(IdentityCommand.name(answer["identity"])): \(result)"]
                if answer["conditionalLaunch"]?.stringValue == "pin" { lines.append("  the policy asked for the app PIN") }
                if let detail = answer["detail"]?.stringValue { lines.append("  \(detail)") }
                lines.append("  effective UI identity: \(IdentityCommand.name(answer["effectiveUIIdentity"]))")
                return CommandResult(json: answer, lines: lines, succeeded: result == "Success")
            }
        }
    }

    /// `compliancectl identity process IDENTITY`.
    struct Process: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "process", abstract: "Set the process identity (setProcessIdentity); refused for an identity the policy does not allow.")

        @OptionGroup var daemon: DaemonOptions
        @Argument(help: ArgumentHelp("The identity: a UPN, or \"\" for no user.", valueName: "identity")) var identity: String

        func validate() throws {
            if !identity.isEmpty { try Arguments.account(identity) }
        }

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.setProcessIdentity(identity)
                return CommandResult(json: answer, lines: IdentityCommand.describe(answer))
            }
        }
    }

    /// "alice@contoso.com", "no user" for "", "unset" for null.
    static func name(_ value: JSONValue?) -> String {
        guard let text = value?.stringValue else { return "unset" }
        return text.isEmpty ? "no user" : text
    }

    static func describe(_ answer: JSONValue) -> [String] {
        [
            "process identity:      \(name(answer["processIdentity"]))",
            "UI identity:           \(name(answer["uiIdentity"]))",
            "effective UI identity: \(name(answer["effectiveUIIdentity"]))\(answer["multiIdentity"] == true ? "  (MultiIdentity)" : "")",
        ]
    }
}
