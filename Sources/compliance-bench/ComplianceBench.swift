import ArgumentParser
import Foundation

/// compliance-bench: performance measurements, each against its floor measured in the same
/// run. See BENCHMARKS.md beside this file.
@main
struct ComplianceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliance-bench",
        abstract: "Measure each hot path against its floor, in the same run, and print the ratios.",
        discussion: "With no benchmark named, all run in the order listed. Each option applies to the benchmarks that take it; the others use their defaults. A benchmark that fails is reported and the others still run; the exit status is then 1. Figures and goals: Sources/compliance-bench/BENCHMARKS.md.")

    /// The benchmarks, in the order they run.
    enum Benchmark: String, CaseIterable, ExpressibleByArgument {
        case http, issuance, remediation, silentToken = "silent-token", footprint, scaling, json
    }

    @Argument(help: ArgumentHelp("Benchmarks to run (default: all).", valueName: "benchmark"))
    var benchmarks: [Benchmark] = []

    @Option(help: "Requests or operations per round (http 2000, remediation 100, silent-token 1000, json 20000).")
    var iterations: Int?

    @Option(help: "Rounds alternating the measured side and its floor (default 5; issuance 3).")
    var rounds: Int?

    @Option(help: "issuance: seconds of load per side, split over the rounds (default 6).")
    var seconds: Int?

    @Option(help: "issuance: concurrent wrk connections (default 8).")
    var connections: Int?

    @Option(help: "footprint: daemon starts per store (default 5).")
    var starts: Int?

    @Option(help: "footprint: accounts in the large store; scaling: the largest size, also run at 1/100 and 1/10 (default 10000).")
    var accounts: Int?

    func validate() throws {
        let given: [(String, Int?)] = [
            ("--iterations", iterations), ("--rounds", rounds), ("--seconds", seconds),
            ("--connections", connections), ("--starts", starts), ("--accounts", accounts),
        ]
        for case (let name, let value?) in given where value <= 0 {
            throw ValidationError("\(name) needs a positive whole number, not \(value).")
        }
    }

    func run() async throws {
        var failed: [Benchmark] = []
        for benchmark in benchmarks.isEmpty ? Benchmark.allCases : benchmarks {
            do {
                try await run(benchmark)
            } catch {
                FileHandle.standardError.write(Data("compliance-bench: \(benchmark.rawValue) failed: \(error)\n".utf8))
                failed.append(benchmark)
            }
            print("")
            fflush(nil)  // figures reach a file or pipe as each benchmark ends
        }
        if !failed.isEmpty {
            FileHandle.standardError.write(Data("compliance-bench: failed: \(failed.map(\.rawValue).joined(separator: ", "))\n".utf8))
            throw ExitCode.failure
        }
    }

    private func run(_ benchmark: Benchmark) async throws {
        switch benchmark {
        case .http:
            try await HTTPBenchmark.run(iterations: iterations ?? 2000, rounds: rounds ?? 5)
        case .issuance:
            try await IssuanceBenchmark.run(seconds: seconds ?? 6, connections: connections ?? 8, rounds: rounds ?? 3)
        case .remediation:
            try await RemediationBenchmark.run(iterations: iterations ?? 100, rounds: rounds ?? 5)
        case .silentToken:
            try await SilentTokenBenchmark.run(iterations: iterations ?? 1000, rounds: rounds ?? 5)
        case .footprint:
            try await FootprintBenchmark.run(starts: starts ?? 5, accounts: accounts ?? 10_000)
        case .scaling:
            let largest = accounts ?? 10_000
            try await ScalingBenchmark.run(sizes: [largest / 100, largest / 10, largest].filter { $0 > 0 })
        case .json:
            try JSONBenchmark.run(iterations: iterations ?? 20_000, rounds: rounds ?? 5)
        }
    }
}
