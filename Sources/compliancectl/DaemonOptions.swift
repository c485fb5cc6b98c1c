import ArgumentParser
import ControlClient
import Foundation

/// Where the daemon is, and how to print its answers, without the check that one daemon is
/// given: for a command that checks its own arguments first (`clock advance`). The others
/// take ``DaemonOptions``.
///
/// A check that fails while ArgumentParser decodes an option group makes it look for a help
/// flag among all the words, and `-24h` reads as a pack of short flags with `-h` in it: the
/// help would be printed instead of the duration's error.
struct DaemonAddress: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The daemon's control socket (default: $COMPLIANCED_SOCKET).", valueName: "path"))
    var socket: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("The daemon's state directory (its socket is DIR/control.sock).", valueName: "dir"))
    var stateDirectory: String?

    @Flag(name: .long, help: "Print the daemon's JSON answer instead of text.")
    var json = false

    /// A usage error unless exactly one daemon is given (an option or `COMPLIANCED_SOCKET`).
    func check() throws(ValidationError) {
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

    func client(timeout: Duration = .seconds(120)) -> ControlClient {
        ControlClient(socketPath: socketPath ?? "control.sock", timeout: timeout)
    }
}

/// Where the daemon is, and how to print its answers (shared by the daemon commands);
/// parsing fails unless one daemon is given.
struct DaemonOptions: ParsableArguments {
    @OptionGroup var address: DaemonAddress

    func validate() throws { try address.check() }

    var json: Bool { address.json }

    func client() -> ControlClient { address.client() }
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

    /// A silent request carries no credentials: a password given to one would be dropped
    /// while the cache answered, so a wrong password would pass (the daemon refuses such a
    /// request for the same reason). `how` names the option that makes the request ask.
    func checkAsks(silent: Bool, how: String) throws {
        if silent, passwordFromStandardInput {
            throw ValidationError("--password-stdin has no use with a silent request, which carries no credentials and would not check the password; \(how).")
        }
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
