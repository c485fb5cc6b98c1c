import ArgumentParser
import Foundation

/// `compliance-load`: many virtual devices remediating against one mockauth, in one process or
/// sharded over worker processes.
@main
struct ComplianceLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliance-load",
        abstract: "Runs N virtual devices (one engine and state directory each) through alice's flow against one in-process mockauth.",
        discussion: """
            Each device signs in its own generated CA-targeted user (load00001@contoso.com, …): 53005, \
            remediation (MAM token, enroll, policy, first-policy restart, compliance report), retried \
            token. At the end every device must be signed in, managed, enrolled and Compliant, and the \
            mock must hold every user's compliance report. Prints devices, flows/s, latencies and the \
            count of lost or wrong states; exits 1 when any device is lost or wrong, or the run hits \
            --time-limit.

            --processes K shards the devices over K worker processes (this executable again) against \
            the one mock, as a fleet spreads over machines: each device's SQLite store holds three file \
            descriptors, so one process holds only so many devices (the run says how many processes \
            it needs when the limit is too low).

            Examples:
              swift run -c release compliance-load --devices 1000 --concurrency 64
              swift run -c release compliance-load --devices 10000 --processes 4
            """)

    @Option(help: "Virtual devices (engines), 1…100000.")
    var devices = 100

    @Option(help: "Flows in flight at once (over all processes).")
    var concurrency = 64

    @Option(help: "Worker processes the devices are sharded over, 1…64 (1: all in this process).")
    var processes = 1

    @Option(name: .customLong("time-limit"), help: "Seconds the whole run may take before it is called failed.")
    var timeLimit = 600

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
    }

    func run() async throws {
        do {
            if let workerMock, let workerGo, let workerRoot {
                try await LoadWorker(
                    mock: LoadMock(url: workerMock), first: workerFirst, count: devices, concurrency: concurrency, go: workerGo,
                    root: workerRoot, timeLimit: .seconds(timeLimit)).run()
                return
            }
            let report = try await LoadRun(devices: devices, concurrency: concurrency, processes: processes, timeLimit: .seconds(timeLimit)).run()
            print(report.text)
            if !report.passed { throw ExitCode(1) }
        } catch let error as LoadError {
            FileHandle.standardError.write(Data("compliance-load: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
