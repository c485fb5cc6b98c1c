/// What a load run measured, and whether every device ended where it should.
struct LoadReport: Sendable {
    let devices: Int
    let concurrency: Int
    let setup: Duration
    let elapsed: Duration
    /// Per device; nil when its flow never ran (the time limit passed first).
    let outcomes: [LoadDevice.FlowOutcome?]
    let states: [LoadDevice.State]
    let compliantAtMock: Int
    let timeLimit: Duration

    /// Devices whose flow never completed: not run, or failed with an error.
    var lost: Int { outcomes.filter { $0 == nil || $0?.error != nil }.count }
    /// Devices whose flow completed but whose status or stored state is not the expected one.
    var wrong: Int {
        zip(outcomes, states).filter { outcome, state in
            guard let outcome, outcome.error == nil else { return false }
            return outcome.status != .compliant || !outcome.signedIn || !outcome.remediated || !state.isExpected
        }.count
    }
    var passed: Bool { lost == 0 && wrong == 0 && compliantAtMock == devices && elapsed < timeLimit }

    var text: String {
        let seconds = Self.seconds(elapsed)
        let latencies = outcomes.compactMap { $0?.duration }.map(Self.seconds).sorted()
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            return Self.format(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) + " s"
        }
        var lines = [
            "compliance-load: \(devices) devices (an engine, state directory and SQLite store each), \(concurrency) flows in flight, one in-process mockauth",
            "setup: \(devices) devices started in \(Self.format(Self.seconds(setup))) s",
            "flows: \(outcomes.compactMap { $0 }.count) sign-ins (53005 → MAM token → enroll → policy → restart → report → token) in \(Self.format(seconds)) s = \(Self.format(Double(devices) / max(seconds, 0.001))) flows/s",
            "flow latency: p50 \(percentile(0.5)), p95 \(percentile(0.95)), max \(latencies.last.map { Self.format($0) + " s" } ?? "-")",
            "end states: \(states.filter(\.isExpected).count) of \(devices) signed in, managed, enrolled and Compliant; compliant at the mock: \(compliantAtMock); lost \(lost), wrong \(wrong)",
        ]
        let failures = zip(outcomes, states).enumerated().filter { _, pair in pair.0?.error != nil || pair.0 == nil || !pair.1.isExpected }
        for (index, (outcome, state)) in failures.prefix(10) {
            lines.append("  device \(index + 1): \(outcome.map { $0.error ?? "status \(String(describing: $0.status))" } ?? "never ran"); state \(state)")
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
