import ArgumentParser
import Foundation
import MockAuth

extension MockAuthCommand {
    /// `mockauth check FIXTURE`: what `serve` would refuse, without serving.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a tenant fixture file as serve reads it, without serving.",
            discussion: """
                Reads FIXTURE as `mockauth serve --fixtures FIXTURE` does and prints a summary \
                (exit 0), or the first problem (exit 65): the JSON path, what is wrong and, for an \
                unknown key, the closest known name (`$.users[0].caTargetted: unknown key \
                'caTargetted' (closest known: 'caTargeted'; ...)`). Refused: unknown keys anywhere, \
                missing or mistyped members (a user flag that is not true or false), a policy app \
                that is no client, a redirect URI no client can be sent to, unknown policy settings \
                and values. mocks/README.md documents the format.

                Examples:
                  mockauth check mocks/fixtures/contoso.json
                  mockauth check tests/fabrikam.json || exit 1
                """)

        @Argument(help: ArgumentHelp("The fixture file (JSON).", valueName: "fixture"))
        var fixture: String

        func run() throws {
            let fixtures = try MockAuthCommand.loadFixtures(fixture)
            let policyApps = fixtures.mamPolicy.appIds.isEmpty ? "no app" : fixtures.mamPolicy.appIds.joined(separator: ", ")
            let counts = [(fixtures.clients.count, "client"), (fixtures.apis.count, "API"), (fixtures.users.count, "user")]
                .map { "\($0) \($1)\($0 == 1 ? "" : "s")" }.joined(separator: ", ")
            print("\(fixture): ok: tenant \(fixtures.tenant.domain) (\(fixtures.tenant.id)), \(counts), policy \(fixtures.mamPolicy.id) for \(policyApps)")
        }
    }

    /// Loads a fixture file, or says on stderr why it cannot be used (the JSON path, the
    /// problem) and exits 65 (EX_DATAERR), as compliancectl does for an invalid flow file.
    static func loadFixtures(_ path: String, format: LogFormatLine = { message in "\(message)\n" }) throws -> Fixtures {
        do {
            return try Fixtures.load(path: path)
        } catch let error as FixtureError {
            let place = error.path == path ? "" : "\(error.path): "
            FileHandle.standardError.write(Data(format("mockauth: \(path): \(place)\(error.message)").utf8))
            throw ExitCode(65)
        }
    }

    /// Formats one line for stderr (text or a JSON log record).
    typealias LogFormatLine = (String) -> String
}
