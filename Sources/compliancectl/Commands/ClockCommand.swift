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
            usage: "compliancectl clock advance [--socket <path>] [--state-dir <dir>] [--json] <duration>",
            discussion: "DURATION: a number of seconds or units d, h, m, s (e.g. 24h, 90m, 1d2h).\nExample:\n  compliancectl clock advance 24h")

        /// Checked after the duration (``DaemonAddress``), so that `-24h` gets the duration's
        /// error even when no daemon is given.
        @OptionGroup var daemon: DaemonAddress
        /// The duration, taken even when it starts with `-` (so that `-5` gets its own error
        /// rather than "missing argument"); validated to be one word.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How far, e.g. 8h.", valueName: "duration")) var words: [String] = []

        func validate() throws {
            _ = try Self.seconds(words)
            try daemon.check()
        }

        /// The seconds `words` (the one duration given) stand for; a usage error names what
        /// was wrong: nothing given, more than one word, an unknown option, a backward move.
        static func seconds(_ given: [String]) throws(ValidationError) -> Int64 {
            let words = given.filter { $0 != "--" }  // `--` ends the options; it is no word of its own here
            guard let word = words.first else { throw ValidationError("Missing expected argument '<duration>'") }
            if let option = words.first(where: { $0.hasPrefix("-") && (try? DurationText.seconds(String($0.dropFirst()))) == nil }) {
                throw ValidationError("Unknown option '\(option)'")
            }
            guard words.count == 1 else {
                throw ValidationError("one duration expected, got \(words.map { "'\($0)'" }.joined(separator: " "))")
            }
            if word.hasPrefix("-") {
                throw ValidationError("'\(word)': the virtual clock only moves forward; give how far, e.g. 8h")
            }
            do { return try DurationText.seconds(word) } catch { throw ValidationError("\(error)") }
        }

        func run() async throws {
            let seconds = (try? Self.seconds(words)) ?? 0
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
