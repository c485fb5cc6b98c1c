import ArgumentParser
import ControlClient
import Foundation
import JSON

/// `compliancectl events [--follow] [--since N]`.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the daemon's event log (one line per event; --json: one JSON object per line).",
        discussion: """
            Examples:
              compliancectl events --since 40
              compliancectl events --follow --json | jq .kind
            """)

    @OptionGroup var daemon: DaemonOptions

    @Option(name: .long, help: ArgumentHelp("Only events after this sequence number.", valueName: "seq"))
    var since: Int64 = 0

    @Flag(name: .shortAndLong, help: "Keep waiting for new events until interrupted, or until the reader of a piped output goes away (| head).")
    var follow = false

    func validate() throws {
        guard since >= 0 else { throw ValidationError("--since must be 0 or more.") }
    }

    func run() async throws {
        let client = daemon.client()
        if follow { ReaderGoneWatch.start() }
        var cursor = since
        repeat {
            let answer: JSONValue
            do {
                answer = try await client.events(since: cursor, wait: follow ? 30_000 : 0, limit: 1000)
            } catch {
                throw DaemonCall.fail(error, json: daemon.json)
            }
            let events = answer["events"]?.arrayValue ?? []
            for event in events {
                if daemon.json { print(event.encodedString()) } else { Terminal.say(Describe.event(event)) }
                cursor = max(cursor, event["seq"]?.intValue ?? cursor)
            }
            fflush(nil)  // nil: every stream (stdout itself is not concurrency-safe to name)
            if !follow, events.count < 1000 { break }
        } while true
    }
}
