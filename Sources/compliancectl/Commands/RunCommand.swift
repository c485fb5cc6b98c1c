import ArgumentParser
import ChildProcess
import ControlClient
import FileOutput
import Flows
import Foundation
import JSON
import ProgramSupport

/// `compliancectl run FLOW_OR_DIR…`: end-to-end flows against mockauth and complianced.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run end-to-end flows (flows/README.md) against mockauth and complianced.",
        discussion: """
            By default each flow gets its own mockauth (ephemeral port, the flow's fixture) and \
            complianced (temporary state directory, virtual clock), so flows run concurrently \
            (--jobs). --authority points at a running issuer instead (reset through its admin API \
            before each flow when it has one, which the run says on stderr; --no-reset keeps its \
            state) and --socket at a running daemon; flows then run one by one, \
            each seeing what the ones before it left in that daemon. --oidc-issuer runs them \
            against any OpenID Connect issuer (with --client-id and, for a confidential client, \
            --client-secret-file and --client-auth; no MAM service unless --mam-url): a step \
            that needs mockauth's admin API then fails naming the issuer and the step. \
            --param NAME=VALUE fills a flow's ${NAME} placeholders (credentials, accounts, \
            and the paths fixture, app, entitlements and the hooks). A flow kept in an app's own \
            repository may leave out "fixture" when the run names the issuer (--authority, \
            --oidc-issuer) and "app" when it gives --app; otherwise both default to the demo's, \
            found above the flow or installed with the package. \
            Every flow file is checked before any runs. Exit status: 0 all passed, 1 a flow \
            failed, 65 a flow file is invalid, 69 a server could not be started or reached. \
            Stopped by SIGINT, SIGTERM or SIGHUP, it stops the servers it started first and \
            then ends by that signal; a closed output (| head) does not stop it.

            Examples:
              compliancectl run flows/
              compliancectl run flows/seed-mam-ca-always-applied.json --json
              compliancectl run flows/ --junit report.xml   # JUnit XML for CI test reports
              compliancectl run flows/ --authority http://127.0.0.1:8080/contoso.com
              compliancectl run my-flows/ --oidc-issuer https://id.example.org/realms/test \
                --client-id my-app --param account=erin@example.org --param password="$PW"
            """)

    @Argument(help: ArgumentHelp("Flow files, or directories of them.", valueName: "flow-or-dir"))
    var paths: [String]

    @OptionGroup(title: "Issuer (instead of starting mockauth; the started daemon's client)") var issuer: IssuerOptions

    @Option(name: .long, help: ArgumentHelp("The app's Info.plist for flows that name no 'app' (flows kept outside this checkout).", valueName: "plist"))
    var app: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("Fill the flows' ${NAME} with VALUE (repeatable).", valueName: "name=value"))
    var parameters: [String] = []

    @Option(name: .long, help: ArgumentHelp("A running complianced's control socket to use instead of starting one.", valueName: "path"))
    var socket: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Flows run at once (own mock and daemon each).", valueName: "n"))
    var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(name: .long, help: ArgumentHelp("The mockauth executable (default: next to compliancectl, then PATH).", valueName: "path"))
    var mockauth: String?

    @Option(name: .long, help: ArgumentHelp("The complianced executable (default: next to compliancectl, then PATH).", valueName: "path"))
    var complianced: String?

    @Flag(name: .customLong("no-reset"), help: "With --authority: do not reset the mock (POST /_admin/reset) before each flow; flows start from its current state.")
    var noReset = false

    @Flag(name: .customLong("keep-state"), help: "Keep each flow's daemon state directory (each flow's progress says where; --json: stateDirectory).")
    var keepState = false

    @Flag(name: .long, help: "At the end of each flow, tell each account's compliance story as compliancectl explain does: its diagnoses (the JSON report's explain).")
    var explain = false

    @Flag(name: .long, help: "Print a JSON report instead of progress and a table.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Also write a JUnit XML report (one testcase per flow) to FILE, for CI test reports.", valueName: "file"))
    var junit: String?

    @Flag(name: .shortAndLong, help: "Also print each flow's description and each step's note.")
    var verbose = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one flow file or directory (e.g. flows/).") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1...64.") }
        if noReset, issuer.authority == nil {
            throw ValidationError("--no-reset goes with --authority (a mock the run starts is its own, and --oidc-issuer has none).")
        }
        _ = try parameterValues()
        if let app, !FileManager.default.isReadableFile(atPath: app) { throw ValidationError("--app: cannot read '\(app)'.") }
    }

    /// `--param NAME=VALUE`s by name (NAME: letters, digits, `_`, `-`, `.`).
    func parameterValues() throws -> [String: String] {
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "="), equals != parameter.startIndex else {
                throw ValidationError("--param takes NAME=VALUE, got '\(parameter)'.")
            }
            let name = String(parameter[..<equals])
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                throw ValidationError("--param: '\(name)' is not a parameter name (letters, digits, _ - .).")
            }
            values[name] = String(parameter[parameter.index(after: equals)...])
        }
        return values
    }

    func run() async throws {
        if let junit, let reason = FileOutput.cannotWrite(junit) {  // refused before the flows run, not after
            Terminal.warn("cannot write \(junit): \(reason)")
            throw Exit.ioError
        }
        let flows: [Flow]
        do {
            let defaults = FlowDefaults(
                app: app, issuerGiven: issuer.authority != nil || issuer.oidcIssuer != nil,
                dataDirectories: FlowDefaults.installedData(besides: Executables.running))
            flows = try FlowSuite.load(try FlowSuite.files(paths), parameters: try parameterValues(), defaults: defaults).get()
        } catch let error as FlowError {
            report([error])
            writeInvalidReport([error])
            throw Exit.dataError
        } catch let errors as FlowLoadErrors {
            report(errors.errors)
            writeInvalidReport(errors.errors)
            throw Exit.dataError
        }
        // Flows made only of web checks start no server, so they need neither executable.
        let servers = flows.contains(where: \.needsServers)
        // Told to stop (or left without a reader for its output), stop the servers first.
        if servers { ChildProcess.stopChildrenOnTermination() }
        var options = RunOptions(
            mockauthPath: servers ? try Executables.find("mockauth", given: mockauth) : "",
            compliancedPath: servers ? try Executables.find("complianced", given: complianced) : "")
        options.authority = issuer.authority
        options.oidcIssuer = issuer.oidcIssuer
        options.clientID = issuer.clientID
        options.clientSecretFile = issuer.clientSecretFile
        options.clientAuth = issuer.clientAuth
        options.mamURL = issuer.mamURL
        options.socket = socket
        options.caFile = issuer.caFile
        options.keepState = keepState
        options.explain = explain
        options.resetMock = !noReset
        if let authority = issuer.authority, servers, !noReset { Self.noteReset(authority) }
        if let socket, servers { await Self.noteStateOfGivenDaemon(socket) }
        let printer = RunPrinter(json: json, verbose: verbose)
        let started = Date()
        let results = await FlowSuite.run(flows, options: options, jobs: jobs) { progress in printer.show(progress) }
        printer.finish(results)
        if let junit {
            let report = JUnitReport.xml(results, started: started, seconds: Date().timeIntervalSince(started))
            try OutputFile.write(Array(report.utf8), to: junit, shared: true)
        }
        // Stopped by a signal: its handler ends this process by that signal, after the servers.
        await ChildProcess.awaitTerminationIfStopping()
        if results.contains(where: { $0.setupError != nil }) && !results.contains(where: { $0.setupError == nil && !$0.passed }) {
            throw Exit.unavailable
        }
        if !results.allSatisfy(\.passed) { throw Exit.failed }
    }

    /// A mock given by --authority may be shared (another daemon, a person's session): say on
    /// stderr, once, that each flow resets it, and how not to.
    static func noteReset(_ authority: String) {
        let origin = MockAdmin.origin(ofAuthority: authority) ?? authority
        Terminal.warn("""
            note: each flow first resets the mock at \(origin) (POST /_admin/reset): its assignments, \
            policy, tokens, enrollments, faults and request log go back to its fixtures, also for any other daemon \
            using it; --no-reset keeps them (flows then start from its current state).
            """)
    }

    /// Flows are written for a fresh daemon: a daemon given by --socket that already knows
    /// accounts gets a note on stderr (the flows still run; an unreachable daemon is each
    /// flow's setup error).
    static func noteStateOfGivenDaemon(_ socket: String) async {
        guard let answer = try? await ControlClient(socketPath: socket).accounts(),
            let accounts = answer["accounts"]?.arrayValue, !accounts.isEmpty
        else { return }
        let names = accounts.prefix(5).compactMap { $0["account"]?.stringValue }
        let shown = names.joined(separator: ", ") + (accounts.count > names.count ? ", …" : "")
        Terminal.warn("""
            note: the daemon at \(socket) already knows \(accounts.count) account\(accounts.count == 1 ? "" : "s") \
            (\(shown)); flows are written for a fresh daemon, so some expectations may not hold. For a \
            clean run, start complianced on an empty --state-dir, or leave out --socket.
            """)
    }

    /// With --junit, the invalid files as error testcases: a CI reporter must not show an old
    /// report, or none, for a run that did not start.
    private func writeInvalidReport(_ errors: [FlowError]) {
        guard let junit else { return }
        // A file that cannot be written is named on stderr; the exit stays the invalid flow's 65.
        try? OutputFile.write(Array(JUnitReport.invalid(errors, paths: paths, started: Date()).utf8), to: junit, shared: true)
    }

    private func report(_ errors: [FlowError]) {
        if json {
            print(JSONValue.object(["errors": .array(errors.map { ["file": .string($0.file), "step": $0.step.map { .int(Int64($0)) } ?? .null, "reason": .string($0.reason)] })]))
        } else {
            for error in errors { Terminal.warn("invalid flow: \(error)") }
        }
    }
}

/// Finds the servers `run` starts.
enum Executables {
    /// This program's file (`/usr/bin/compliancectl` when installed).
    static var running: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `given`, else `name` next to this executable, else on PATH.
    static func find(_ name: String, given: String?) throws -> String {
        if let given {
            guard FileManager.default.isExecutableFile(atPath: given) else { throw ValidationError("--\(name) \(given) is not an executable file.") }
            return given
        }
        let beside = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = (String(directory) as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ValidationError("cannot find \(name): build it (swift build) or pass --\(name) PATH.")
    }
}
