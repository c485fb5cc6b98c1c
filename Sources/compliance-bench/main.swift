import Foundation

// compliance-bench: performance measurements, each against its floor measured in the same run.
// Usage: compliance-bench [http|issuance]… [--iterations N] [--rounds R] [--seconds S] [--connections C]

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]), number > 0 else {
        return value
    }
    return number
}

let known = ["http", "issuance"]
let selected = arguments.filter { !$0.hasPrefix("--") && Int($0) == nil }
if let unknown = selected.first(where: { !known.contains($0) }) {
    print("compliance-bench: unknown benchmark '\(unknown)'; known: \(known.joined(separator: ", "))")
    exit(64)
}
let toRun = selected.isEmpty ? known : selected

if toRun.contains("http") {
    try await HTTPBenchmark.run(iterations: option("--iterations", default: 2000), rounds: option("--rounds", default: 5))
}

if toRun.contains("issuance") {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    try await IssuanceBenchmark.run(
        seconds: option("--seconds", default: 5), connections: option("--connections", default: 8),
        fixturesPath: root.appendingPathComponent("mocks/fixtures/contoso.json").path)
}
