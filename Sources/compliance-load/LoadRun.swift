import Foundation
import JSON
import LocalServers
import MockAuth

/// One load run: the mock with generated users, the devices (in this process, or sharded over
/// worker processes as a fleet would spread over machines), the flows, the checks.
struct LoadRun: Sendable {
    let devices: Int
    let concurrency: Int
    let processes: Int
    let timeLimit: Duration

    func run() async throws -> LoadReport {
        var generated = try Fixtures.load(path: InProcessMockAuth.fixturesPath).addingGeneratedUsers(count: devices)
        // Any account allowed (null): each device's policy stays as small as alice's, instead of
        // listing every generated user (which would make every policy parse O(devices)).
        generated.mamPolicy.allowedAccounts = nil
        let fixtures = generated
        if processes == 1 {
            try DescriptorBudget.check(devices: devices, concurrency: concurrency, spread: .processes(total: devices))
        }
        let root = NSTemporaryDirectory() + "compliance-load-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        return try await InProcessMockAuth.run(fixtures: fixtures) { mock in
            let measured = processes == 1
                ? try await inProcess(fixtures: fixtures, mock: LoadMock(url: mock.url), root: root)
                : try await sharded(mock: LoadMock(url: mock.url), root: root)
            let compliantAtMock = await LoadChecks.usersCompliantAtMock(mock.url, upns: (1...devices).map { fixtures.generatedUPN($0) })
            return LoadReport(
                devices: devices, concurrency: concurrency, spread: processes == 1 ? "" : " over \(processes) worker processes", setup: measured.setup,
                elapsed: measured.elapsed, results: measured.results, compliantAtMock: compliantAtMock, timedOut: measured.elapsed >= timeLimit)
        }
    }

    struct Measured: Sendable {
        var setup: Duration
        var elapsed: Duration
        var results: [DeviceResult]
    }

    private func inProcess(fixtures: Fixtures, mock: LoadMock, root: String) async throws -> Measured {
        let fleet = LoadFleet(first: 1, count: devices, concurrency: concurrency, mock: mock, root: root)
        let setupStart = ContinuousClock.now
        let started = try await fleet.start(fixtures: fixtures)
        let setup = ContinuousClock.now - setupStart
        let start = ContinuousClock.now
        var elapsed = Duration.zero
        let results = await fleet.run(started, deadline: start + timeLimit) { elapsed = ContinuousClock.now - start }
        return Measured(setup: setup, elapsed: elapsed, results: results)
    }

    /// `processes` workers (this executable with `--worker-mock`), devices split in contiguous
    /// shards; every worker starts its devices, says `ready`, and all begin their flows when
    /// the go file appears, so the flows/s cover the whole fleet at once.
    private func sharded(mock: LoadMock, root: String) async throws -> Measured {
        let go = root + "/go"
        let perWorker = (devices + processes - 1) / processes
        var workers: [(server: ChildServer, count: Int)] = []
        defer { for worker in workers { kill(worker.server.child.pid, SIGKILL) } }
        let setupStart = ContinuousClock.now
        for shard in 0..<processes {
            let first = shard * perWorker + 1
            let count = min(perWorker, devices - first + 1)
            guard count > 0 else { break }
            workers.append((try ChildServer("compliance-load", arguments: [
                "--worker-mock", mock.url, "--worker-first", String(first), "--devices", String(count),
                "--concurrency", String(max(1, concurrency / processes)), "--worker-go", go, "--worker-root", root + "/worker-\(shard)",
                "--time-limit", String(timeLimit.components.seconds),
            ]), count))
        }
        for (server, _) in workers {
            guard let line = await server.firstLine(timeout: timeLimit), line.hasPrefix("ready") else {
                throw LoadError("a worker did not start its devices: \(server.stderr.suffix(2000))")
            }
        }
        let setup = ContinuousClock.now - setupStart
        FileManager.default.createFile(atPath: go, contents: nil)
        var results: [DeviceResult] = []
        var elapsed = Duration.zero
        for (server, count) in workers {
            _ = await server.waitForExit(timeout: timeLimit + .seconds(120))
            let lines = server.child.standardOutput.split(separator: "\n")
            guard lines.count >= 2, let report = try? JSONValue.parse(Array(lines[1].utf8), limits: JSONLimits(maxBytes: 256 << 20, maxDepth: 16)),
                  let shard = report["results"]?.arrayValue?.compactMap({ try? DeviceResult(json: $0) }), shard.count == count
            else {
                results += [DeviceResult](repeating: DeviceResult.missing, count: count)
                FileHandle.standardError.write(Data("compliance-load: a worker reported nothing usable: \(server.stderr.suffix(2000))\n".utf8))
                continue
            }
            results += shard
            elapsed = max(elapsed, .nanoseconds(report["flowNanoseconds"]?.intValue ?? 0))
            await server.stop()
        }
        return Measured(setup: setup, elapsed: elapsed, results: results)
    }
}

