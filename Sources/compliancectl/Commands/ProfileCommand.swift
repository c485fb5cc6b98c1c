import AppProfile
import ArgumentParser
import JSON

/// `compliancectl profile lint|fix`: an app's Info.plist and entitlements, checked and repaired
/// the way IntuneMAMConfigurator does.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Lint or fix an app profile: its Info.plist (IntuneMAMSettings, query schemes, WKAppBoundDomains) and entitlements.",
        discussion: """
            Examples:
              compliancectl profile lint mocks/fixtures/apps/broken-Info.plist
              compliancectl profile fix Info.plist -o Info-fixed.plist
            """,
        subcommands: [Lint.self, Fix.self])

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every problem of an app profile with its key and how to fix it.",
            discussion: """
                One line per problem, `SEVERITY: KEY: what is wrong`, a dash and `fix: what to do`, then the counts; \
                --json prints {"problems": [{severity, kind, file, keyPath, message, fix, fixable}], "errors", "warnings"}. \
                Keychain groups and app groups are checked only with --entitlements.

                Exit status: 0 no errors (warnings alone pass: they need a decision, not a fix), 1 errors \
                found, 64 usage, 65 a file that cannot be read, is not an XML property list, or holds a \
                known key with a value of the wrong type (the message names the file and the key).

                Examples:
                  compliancectl profile lint mocks/fixtures/apps/broken-Info.plist
                  compliancectl profile lint Info.plist --entitlements App.entitlements --json
                """)

        @OptionGroup var files: ProfileFiles

        @Flag(name: .long, help: "Print a JSON report instead of lines.")
        var json = false

        func run() throws {
            let report = try ProfileInput.read(json: json) { () throws(AppProfileError) in
                try ProfileCommands.lint(infoPlist: files.plist, entitlements: files.entitlements)
            }
            if json { print(report.json.encodedString()) } else { Terminal.say(report.humanLines.joined(separator: "\n")) }
            if report.exitStatus != 0 { throw Exit.failed }
        }
    }

    struct Fix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the mechanical fixes to an app profile; print what was fixed and what remains.",
            discussion: """
                Fixes: AutoEnrollOnLaunch when MAMPolicyRequired is set, the -intunemam twins and the \
                schemes the Intune SDK queries, a default NSFaceIDUsageDescription and, with \
                --entitlements, the app groups in IntuneMAMSettings.AppGroupIdentifiers and the keychain \
                access groups (prefixed, ordered, completed), protapp in MSALClientCapabilities, the missing \
                half of a CFBundleURLTypes scheme pair (x and x-intunemam). The only things removed are \
                entries that are no URL scheme (blank, malformed) from LSApplicationQueriesSchemes and \
                what WebViewHandledURLSchemes may not list (those and web schemes); nothing a person must decide (client id, redirect URI, colours, protection level, app-bound domains) \
                is touched.

                Without -o the Info.plist is rewritten in place, only when something changed; the \
                entitlements file is rewritten in place when its groups change. A file is replaced \
                atomically (a temporary file renamed over it, keeping its mode; through a symbolic link); \
                -o /dev/stdout, a FIFO or a device is written in place. Both files are read first: one \
                that cannot be read or is invalid stops the command with 65 and nothing is written; both \
                are staged before either is replaced. A second run changes nothing.

                Prints `fixed: KEY: problem` per repair, `wrote FILE` per file, then the problems that \
                remain (as `profile lint` does); --json prints {"fixed", "written", "remaining"}.

                Exit status: 0 no errors remain, 1 errors remain for a person, 64 usage, 65 bad input \
                (nothing written), 74 a file cannot be written (it is left as it was).

                Examples:
                  compliancectl profile fix Info.plist --entitlements App.entitlements
                  compliancectl profile fix Info.plist -o /tmp/Info.plist --json
                """)

        @OptionGroup var files: ProfileFiles

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the fixed Info.plist here instead of in place.", valueName: "out"))
        var output: String?

        @Flag(name: .long, help: "Print a JSON report instead of lines.")
        var json = false

        func run() throws {
            let report = try ProfileInput.read(json: json) { () throws(AppProfileError) in
                try ProfileCommands.fix(infoPlist: files.plist, entitlements: files.entitlements, output: output)
            }
            let nothing = report.fixed.isEmpty && report.written.isEmpty ? ["nothing to fix: no mechanical fix applies"] : []
            if json { print(report.json.encodedString()) } else { Terminal.say((nothing + report.humanLines).joined(separator: "\n")) }
            if report.remaining.exitStatus != 0 { throw Exit.failed }
        }
    }
}

/// The profile files a command reads.
struct ProfileFiles: ParsableArguments {
    @Argument(help: ArgumentHelp("The app's Info.plist (an XML property list).", valueName: "plist"))
    var plist: String

    @Option(name: .long, help: ArgumentHelp("The app's entitlements file (an XML property list).", valueName: "file"))
    var entitlements: String?
}
