import ArgumentParser
import ControlClient
import JSON

/// `compliancectl settings [show | override … | clear …]`: the app's Entra settings in force and
/// the runtime overrides (`IntuneMAMSettings` `aadAuthorityUriOverride`, `aadClientIdOverride`,
/// `aadRedirectUriOverride`).
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the app's Entra settings in force, or override them at runtime (IntuneMAMSettings).",
        discussion: """
            Overrides take precedence over the Info.plist's ADALAuthority, ADALClientId and \
            ADALRedirectUri, persist across restarts, and are used for every issuer request \
            until the managed user is unenrolled (then they are cleared) or you clear them.

            Examples:
              compliancectl settings
              compliancectl settings override --redirect-uri chatr://com.contoso.chatr
              compliancectl settings override --authority https://login.microsoftonline.com/contoso.com
              compliancectl settings clear --client-id
              compliancectl settings clear
            """,
        subcommands: [Show.self, Override.self, Clear.self],
        defaultSubcommand: Show.self)

    /// `compliancectl settings show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings in force and the overrides.")

        @OptionGroup var daemon: DaemonOptions

        func run() async throws {
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.settings()
                return CommandResult(json: answer, lines: SettingsCommand.describe(answer))
            }
        }
    }

    /// `compliancectl settings override [--authority URL] [--client-id ID] [--redirect-uri URI]`.
    struct Override: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "override", abstract: "Set runtime overrides (the others stay as they are).")

        @OptionGroup var daemon: DaemonOptions
        @Option(name: .long, help: ArgumentHelp("aadAuthorityUriOverride: the authority's URL.", valueName: "url")) var authority: String?
        @Option(name: .customLong("client-id"), help: ArgumentHelp("aadClientIdOverride.", valueName: "id")) var clientID: String?
        @Option(name: .customLong("redirect-uri"), help: ArgumentHelp("aadRedirectUriOverride.", valueName: "uri")) var redirectURI: String?

        func validate() throws {
            if authority == nil, clientID == nil, redirectURI == nil { throw ValidationError("give --authority, --client-id or --redirect-uri.") }
        }

        func run() async throws {
            var changes = JSONObject()
            if let authority { changes["aadAuthorityUriOverride"] = .string(authority) }
            if let clientID { changes["aadClientIdOverride"] = .string(clientID) }
            if let redirectURI { changes["aadRedirectUriOverride"] = .string(redirectURI) }
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.setSettingsOverrides(changes)
                return CommandResult(json: answer, lines: SettingsCommand.describe(answer))
            }
        }
    }

    /// `compliancectl settings clear [--authority] [--client-id] [--redirect-uri]` (none: all).
    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Clear runtime overrides (all of them when none is named).")

        @OptionGroup var daemon: DaemonOptions
        @Flag(name: .long, help: "Clear aadAuthorityUriOverride.") var authority = false
        @Flag(name: .customLong("client-id"), help: "Clear aadClientIdOverride.") var clientID = false
        @Flag(name: .customLong("redirect-uri"), help: "Clear aadRedirectUriOverride.") var redirectURI = false

        func run() async throws {
            let all = !authority && !clientID && !redirectURI
            var changes = JSONObject()
            if all || authority { changes["aadAuthorityUriOverride"] = .null }
            if all || clientID { changes["aadClientIdOverride"] = .null }
            if all || redirectURI { changes["aadRedirectUriOverride"] = .null }
            try await DaemonCall.run(daemon) { client throws(ControlClientError) in
                let answer = try await client.setSettingsOverrides(changes)
                return CommandResult(json: answer, lines: SettingsCommand.describe(answer))
            }
        }
    }

    static func describe(_ answer: JSONValue) -> [String] {
        let overrides = answer["overrides"] ?? .null
        func line(_ label: String, _ key: String, _ override: String) -> String {
            let value = answer[key]?.stringValue ?? "?"
            let overridden = overrides[override]?.stringValue != nil
            return "\(label)\(value)\(overridden ? "  (\(override); without it: \(answer["profile"]?[key]?.stringValue ?? "?"))" : "")"
        }
        return [
            line("authority:    ", "authority", "aadAuthorityUriOverride"),
            line("client id:    ", "clientId", "aadClientIdOverride"),
            line("redirect URI: ", "redirectUri", "aadRedirectUriOverride"),
        ]
    }
}
