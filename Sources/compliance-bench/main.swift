import Foundation

// compliance-bench: performance measurements, each against its floor measured in the same run.
// Usage: compliance-bench [http|issuance|remediation|silent-token|footprint|scaling|json]…
//        [--iterations N] [--rounds R] [--seconds S] [--connections C] [--starts N] [--accounts N]
// See BENCHMARKS.md beside this file.

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]), number > 0 else {
        return value
    }
    return number
}

let known = ["http", "issuance", "remediation", "silent-token", "footprint", "scaling", "json"]
let selected = arguments.filter { !$0.hasPrefix("--") && Int($0) == nil }
if let unknown = selected.first(where: { !known.contains($0) }) {
    print("compliance-bench: unknown benchmark '\(unknown)'; known: \(known.joined(separator: ", "))")
    exit(64)
}
let toRun = selected.isEmpty ? known : selected

for name in toRun {
    switch name {
    case "http":
        try await HTTPBenchmark.run(iterations: option("--iterations", default: 2000), rounds: option("--rounds", default: 5))
    case "issuance":
        try await IssuanceBenchmark.run(
            seconds: option("--seconds", default: 6), connections: option("--connections", default: 8), rounds: option("--rounds", default: 3))
    case "remediation":
        try await RemediationBenchmark.run(iterations: option("--iterations", default: 100), rounds: option("--rounds", default: 5))
    case "silent-token":
        try await SilentTokenBenchmark.run(iterations: option("--iterations", default: 1000), rounds: option("--rounds", default: 5))
    case "footprint":
        try await FootprintBenchmark.run(starts: option("--starts", default: 5), accounts: option("--accounts", default: 10_000))
    case "scaling":
        let largest = option("--accounts", default: 10_000)
        try await ScalingBenchmark.run(sizes: [largest / 100, largest / 10, largest].filter { $0 > 0 })
    case "json":
        try JSONBenchmark.run(iterations: option("--iterations", default: 20_000), rounds: option("--rounds", default: 5))
    default:
        break
    }
    print("")
}
