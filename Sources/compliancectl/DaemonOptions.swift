import ArgumentParser
import ControlClient
import Foundation

/// Where the daemon is, and how to print its answers (shared by the daemon commands).
struct DaemonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The daemon's control socket (default: $COMPLIANCED_SOCKET).", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("The daemon's state directory (its socket is DIR/control.sock).", valueName: "dir"))
    var stateDirectory: String?

    @Flag(name: .long, help: "Print the daemon's JSON answer instead of text.")
    var json = false

    func validate() throws {
        if socket != nil, stateDirectory != nil { throw ValidationError("give --socket or --state-dir, not both.") }
        if socketPath == nil {
            throw ValidationError("no daemon given: pass --socket PATH or --state-dir DIR, or set COMPLIANCED_SOCKET.")
        }
    }

    var socketPath: String? {
        if let socket { return socket }
        if let stateDirectory { return (stateDirectory as NSString).appendingPathComponent("control.sock") }
        if let fromEnvironment = ProcessInfo.processInfo.environment["COMPLIANCED_SOCKET"], !fromEnvironment.isEmpty { return fromEnvironment }
        return nil
    }

    func client() -> ControlClient {
        ControlClient(socketPath: socketPath ?? "control.sock")
    }
}

/// How a command answers interaction (the issuer's sign-in page) for the account.
struct UserOptions: ParsableArguments {
    @Flag(name: .customLong("password-stdin"), help: "Read the account's password from the first line of standard input.")
    var passwordFromStandardInput = false

    @Flag(name: .long, help: "Play a user who cancels the sign-in page (for testing UserCancelled).")
    var cancel = false

    func validate() throws {
        if passwordFromStandardInput, cancel { throw ValidationError("give --password-stdin or --cancel, not both.") }
    }

    /// The interactive user: from stdin, as a canceller, from $COMPLIANCE_PASSWORD, or a
    /// prompt on a terminal; nil when none is available (interaction then fails with
    /// InteractionRequired).
    func user(silent: Bool) throws -> ControlClient.User? {
        if silent { return nil }
        if cancel { return .cancel }
        if passwordFromStandardInput {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("--password-stdin: standard input is empty.")
            }
            return .signIn(password: line)
        }
        if let password = ProcessInfo.processInfo.environment["COMPLIANCE_PASSWORD"], !password.isEmpty {
            return .signIn(password: password)
        }
        if isatty(STDIN_FILENO) == 1, let typed = getpass("Password (for the sign-in page, empty for none): ") {
            let password = String(cString: typed)
            return password.isEmpty ? nil : .signIn(password: password)
        }
        return nil
    }
}
