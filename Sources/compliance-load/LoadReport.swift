/// What a load run measured, and whether every device ended where it should.
struct LoadReport: Sendable {
    let devices: Int
    let concurrency: Int
    /// How the devices were spread (" over 4 worker processes", " in 2 shards"), or "".
    let spread: String
    let setup: Duration
    let elapsed: Duration
    /// Per device, in device order.
    let results: [DeviceResult]
    let compliantAtMock: Int
    /// The run (or a shard of it) hit its time limit.
    let timedOut: Bool

    /// Devices whose flow never completed: not run, or failed with an error.
    var lost: Int { results.filter(\.lost).count }
    /// Devices whose flow completed but whose status or stored state is not the expected one.
    var wrong: Int { results.filter(\.wrong).count }
    var passed: Bool { results.count == devices && lost == 0 && wrong == 0 && compliantAtMock == devices && !timedOut }

    var text: String {
        let seconds = Self.seconds(elapsed)
        let latencies = results.compactMap(\.duration).map(Self.seconds).sorted()
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            return Self.format(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) + " s"
        }
        var lines = [
            "compliance-load: \(devices) devices (an engine, state directory and SQLite store each)\(spread), \(concurrency) flows in flight, one mockauth",
            "setup: \(devices) devices started in \(Self.format(Self.seconds(setup))) s",
            "flows: \(latencies.count) sign-ins (53005 → MAM token → enroll → policy → restart → report → token) in \(Self.format(seconds)) s = \(Self.format(Double(devices) / max(seconds, 0.001))) flows/s",
            "flow latency: p50 \(percentile(0.5)), p95 \(percentile(0.95)), max \(latencies.last.map { Self.format($0) + " s" } ?? "-")",
            "end states: \(results.filter { !$0.lost && !$0.wrong }.count) of \(devices) signed in, managed, enrolled and Compliant; compliant at the mock: \(compliantAtMock); lost \(lost), wrong \(wrong)",
        ]
        if timedOut { lines.append("  the run hit its time limit") }
        if results.count < devices { lines.append("  \(devices - results.count) devices reported nothing (a worker failed)") }
        for (index, result) in results.enumerated().filter({ $0.element.lost || $0.element.wrong }).prefix(10) {
            lines.append("  device \(index + 1): \(result.detail)")
        }
        lines.append(passed ? "PASS" : "FAIL")
        return lines.joined(separator: "\n")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded)
    }
}
