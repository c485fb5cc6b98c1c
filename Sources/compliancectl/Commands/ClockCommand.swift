import ArgumentParser
import ControlClient
import Flows
import JSON

/// `compliancectl clock [advance DURATION]`.
struct ClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Show the daemon's clock, or advance its virtual clock (firing due retries and check-ins in order).",
        discussion: "Examples:\n  compliancectl clock\n  compliancectl clock advance 8h\n  compliancectl clock advance 1d2h30m",
        subcommands: [Show.self, Advance.self],
        defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the clock's mode and time.", discussion: "Example:\n  compliancectl clock show")
        @OptionGroup var daemon: DaemonOptions

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.clock()
                return CommandResult(json: answer, lines: ["\(answer["clock"]?.stringValue ?? "?") clock: \(Describe.time(answer["now"]))"])
            }
        }
    }

    struct Advance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the virtual clock forward (daemon started with --clock virtual).",
            discussion: "DURATION: a number of seconds or units d, h, m, s (e.g. 24h, 90m, 1d2h).\nExample:\n  compliancectl clock advance 24h")

        @OptionGroup var daemon: DaemonOptions
        @Argument(help: ArgumentHelp("How far, e.g. 8h.", valueName: "duration")) var duration: String

        func validate() throws {
            do { _ = try DurationText.seconds(duration) } catch { throw ValidationError("\(error)") }
        }

        func run() async throws {
            let seconds = (try? DurationText.seconds(duration)) ?? 0
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.advanceClock(seconds: seconds)
                var lines = ["clock: \(Describe.time(answer["from"])) → \(Describe.time(answer["now"]))"]
                for timer in answer["fired"]?.arrayValue ?? [] {
                    lines.append("  fired \(timer["timer"]?.stringValue ?? "?") for \(timer["account"]?.stringValue ?? "-") due \(Describe.time(timer["dueAt"]))")
                }
                return CommandResult(json: answer, lines: lines)
            }
        }
    }
}
