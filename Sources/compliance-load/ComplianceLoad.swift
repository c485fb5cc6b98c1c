import ArgumentParser
import Foundation

/// `compliance-load`: many virtual devices remediating against one mockauth, in one process.
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

            Example: swift run -c release compliance-load --devices 1000 --concurrency 64
            """)

    @Option(help: "Virtual devices (engines), 1…100000.")
    var devices = 100

    @Option(help: "Flows in flight at once.")
    var concurrency = 64

    @Option(name: .customLong("time-limit"), help: "Seconds the whole run may take before it is called failed.")
    var timeLimit = 600

    func validate() throws {
        guard (1...100_000).contains(devices) else { throw ValidationError("--devices must be 1…100000.") }
        guard (1...4096).contains(concurrency) else { throw ValidationError("--concurrency must be 1…4096.") }
        guard (1...86_400).contains(timeLimit) else { throw ValidationError("--time-limit must be 1…86400 seconds.") }
    }

    func run() async throws {
        let report = try await LoadRun(devices: devices, concurrency: concurrency, timeLimit: .seconds(timeLimit)).run()
        print(report.text)
        if !report.passed { throw ExitCode(1) }
    }
}
