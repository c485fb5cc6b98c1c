import Daemon
import Foundation
import JSON
import MockAuth
import Orchestrator

/// Issue 9: what a store of N enrolled accounts costs the engine, for N = 100, 1,000, 10,000:
/// loading it (`Engine.start()`: loadMachines and resuming every machine) and one check-in
/// sweep (the virtual clock moved 8 h: every account's check-in timer fires, each checks in
/// with the loopback mock — 101 PoliciesHaveNotChanged — and is rescheduled). Prints the
/// per-account cost at each size; linear growth means a flat per-account cost.
enum ScalingBenchmark {
    static func run(sizes: [Int]) async throws {
        guard let largest = sizes.max() else { return }
        try await BenchMock.run(prepare: { AccountSeeder.addUsers(largest, to: &$0) }) { mock in
            let directory = mock.state.directory
            let seeds = try await AccountSeeder.enroll(largest, mock: mock, tenantID: directory.tenant.id)
            let policy = registrationPolicy(directory.mamPolicy)
            print("scaling: store load (Engine.start, median of 3) and one check-in sweep (8 h of virtual time, loopback mock)")
            print("  accounts | load total | load/account | sweep total | sweep/account")
            var perAccount: [(size: Int, load: Double, sweep: Double)] = []
            for size in sizes.sorted() {
                let stateDirectory = BenchEngine.makeDirectory("scaling-\(size)")
                defer { try? FileManager.default.removeItem(atPath: stateDirectory) }
                try AccountSeeder.seedStore(directory: stateDirectory, seeds: seeds[0..<size], policy: policy)
                var loads = Samples()
                var engine: Engine?
                for _ in 0..<3 {
                    let parts = try BenchEngine.parts(directory: stateDirectory, mock: mock)
                    let start = ContinuousClock.now
                    try await parts.engine.start()
                    loads.append(ContinuousClock.now - start)
                    engine = parts.engine
                }
                guard let engine else { continue }
                let start = ContinuousClock.now
                let advanced = try await engine.withRunning { try await $0.advanceClock(seconds: 8 * 3600 + 60) }
                let sweep = Double((ContinuousClock.now - start).nanoseconds)
                guard advanced.fired.count == size else {
                    throw BenchError("the sweep fired \(advanced.fired.count) timers for \(size) accounts")
                }
                let unchanged = try await engine.accounts().filter { $0.lastEnrollmentStatus?.rawValue == 101 }.count
                guard unchanged == size else { throw BenchError("\(size - unchanged) of \(size) check-ins did not answer 101") }
                let load = loads.median
                perAccount.append((size, load / Double(size), sweep / Double(size)))
                print("  \(String(size).leftPadded(to: 8, with: " ")) | \(millis(load).leftPadded(to: 10, with: " ")) | \(micros(load / Double(size)).leftPadded(to: 12, with: " ")) | \(millis(sweep).leftPadded(to: 11, with: " ")) | \(micros(sweep / Double(size)).leftPadded(to: 13, with: " "))")
            }
            if let first = perAccount.first, let last = perAccount.last, last.size > first.size {
                print("  per-account cost at \(last.size) / at \(first.size): load \(ratio(last.load, first.load)), sweep \(ratio(last.sweep, first.sweep))  (goal: linear or better, ≈ 1 or less)")
            }
        }
    }

    /// The policy as an enroll answer stores it (version as a string, as the engine keeps it).
    static func registrationPolicy(_ policy: MAMPolicy) -> JSONValue {
        var object = policy.settings
        object["id"] = .string(policy.id)
        object["version"] = .string(String(policy.version))
        object["appIds"] = .array(policy.appIds.map { .string($0) })
        object["allowedAccounts"] = policy.allowedAccounts.map { .array($0.map { .string($0) }) } ?? .null
        return .object(object)
    }
}
