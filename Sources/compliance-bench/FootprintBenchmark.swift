import Foundation
import MockAuth

/// Issue 9: the `complianced` executable's start-to-ready time (spawn → the
/// `listening on unix:…` line) and idle resident memory (1 s after ready), with an empty store
/// (a fresh state directory each start) and with a 10,000-account store (machine records
/// seeded through the store API, ``AccountSeeder``).
enum FootprintBenchmark {
    static func run(starts: Int, accounts: Int) async throws {
        try await BenchMock.run { mock in
            print("complianced footprint, \(starts) starts per store (release build, virtual clock, log level error)")
            try await measure("empty store", starts: starts, mock: mock) { BenchEngine.makeDirectory("footprint-empty") }
            let seeded = BenchEngine.makeDirectory("footprint-\(accounts)")
            defer { try? FileManager.default.removeItem(atPath: seeded) }
            try AccountSeeder.seedStore(
                directory: seeded, seeds: AccountSeeder.offline(accounts)[...],
                policy: ScalingBenchmark.registrationPolicy(mock.state.directory.mamPolicy))
            try await measure("\(accounts)-account store", starts: starts, mock: mock, keep: true) { seeded }
        }
    }

    private static func measure(
        _ name: String, starts: Int, mock: BenchMock.Running, keep: Bool = false, directory: () -> String
    ) async throws {
        var ready = Samples()
        var resident: [Int] = []
        var anonymous: [Int] = []
        for _ in 0..<starts {
            let stateDirectory = directory()
            defer { if !keep { try? FileManager.default.removeItem(atPath: stateDirectory) } }
            let daemon = try await ChildDaemon(stateDirectory: stateDirectory, authority: mock.authority)
            ready.append(daemon.startToReady)
            try await Task.sleep(for: .seconds(1))
            resident.append(daemon.residentBytes)
            anonymous.append(daemon.anonymousBytes)
            await daemon.stop()
        }
        resident.sort()
        anonymous.sort()
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        print("  \(name): start-to-ready median \(millis(ready.median)), max \(millis(ready.percentile(1))) (goal ≤ 200 ms); idle RSS median \(megabytes(resident[resident.count / 2])), max \(megabytes(resident.last ?? 0)) (goal ≤ 30 MB), of which anonymous (heap, stacks) median \(megabytes(anonymous[anonymous.count / 2]))")
    }
}
