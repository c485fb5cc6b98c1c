import ArgumentParser
import FileOutput
import ProgramSupport
import Foundation

/// `compliance-load`: many virtual devices remediating against one mockauth, in one process,
/// sharded over worker processes, or as shards of a fleet that a job runner spreads over
/// machines (`--shard I/N`, then `merge`).
@main
struct ComplianceLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliance-load",
        abstract: "Runs N virtual devices (one engine and state directory each) through alice's flow against one mockauth.",
        discussion: """
            run (the default) runs a fleet, or one shard of it; prepare makes a shared mockauth ready \
            for a sharded fleet; merge prints the fleet's report from its shards' results.

            A fleet over a job runner (a Kubernetes Indexed Job, a CI matrix; examples in dist/fleet/):
              mockauth serve --host 0.0.0.0 --port 8080 --public-url http://mock:8080
              compliance-load prepare --mock http://mock:8080 --devices 100000
              compliance-load --devices 100000 --shard 0/8 --mock http://mock:8080 --output shard-0.json
              ... one per shard, 0/8 to 7/8 ...
              compliance-load merge shard-*.json
            """,
        subcommands: [LoadCommand.self, PrepareCommand.self, MergeCommand.self],
        defaultSubcommand: LoadCommand.self)
}

/// `compliance-load [run]`: the fleet, or one shard of it.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs the fleet (or one shard of it) and prints its report.",
        discussion: """
            Each device signs in its own generated CA-targeted user (load00001@contoso.com, …): 53005, \
            remediation (MAM token, enroll, policy, first-policy restart, compliance report), retried \
            token. At the end every device must be signed in, managed, enrolled and Compliant, and the \
            mock must hold every user's compliance report. Prints devices, flows/s, latencies and the \
            count of lost or wrong states; exits 1 when any device is lost or wrong, or the run hits \
            --time-limit.

            --processes K shards the devices over K worker processes (this executable again) against \
            one in-process mock: each device's SQLite store holds five file descriptors, so one \
            process holds only so many devices (the run says how many processes it needs when the \
            limit is too low).

            --shard I/N runs only shard I (0 to N-1) of the fleet's --devices against the shared mock \
            at --mock (made ready by compliance-load prepare), and writes its result as JSON to \
            --output for compliance-load merge. Shard I runs the devices I*D/N+1 to (I+1)*D/N: the N \
            shards cover every device once. --shards N takes I from JOB_COMPLETION_INDEX, which a \
            Kubernetes Indexed Job sets (0 to N-1). --concurrency is then the shard's own. A shard \
            exits 0 once its result is written, whatever its devices' outcome (merge judges the \
            fleet), and 1 when it cannot run.

            Examples:
              swift run -c release compliance-load --devices 1000 --concurrency 64
              swift run -c release compliance-load --devices 10000 --processes 4
              compliance-load --devices 100000 --shard 3/8 --mock http://mock:8080 --output shard-3.json
            """)

    @Option(help: "Virtual devices (engines) of the fleet, 1…100000.")
    var devices = 100

    @Option(help: "Flows in flight at once (over all processes; in a shard, the shard's own).")
    var concurrency = 64

    @Option(help: "Worker processes the devices are sharded over, 1…64 (1: all in this process).")
    var processes = 1

    @Option(name: .customLong("time-limit"), help: "Seconds the whole run may take before it is called failed.")
    var timeLimit = 600

    @Option(help: ArgumentHelp("Run only shard I of N (I from 0) against --mock, writing its result to --output.", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Run the shard of index JOB_COMPLETION_INDEX of N shards.", valueName: "N"))
    var shards: Int?

    @Option(help: ArgumentHelp("The shared mockauth a shard's devices use (its base URL).", valueName: "url"))
    var mock: String?

    @Option(help: ArgumentHelp("Where a shard writes its result (- for stdout). Default: compliance-load-shard-I-of-N.json.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp(
        "The fleet's run, written into a shard's result so merge never mixes runs. Default: $COMPLIANCE_LOAD_RUN, else GitHub Actions' run id and attempt.",
        valueName: "id"))
    var run: String?

    @Option(name: .customLong("worker-mock"), help: .hidden) var workerMock: String?
    @Option(name: .customLong("worker-first"), help: .hidden) var workerFirst = 1
    @Option(name: .customLong("worker-go"), help: .hidden) var workerGo: String?
    @Option(name: .customLong("worker-root"), help: .hidden) var workerRoot: String?

    func validate() throws {
        guard (1...100_000).contains(devices) else { throw ValidationError("--devices must be 1…100000.") }
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency must be 1…4096.") }
        guard (1...64).contains(processes) else { throw ValidationError("--processes must be 1…64.") }
        guard processes <= devices else { throw ValidationError("--processes (\(processes)) must not exceed --devices (\(devices)).") }
        guard (1...86_400).contains(timeLimit) else { throw ValidationError("--time-limit must be 1…86400 seconds.") }
        if workerMock != nil, workerGo == nil || workerRoot == nil { throw ValidationError("a worker needs --worker-go and --worker-root.") }
        if shard != nil || shards != nil {
            do {
                _ = try FleetShard.resolve(shard: shard, shards: shards, devices: devices, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError(error.description)
            }
            guard processes == 1 else { throw ValidationError("a shard runs in one process: --processes goes with an unsharded run.") }
            guard let mock else {
                throw ValidationError("a shard needs --mock URL (http:// or https://): the mockauth every shard of the fleet shares.")
            }
            _ = try MockURL.parse(mock)
            if let output, output != "-", let reason = FileOutput.cannotWrite(output) {
                throw ValidationError("--output \(output): \(reason) (checked before the shard signs its users in).")
            }
            do {
                _ = try FleetRun.id(option: run, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw ValidationError(error.description)
            }
        } else if mock != nil || output != nil || run != nil {
            throw ValidationError("--mock, --output and --run go with --shard I/N or --shards N.")
        }
    }

    func run() async throws {
        do {
            if let workerMock, let workerGo, let workerRoot {
                try await LoadWorker(
                    mock: LoadMock(url: workerMock), first: workerFirst, count: devices, concurrency: concurrency, go: workerGo,
                    root: workerRoot, timeLimit: .seconds(timeLimit)).run()
                return
            }
            if let shard = try FleetShard.resolve(shard: shard, shards: shards, devices: devices, environment: ProcessInfo.processInfo.environment),
               let mock {
                try await runShard(
                    shard, mock: LoadMock(url: try MockURL.parse(mock)),
                    run: try FleetRun.id(option: run, environment: ProcessInfo.processInfo.environment))
                return
            }
            let report = try await LoadRun(devices: devices, concurrency: concurrency, processes: processes, timeLimit: .seconds(timeLimit)).run()
            print(TerminalText.shown(report.text))
            if !report.passed { throw ExitCode(1) }
        } catch let error as LoadError {
            FileHandle.standardError.write(Data("compliance-load: \(TerminalText.shown("\(error)"))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Runs the shard, writes its result (whole, or not at all), prints its own report.
    private func runShard(_ shard: FleetShard, mock: LoadMock, run: String?) async throws {
        let destination = output ?? "compliance-load-shard-\(shard.index)-of-\(shard.count).json"
        let result = try await ShardRun(shard: shard, devices: devices, concurrency: concurrency, mock: mock, timeLimit: .seconds(timeLimit), run: run).run()
        let text = result.json.encodedString() + "\n"
        let summary = "shard \(shard) (devices \(result.first)…\(result.first + result.results.count - 1) of \(devices)): "
            + "\(result.results.filter { !$0.lost && !$0.wrong }.count) of \(result.results.count) Compliant, lost \(result.results.filter(\.lost).count), "
            + "wrong \(result.results.filter(\.wrong).count); compliant at the mock: \(result.compliantAtMock)"
        if destination == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            FileHandle.standardError.write(Data((summary + "\n").utf8))
            return
        }
        if let reason = FileOutput.write(Array(text.utf8), to: destination) {
            throw LoadError("cannot write the shard's result to \(destination): \(reason)")
        }
        print(TerminalText.shown(summary + "; result in \(destination)"))
    }
}

/// A shared mockauth's base URL as `--mock` gives it: http or https, a host, no user name or
/// password (they would be printed and written into every shard's result), no query; a
/// trailing `/` dropped.
enum MockURL {
    static func parse(_ text: String) throws(ValidationError) -> String {
        let shown = redacted(text)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else {
            throw ValidationError("--mock \(shown): expected the mockauth's base URL, http:// or https:// and a host.")
        }
        guard url.user == nil, url.password == nil else {
            throw ValidationError("--mock: a URL with a user name or password is refused (it would be printed and written into every shard's result); mockauth's admin API takes none.")
        }
        guard url.query == nil, url.fragment == nil else { throw ValidationError("--mock \(shown): a base URL has no query or fragment.") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// `text` as an error may show it: at most 80 characters, anything before an `@` of the
    /// authority (a user name, a password) replaced by `…`.
    static func redacted(_ text: String) -> String {
        var shown = text
        if let at = shown.lastIndex(of: "@") {
            let start = shown.range(of: "//").map(\.upperBound) ?? shown.startIndex
            if start <= at { shown.replaceSubrange(start..<at, with: "…") }
        }
        return String(shown.prefix(80))
    }
}

/// `compliance-load prepare`: a shared mockauth made ready for a fleet.
struct PrepareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepare",
        abstract: "Makes a shared mockauth ready for a sharded fleet: its generated users, and a policy that allows any account.",
        discussion: """
            Resets the mock (POST /_admin/reset: an earlier run's users, enrollments, compliance reports \
            and faults go), adds the generated users load00001@contoso.com to the fleet's last through \
            the mock's admin API, and sets the policy's allowed accounts to any account, so each \
            device's policy stays as small as alice's. Run it once before each run of the shards: a \
            shard refuses a mock that already holds its users' enrollments (they would get no 53005).
            """)

    @Option(help: ArgumentHelp("The shared mockauth (its base URL).", valueName: "url"))
    var mock: String

    @Option(help: "Virtual devices of the fleet, 1…100000.")
    var devices: Int

    func validate() throws {
        guard (1...100_000).contains(devices) else { throw ValidationError("--devices must be 1…100000.") }
        _ = try MockURL.parse(mock)
    }

    func run() async throws {
        do {
            let base = try MockURL.parse(mock)
            let users = try await LoadPreparation.prepare(mock: base, devices: devices)
            print(TerminalText.shown("mock at \(base): \(users) users, the fleet's \(devices) generated among them; any account allowed"))
        } catch let error as LoadError {
            FileHandle.standardError.write(Data("compliance-load prepare: \(TerminalText.shown("\(error)"))\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// `compliance-load merge`: the fleet's report from its shards' results.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Prints the fleet's report from its shards' result files.",
        discussion: """
            Reads the result of every shard of one fleet (each shard once, none missing, all of the \
            same --devices, shard count, mock and run id), and prints the report an unsharded run prints: \
            flows/s over the span from the first shard's flows to the last one's end. Exits 1 when \
            any device is lost or wrong, a user is not compliant at the mock, or a shard hit its time \
            limit (as an unsharded run), and 2 when the files cannot be merged (unreadable, not a \
            shard's result, a value out of range, from different fleets or runs, a shard missing or \
            twice).
            """)

    @Argument(help: ArgumentHelp("The shards' result files.", valueName: "result"))
    var results: [String]

    func run() throws {
        let report: LoadReport
        do {
            var shards: [(file: String, result: ShardResult)] = []
            for file in results { shards.append((file, try ShardResult(file: file))) }
            report = try ShardResult.merge(shards)
        } catch {
            FileHandle.standardError.write(Data("compliance-load merge: \(TerminalText.shown("\(error)"))\n".utf8))
            throw ExitCode(2)
        }
        print(TerminalText.shown(report.text))
        if !report.passed { throw ExitCode(1) }
    }
}
