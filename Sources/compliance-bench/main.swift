import Foundation

// compliance-bench: performance measurements, each against its floor measured in the same run.
// Usage: compliance-bench [http|issuance|remediation|silent-token|footprint|scaling|json]…
//        [--iterations N] [--rounds R] [--seconds S] [--connections C] [--starts N] [--accounts N]
// See BENCHMARKS.md beside this file.

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: compliance-bench [BENCHMARK…] [--iterations N] [--rounds R] [--seconds S] [--connections C] [--starts N] [--accounts N]
      benchmarks: http, issuance, remediation, silent-token, footprint, scaling, json (none named: all)
      Each prints its figures beside a floor measured in the same run; see Sources/compliance-bench/BENCHMARKS.md.
    """
let valueOptions: Set<String> = ["--iterations", "--rounds", "--seconds", "--connections", "--starts", "--accounts"]

/// Prints `message` on standard error and exits with 64 (usage error).
func refuse(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compliance-bench: \(message)\n".utf8))
    exit(64)
}

if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
/// One pass over the arguments: every option takes a positive whole number, anything not an
/// option names a benchmark; a bad option is refused before a benchmark runs.
func parse(_ arguments: [String]) -> (options: [String: Int], benchmarks: [String]) {
    var options: [String: Int] = [:]
    var benchmarks: [String] = []
    var position = 0
    while position < arguments.count {
        let argument = arguments[position]
        guard argument.hasPrefix("-") else {
            benchmarks.append(argument)
            position += 1
            continue
        }
        guard valueOptions.contains(argument) else {
            refuse("unknown option '\(argument)'\n\(usage)")
        }
        guard position + 1 < arguments.count, let number = Int(arguments[position + 1]), number > 0 else {
            refuse("\(argument) needs a positive whole number")
        }
        options[argument] = number
        position += 2
    }
    return (options, benchmarks)
}
let (optionValues, selected) = parse(arguments)

func option(_ name: String, default value: Int) -> Int {
    optionValues[name] ?? value
}

let known = ["http", "issuance", "remediation", "silent-token", "footprint", "scaling", "json"]
if let unknown = selected.first(where: { !known.contains($0) }) {
    refuse("unknown benchmark '\(unknown)'; known: \(known.joined(separator: ", "))\n\(usage)")
}
let toRun = selected.isEmpty ? known : selected

// A benchmark that fails is reported and the others still run; the exit status says so.
var failed: [String] = []
for name in toRun {
    do {
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
    } catch {
        FileHandle.standardError.write(Data("compliance-bench: \(name) failed: \(error)\n".utf8))
        failed.append(name)
    }
    print("")
    fflush(nil)  // figures reach a file or pipe as each benchmark ends
}
if !failed.isEmpty {
    FileHandle.standardError.write(Data("compliance-bench: failed: \(failed.joined(separator: ", "))\n".utf8))
    exit(1)
}
