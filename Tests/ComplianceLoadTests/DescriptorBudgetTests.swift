import Foundation
import ChildProcess
import LocalServers
import MockAuth
import Testing

@testable import compliance_load

/// The descriptor budget a run checks before it starts matches what a device really holds:
/// with too small a figure, a fleet that passed the check failed part-way (a shard of 5,000
/// devices under a limit of 20,000 could not open device 3,999's store).
@Suite struct DescriptorBudgetTests {
    /// Descriptors of this process open on files under `root` (the devices' state
    /// directories; the tests running beside this one open their own files elsewhere).
    static func descriptors(under root: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry))?.hasPrefix(root + "/") == true
        }
    }

    @Test func aDeviceHoldsNoMoreDescriptorsThanTheBudgetCounts() async throws {
        let devices = 12
        let concurrency = 4
        var generated = try Fixtures.load(path: InProcessMockAuth.fixturesPath).addingGeneratedUsers(count: devices)
        generated.mamPolicy.allowedAccounts = nil
        let fixtures = generated
        let root = NSTemporaryDirectory() + "descriptor-budget-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (started, ended, results) = try await InProcessMockAuth.run(fixtures: fixtures) { mock in
            let fleet = LoadFleet(first: 1, count: devices, concurrency: concurrency, mock: LoadMock(url: mock.url), root: root)
            let devicesStarted = try await fleet.start(fixtures: fixtures)
            let started = Self.descriptors(under: root)
            var ended = 0
            // Counted once every flow ended, while every device's store is still open.
            let results = await fleet.run(devicesStarted, deadline: .now + .seconds(240)) { ended = Self.descriptors(under: root) }
            return (started, ended, results)
        }
        #expect(results.allSatisfy { $0.outcomeExpected && $0.stateExpected }, "\(results.map(\.detail))")
        let budget = devices * DescriptorBudget.perDevice
        #expect(started <= budget, "\(devices) started devices hold \(started) descriptors on their files; the budget counts \(budget)")
        #expect(ended <= budget, "after their flows, \(devices) devices hold \(ended) descriptors on their files; the budget counts \(budget)")
        #expect(started >= devices * 3, "a device's store holds at least its database, log and shared memory: \(started)")
    }

    /// The advice when the devices do not fit can be followed: more processes, more shards (for
    /// a shard; `--processes` is refused there), or a higher limit when not one device fits.
    @Test func theAdviceWhenDevicesDoNotFitCanBeFollowed() async throws {
        let executable = ChildServer.executable("compliance-load")
        let cases: [(limit: Int, arguments: [String], advice: String)] = [
            (60, ["--devices", "12"], "Raise the limit to at least 71 (ulimit -n): no device runs under it."),
            (200, ["--devices", "100", "--concurrency", "4"], "Use --processes 4 or more, or raise the limit."),
            (200, ["--devices", "100", "--concurrency", "4", "--shard", "0/2", "--mock", "http://127.0.0.1:1"], "Use 4 or more shards (--shard I/4: each runs at most 25 devices here)"),
            (200, ["--devices", "200", "--concurrency", "100", "--shard", "0/2", "--mock", "http://127.0.0.1:1"], "Lower --concurrency (its connections take 200)"),
        ]
        for (limit, arguments, advice) in cases {
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let result = try await Command.run("/bin/sh", ["-c", "ulimit -n \(limit) && exec '\(executable)' \(quoted)"], timeout: .seconds(60))
            #expect(result.status == 1 && result.stderr.contains(advice), "ulimit -n \(limit), \(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("cannot open"), "\(result.stderr)")
        }
    }
}
