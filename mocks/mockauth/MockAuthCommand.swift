import ArgumentParser
import Foundation
import Hummingbird
import Logging
import MockAuth
import ProgramSupport
import ServiceLifecycle

/// `mockauth`: a mock Entra ID v2.0 token issuer and MAM service for testing app-protection flows.
@main
struct MockAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockauth",
        abstract: "A mock Entra ID (v2.0) token issuer and Intune MAM service for app-protection CA tests.",
        discussion: """
            Serves, on one loopback port, Entra-v2.0-shaped endpoints (discovery, authorize, \
            token, keys, device code), the conditional-access answers AADSTS53005 and 53009, a \
            mock Intune MAM service (enroll, check-in, report compliance, unenroll, wipe) and an \
            admin API (/_admin/...) that changes users, policy and faults while it runs. serve \
            is the default command: `mockauth --port 0` is `mockauth serve --port 0`. \
            `mockauth check FILE` checks a fixture file without serving (exit 65 when \
            serve would refuse it, naming the JSON path and the closest known key). \
            mocks/README.md documents the endpoints, the fixture format and the admin API.

            Defaults: --host 127.0.0.1; --port 0 (a free port, printed in the first line); \
            --fixtures the demo tenant contoso.com (mocks/fixtures/contoso.json in the working \
            directory, else the installed copy under /usr/share/compliance-orchestrator/); \
            http unless --tls-self-signed or --tls-cert/--tls-key; --log-level info; \
            --log-format text.
            """,
        version: ProgramVersion.current,
        subcommands: [Serve.self, Check.self],
        defaultSubcommand: Serve.self)
}

