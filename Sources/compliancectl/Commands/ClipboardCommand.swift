import ArgumentParser
import ControlClient
import JSON

/// `compliancectl clipboard decide`: whether the running app lets a cut/copy go from one side to
/// another, under the managed account's `clipboardRestriction`.
struct ClipboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clipboard",
        abstract: "Decide whether the running app allows a cut/copy/paste (clipboardRestriction).",
        discussion: """
            Example:
              compliancectl clipboard decide --from webView --to unmanagedApp
            """,
        subcommands: [Decide.self])

    struct Decide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print whether content cut or copied on one side may be pasted on the other.",
            discussion: """
                A side is app (the app's own UI: it acts as the effective UI identity), webView (a \
                web view of the app with --from-policy/--to-policy: unset follows \
                TreatAllWebViewsAsUnmanaged), managedApp or unmanagedApp (another app). Only the \
                managed account's content is restricted, by its policy's clipboardRestriction: \
                allApps; managedAppsWithPasteIn (copy out only to managed apps, paste in from any); \
                managedApps (both ways only with managed apps); blocked.

                Exit status: 0 decided (allowed or not: see the answer), 64 usage, 69 no daemon.

                Examples:
                  compliancectl clipboard decide --from webView --to unmanagedApp
                  compliancectl clipboard decide --from unmanagedApp --to app --json
                """)

        @OptionGroup var daemon: DaemonOptions

        @Option(name: .long, help: ArgumentHelp("Where the content is cut or copied: app, webView, managedApp or unmanagedApp.", valueName: "side"))
        var from: String

        @Option(name: .long, help: ArgumentHelp("Where it is pasted: app, webView, managedApp or unmanagedApp.", valueName: "side"))
        var to: String

        @Option(name: .customLong("from-policy"), help: ArgumentHelp("The source web view's policy: unset, unmanaged or currentIdentity.", valueName: "policy"))
        var fromPolicy: String?

        @Option(name: .customLong("to-policy"), help: ArgumentHelp("The destination web view's policy: unset, unmanaged or currentIdentity.", valueName: "policy"))
        var toPolicy: String?

        static let sides = ["app", "webView", "managedApp", "unmanagedApp"]
        static let policies = ["unset", "unmanaged", "currentIdentity"]

        func validate() throws { _ = try question() }

        func run() async throws {
            let question = try question()
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.clipboardDecision(question)
                let verdict = answer["allowed"] == true ? "allowed" : "not allowed"
                let restriction = answer["restriction"]?.stringValue ?? "none applies"
                return CommandResult(json: answer, lines: ["\(verdict) (clipboardRestriction: \(restriction))", answer["reason"]?.stringValue ?? ""])
            }
        }

        private func question() throws -> JSONObject {
            var question = JSONObject()
            for (option, side, policyOption, policy) in [("--from", from, "--from-policy", fromPolicy), ("--to", to, "--to-policy", toPolicy)] {
                guard Self.sides.contains(side) else { throw ValidationError("\(option) must be \(Self.sides.joined(separator: ", ")), found '\(side)'.") }
                question[String(option.dropFirst(2))] = .string(side)
                guard let policy else { continue }
                guard side == "webView" else { throw ValidationError("\(policyOption) goes with \(option) webView.") }
                guard Self.policies.contains(policy) else { throw ValidationError("\(policyOption) must be \(Self.policies.joined(separator: ", ")), found '\(policy)'.") }
                question[option == "--from" ? "fromPolicy" : "toPolicy"] = .string(policy)
            }
            return question
        }
    }
}
