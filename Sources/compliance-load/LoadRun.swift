import Daemon
import Foundation
import HTTPClient
import MockAuth
import LocalServers

/// One load run: the mock with generated users, the devices, the flows, the checks.
struct LoadRun: Sendable {
    let devices: Int
    let concurrency: Int
    let timeLimit: Duration

    func run() async throws -> LoadReport {
        var generated = try Fixtures.load(path: InProcessMockAuth.fixturesPath).addingGeneratedUsers(count: devices)
        // Any account allowed (null): each device's policy stays as small as alice's, instead of
        // listing every generated user (which would make every policy parse O(devices)).
        generated.mamPolicy.allowedAccounts = nil
        let fixtures = generated
        let root = NSTemporaryDirectory() + "compliance-load-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        var configuration = HTTPClientConfiguration()
        configuration.maxIdleHandles = concurrency * 2
        let http = HTTPClient(configuration: configuration)
        return try await InProcessMockAuth.run(fixtures: fixtures) { mock in
            let setupStart = ContinuousClock.now
            var fleet: [LoadDevice] = []
            for index in 1...devices {
                fleet.append(try await LoadDevice.start(
                    index: index, upn: fixtures.generatedUPN(index), directory: "\(root)/device-\(index)", mock: mock, http: http))
            }
            let setup = ContinuousClock.now - setupStart
            let start = ContinuousClock.now
            let outcomes = await runFlows(fleet, deadline: start + timeLimit)
            let elapsed = ContinuousClock.now - start
            let compliantAtMock = await LoadChecks.usersCompliantAtMock(mock, upns: fleet.map(\.upn))
            var states: [LoadDevice.State] = []
            for device in fleet { states.append(await device.finalState()) }
            for device in fleet { await device.stop() }
            return LoadReport(
                devices: devices, concurrency: concurrency, setup: setup, elapsed: elapsed, outcomes: outcomes, states: states,
                compliantAtMock: compliantAtMock, timeLimit: timeLimit)
        }
    }

    /// Runs every device's flow, at most `concurrency` at once; devices not finished by the
    /// deadline are cancelled and count as lost.
    private func runFlows(_ fleet: [LoadDevice], deadline: ContinuousClock.Instant) async -> [LoadDevice.FlowOutcome?] {
        await withTaskGroup(of: (Int, LoadDevice.FlowOutcome?).self) { group in
            var outcomes = [LoadDevice.FlowOutcome?](repeating: nil, count: fleet.count)
            var next = 0
            func launch() {
                guard next < fleet.count else { return }
                let index = next
                next += 1
                group.addTask {
                    guard ContinuousClock.now < deadline else { return (index, nil) }
                    return (index, await fleet[index].runFlow(password: Fixtures.generatedUserPassword))
                }
            }
            for _ in 0..<min(concurrency, fleet.count) { launch() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                launch()
            }
            return outcomes
        }
    }
}
