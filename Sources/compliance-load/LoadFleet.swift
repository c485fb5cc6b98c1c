import Foundation
import HTTPClient
import LocalServers
import MockAuth

/// Where the devices find the mock: its base URL (the authority and MAM service under it).
struct LoadMock: Sendable {
    let url: String
    var authority: String { "\(url)/contoso.com" }
    var mamURL: String { "\(url)/mam/v1" }
}

/// The devices one process runs: devices `first ..< first + count`, each with its own state
/// directory under `root`, sharing one HTTP client.
struct LoadFleet: Sendable {
    let first: Int
    let count: Int
    let concurrency: Int
    let mock: LoadMock
    let root: String

    /// Starts every device (its store opened, its engine started).
    func start(fixtures: Fixtures) async throws -> [LoadDevice] {
        var configuration = HTTPClientConfiguration()
        configuration.maxIdleHandles = concurrency * 2
        let http = HTTPClient(configuration: configuration)
        var fleet: [LoadDevice] = []
        for index in first..<(first + count) {
            fleet.append(try await LoadDevice.start(
                index: index, upn: fixtures.generatedUPN(index), directory: "\(root)/device-\(index)", mock: mock, http: http))
        }
        return fleet
    }

    /// Runs every device's flow (at most `concurrency` at once; a device not started by the
    /// deadline counts as lost), reads each one's final state, and stops them all.
    /// `flowsDone` is called once every flow ended, before the states are read.
    func run(_ fleet: [LoadDevice], deadline: ContinuousClock.Instant, flowsDone: () -> Void) async -> [DeviceResult] {
        let outcomes = await withTaskGroup(of: (Int, LoadDevice.FlowOutcome?).self) { group in
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
        flowsDone()
        var results: [DeviceResult] = []
        for (device, outcome) in zip(fleet, outcomes) { results.append(DeviceResult(outcome: outcome, state: await device.finalState())) }
        for device in fleet { await device.stop() }
        return results
    }
}
