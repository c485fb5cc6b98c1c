import ArgumentParser
import ControlClient
import Foundation
import JSON

/// Runs one daemon call for a command: prints the answer (`--json` or text) and maps
/// failures to the documented exit statuses.
enum DaemonCall {
    static func run(_ options: DaemonOptions, _ body: (ControlClient) async throws(ControlClientError) -> CommandResult) async throws {
        try await run(options.address, body)
    }

    /// As the overload above, for a command that checks its ``DaemonAddress`` itself (`clock
    /// advance`), or needs a longer bound on its call (a person signing in). When
    /// `interrupted()` says Ctrl-C cancelled the call's work, the command exits 130.
    static func run(
        _ options: DaemonAddress, timeout: Duration = .seconds(120), _ body: (ControlClient) async throws(ControlClientError) -> CommandResult,
        onFailure interrupted: () -> Bool = { false }
    ) async throws {
        let result: CommandResult
        do {
            result = try await body(options.client(timeout: timeout))
        } catch {
            throw interrupted() ? Exit.interrupted : fail(error, json: options.json)
        }
        if options.json {
            print(result.json.encodedString(sortedKeys: false))
        } else {
            for line in result.lines { Terminal.say(line) }
        }
        if interrupted() { throw Exit.interrupted }
        if !result.succeeded { throw Exit.failed }
    }

    /// Prints a failed call on stderr (JSON on stdout with --json) and gives its exit status.
    static func fail(_ error: ControlClientError, json: Bool) -> ExitCode {
        var message = error.message
        if error.code == .unreachable {
            message += "; start it (complianced --state-dir DIR --app Info.plist), or name its socket with --socket PATH, --state-dir DIR or COMPLIANCED_SOCKET"
        }
        if json {
            print(JSONValue.object(["error": ["code": .string(error.apiCode ?? error.code.description), "message": .string(message)]]).encodedString())
        } else {
            Terminal.warn(message)
        }
        switch error.code {
        case .unreachable, .timeout: return Exit.unavailable
        case .invalidResponse: return Exit.software
        case .refused:
            // The daemon refused an argument (an account that is not a UPN, a bad file name,
            // a bad value): a usage error like the ones caught here; other refusals are 1.
            return ["invalid_account", "bad_request"].contains(error.apiCode ?? "") ? Exit.usage : Exit.failed
        }
    }
}

/// What a daemon command prints and whether it counts as success.
struct CommandResult {
    var json: JSONValue
    var lines: [String]
    var succeeded = true
}

/// Shared checks on positional arguments.
enum Arguments {
    /// A UPN-shaped account argument (the daemon checks it fully).
    static func account(_ text: String) throws {
        guard text.contains("@"), !text.hasPrefix("@"), !text.hasSuffix("@") else {
            throw ValidationError("'\(text)' is not an account (a UPN such as alice@contoso.com).")
        }
    }
}
