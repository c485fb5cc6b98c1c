import ArgumentParser
import ControlClient

/// `compliancectl app restarted` (`compliancectl status` shows the app).
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "What the app tells the daemon: that it restarted itself (compliancectl status shows the app).",
        discussion: "Example:\n  compliancectl app restarted",
        subcommands: [Restarted.self])

    struct Restarted: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report that the app restarted itself (its restart hook answered YES to restartApplication).",
            discussion: """
                The remediation that waited for the restart then goes on; its one report is \
                printed (exit 1 unless Compliant). Refused (conflict) when the app owes no restart.

                Example:
                  compliancectl app restarted
                """)
        @OptionGroup var daemon: DaemonOptions

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.appRestarted()
                let report = answer["report"]
                guard let report, report != .null else {
                    return CommandResult(json: answer, lines: ["the app restarted; no remediation waited for it"])
                }
                let ok = report["status"]?["code"]?.intValue == 0
                return CommandResult(
                    json: answer, lines: ["the app restarted; \(report["account"]?.stringValue ?? "?"): \(Describe.report(report) ?? "no report")"], succeeded: ok)
            }
        }
    }
}
