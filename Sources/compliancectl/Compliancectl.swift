import ArgumentParser
import ProgramSupport

/// `compliancectl`: drives a running complianced over its control socket, runs end-to-end
/// flows, lints and fixes app profiles, and prints web-content decisions.
@main
struct Compliancectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliancectl",
        abstract: "Drive complianced (app-protection CA remediation, enrollment, allowed accounts, selective wipe) and run end-to-end flows.",
        discussion: """
            Commands other than `run`, `profile`, `webview` and `browser` talk to a running complianced over its \
            control socket: --socket PATH, or the COMPLIANCED_SOCKET environment variable, or \
            --state-dir DIR (the socket is DIR/control.sock).

            Statuses are shown in words with the SDK's code: Compliant (0), NotCompliant (1), \
            ServiceFailure (2), NetworkFailure (3), InteractionRequired (4), UserCancelled (5); \
            enrollment statuses likewise (NewPoliciesReceived (100) and so on). --json prints the \
            daemon's JSON answer instead.

            Exit status:
              0   success (a token, Compliant, every flow passed, a clean profile)
              1   the daemon answered, but not with success: a status other than
                  Compliant, a refused request (e.g. sign-in refused), or a flow
                  whose expectation failed; `profile` found errors; `browser`:
                  MSAL fails the request or Intune finds an error
              64  usage error: bad arguments, here or as the daemon judged them
                  (invalid_account, bad_request)
              65  bad input data: a flow or profile file that cannot be read or
                  is invalid
              69  the daemon (or a mock it needs) is unreachable or could not be
                  started
              70  internal error
              74  an output file (-o FILE, profile fix) cannot be written;
                  no partial file is left
              130 Ctrl-C (or SIGTERM) cancelled a sign-in a person was completing
                  (--browser, --device-code)

            Examples:
              compliancectl run flows/
              export COMPLIANCED_SOCKET=/tmp/cd/control.sock
              compliancectl sign-in alice@contoso.com --password-stdin <<< 'Passw0rd!'
              compliancectl token alice@contoso.com --scope api://contoso-chat/Chat.Read
              compliancectl explain alice@contoso.com       # why does it loop on 53005?
              compliancectl profile lint mocks/fixtures/apps/broken-Info.plist
              compliancectl webview decide --app Info.plist --url https://contoso.com/
              compliancectl browser --os ios --version 12.4

            Shell completions: compliancectl --generate-completion-script bash|zsh|fish
            (or the files ./run.sh dist writes to dist/completions/).
            """,
        version: ProgramVersion.current,
        subcommands: [
            StatusCommand.self, AccountsCommand.self, SignInCommand.self, TokenCommand.self, RemediateCommand.self,
            DeregisterCommand.self, DataCommand.self, EventsCommand.self, ExplainCommand.self, ClockCommand.self, RunCommand.self,
            DataProtectionCommand.self, ProtectCommand.self, UnprotectCommand.self, ProtectionInfoCommand.self, ConfigCommand.self, IdentityCommand.self,
            SettingsCommand.self, AppCommand.self, ProfileCommand.self, WebViewCommand.self, ClipboardCommand.self, BrowserCommand.self,
        ])

    /// ArgumentParser's main, with the daemon options allowed before the command.
    static func main() async {
        do {
            var command = try parseAsRoot(LeadingDaemonOptions.reordered(Array(CommandLine.arguments.dropFirst())))
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