/// A worker process: its shard of devices against the parent's mock.
struct LoadWorker: Sendable {
    let mock: LoadMock
    let first: Int
    let count: Int
    let concurrency: Int
    let go: String
    let root: String
    let timeLimit: Duration

    func run() async throws {
        try DescriptorBudget.check(devices: count, concurrency: concurrency, spread: .worker)
        let fixtures = try Fixtures.load(path: InProcessMockAuth.fixturesPath)  // the UPNs need only the tenant's domain
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fleet = LoadFleet(first: first, count: count, concurrency: concurrency, mock: mock, root: root)
        let started = try await fleet.start(fixtures: fixtures)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        let waitUntil = ContinuousClock.now + timeLimit
        while !FileManager.default.fileExists(atPath: go), ContinuousClock.now < waitUntil {
            try await Task.sleep(for: .milliseconds(2))
        }
        let start = ContinuousClock.now
        var elapsed = Duration.zero
        let results = await fleet.run(started, deadline: start + timeLimit) { elapsed = ContinuousClock.now - start }
        let report: JSONValue = [
            "flowNanoseconds": .int(DeviceResult.nanoseconds(elapsed)),
            "results": .array(results.map(\.json)),
        ]
        FileHandle.standardOutput.write(Data((report.encodedString() + "\n").utf8))
    }
}

/// One shard of a fleet spread over a job runner: its devices against a shared mock (made
/// ready with `compliance-load prepare`), its result written for `compliance-load merge`.
struct ShardRun: Sendable {
    let shard: FleetShard
    let devices: Int
    let concurrency: Int
    let mock: LoadMock
    let timeLimit: Duration
    /// The fleet's run (``FleetRun``), written into the result for `merge`.
    let run: String?

    func run() async throws -> ShardResult {
        let range = shard.devices(of: devices)
        try DescriptorBudget.check(devices: range.count, concurrency: concurrency, spread: .shards(total: devices))
        let fixtures = try Fixtures.load(path: InProcessMockAuth.fixturesPath)  // the UPNs need only the tenant's domain
        try await LoadChecks.requireFresh(mock.url, upns: range.map { fixtures.generatedUPN($0) })
        let root = NSTemporaryDirectory() + "compliance-load-shard-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fleet = LoadFleet(first: range.lowerBound, count: range.count, concurrency: concurrency, mock: mock, root: root)
        let setupStart = ContinuousClock.now
        let started = try await fleet.start(fixtures: fixtures)
        let setup = ContinuousClock.now - setupStart
        let startedMs = Self.wallClockMs()
        let start = ContinuousClock.now
        var elapsed = Duration.zero
        var endedMs = startedMs
        let results = await fleet.run(started, deadline: start + timeLimit) {
            elapsed = ContinuousClock.now - start
            endedMs = Self.wallClockMs()
        }
        let compliantAtMock = await LoadChecks.usersCompliantAtMock(mock.url, upns: range.map { fixtures.generatedUPN($0) })
        return ShardResult(
            fleet: ShardResult.Fleet(devices: devices, shards: shard.count, mock: mock.url, run: run), shard: shard.index, first: range.lowerBound,
            concurrency: concurrency, setup: setup, flows: elapsed, flowsStartedMs: startedMs, flowsEndedMs: endedMs, timedOut: elapsed >= timeLimit,
            compliantAtMock: compliantAtMock, results: results)
    }

    static func wallClockMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