extension MockAuthCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the issuer, the MAM service and the admin API on one port.",
            discussion: """
                The first line on stdout is `listening on http(s)://HOST:PORT` with the real port \
                (with --log-format json, a JSON record whose message is that line). \
                SIGTERM or SIGINT stop the server cleanly: requests in flight get 5 seconds to \
                finish, then they are cancelled.

                Examples:
                  mockauth serve
                  mockauth serve --port 8443 --tls-self-signed /tmp/mockauth-tls
                    clients trust /tmp/mockauth-tls/cert.pem;
                    MSAL authority: https://127.0.0.1:8443/contoso.com
                  mockauth serve --tls-cert cert.pem --tls-key key.pem
                  mockauth serve --fixtures my-tenant.json --port 9000
                  mockauth serve --log-format json | jq .

                Operators: GET /health answers {"status":"ok"}; GET /metrics the Prometheus \
                counters (tokens issued by grant, errors by AADSTS code, CA blocks, MAM requests \
                by route and status, faults fired).
                """)

        @Option(name: .long, help: ArgumentHelp("Fixture file (tenant, apps, users, policy).", valueName: "file"))
        var fixtures: String = Serve.defaultFixtures

        @Option(name: .long, help: ArgumentHelp("Address to bind.", valueName: "host"))
        var host: String = "127.0.0.1"

        @Option(name: .long, help: ArgumentHelp("Port to bind; 0 picks a free one.", valueName: "port"))
        var port: Int = 0

        @Option(name: .customLong("tls-cert"), help: ArgumentHelp("PEM certificate chain for https (with --tls-key).", valueName: "pem"))
        var tlsCertificate: String?

        @Option(name: .customLong("tls-key"), help: ArgumentHelp("PEM private key for https (with --tls-cert).", valueName: "pem"))
        var tlsKey: String?

        @Option(
            name: .customLong("tls-self-signed"),
            help: ArgumentHelp("Generate a certificate for 127.0.0.1 and localhost; write DIR/cert.pem for clients to trust.", valueName: "dir"))
        var tlsSelfSigned: String?

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp("The URL clients reach the server by (e.g. behind a proxy): used for iss and every URL in answers, whatever the Host header.", valueName: "url"))
        var publicURL: String?

        @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", valueName: "level"))
        var logLevel: String = "info"

        @Option(name: .customLong("log-format"), help: ArgumentHelp("text, or json (one JSON object a line: time, level, label, message, metadata).", valueName: "format"))
        var logFormat: String = LogFormat.text.rawValue

        static let defaultFixtures = Fixtures.defaultPath
        /// How long requests in flight may take to finish after SIGTERM or SIGINT.
        static let shutdownGrace: Duration = .seconds(5)

        /// The default fixture path is relative to the package; when it does not exist in the
        /// working directory, use the installed copy (`/usr/share/compliance-orchestrator/…` for
        /// `/usr/bin/mockauth`), then the one next to this source file (the package checkout).
        static func resolveFixtures(_ path: String) -> String {
            Fixtures.resolve(path, executable: executable, checkout: checkout)
        }

        static var executable: String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }

        static var checkout: String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("fixtures/contoso.json").path
        }

        func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be in 0...65535.") }
            if (tlsCertificate == nil) != (tlsKey == nil) {
                throw ValidationError("--tls-cert and --tls-key go together.")
            }
            if tlsSelfSigned != nil, tlsCertificate != nil {
                throw ValidationError("choose either --tls-self-signed or --tls-cert/--tls-key.")
            }
            if let publicURL {
                guard let url = URLComponents(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false,
                    url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/", url.user == nil
                else { throw ValidationError("--public-url must be http(s)://host[:port], without a path, got '\(publicURL)'.") }
            }
            guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'.") }
            guard LogFormat(rawValue: logFormat) != nil else { throw ValidationError("--log-format must be \(LogFormat.choices), got '\(logFormat)'.") }
        }

        func run() async throws {
            let format = LogFormat(rawValue: logFormat) ?? .text
            format.bootstrap(level: Logger.Level(rawValue: logLevel) ?? .info)
            let logger = Logger(label: "mockauth")
            let path = Self.resolveFixtures(fixtures)
            if fixtures == Fixtures.defaultPath, !FileManager.default.fileExists(atPath: path) {
                // No default anywhere (an installed copy whose data was removed, say): say where it looked.
                let tried = Fixtures.defaultCandidates(executable: Self.executable, checkout: Self.checkout)
                let message = "mockauth: the default fixtures are in none of: \(tried.joined(separator: ", ")); give --fixtures FILE"
                FileHandle.standardError.write(Data(format.line(message, level: .critical, label: "mockauth").utf8))
                throw ExitCode(66)
            }
            let loaded = try MockAuthCommand.loadFixtures(path) { format.line($0, level: .critical, label: "mockauth") }
            var tls: MockAuthConfiguration.TLS?
            if let tlsCertificate, let tlsKey {
                tls = .pemFiles(certificate: tlsCertificate, privateKey: tlsKey)
            } else if let directory = tlsSelfSigned {
                let generated = try SelfSignedCertificate.generate()
                let path = try generated.write(to: directory)
                logger.info("self-signed certificate written", metadata: ["tls.cert_path": "\(path)"])
                tls = .selfSigned(generated)
            }
            let configuration = MockAuthConfiguration(host: host, port: port, fixtures: loaded, tls: tls, publicURL: publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
            let (application, _) = try buildApplication(configuration, logger: logger) { url in
                // Unbuffered write: the first stdout line must reach a pipe at once.
                let line = format.line("listening on \(url)", label: "mockauth", metadata: [("server.url", url)])
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            var groupConfiguration = ServiceGroupConfiguration(
                services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // Requests in flight get this long to finish after SIGTERM/SIGINT; then they are
            // cancelled (a client that never finishes its request body, or an injected delay,
            // cannot hold the shutdown).
            groupConfiguration.maximumGracefulShutdownDuration = Self.shutdownGrace
            groupConfiguration.maximumCancellationDuration = .seconds(2)
            let group = ServiceGroup(configuration: groupConfiguration)
            try await group.run()
        }
    }
}
