import Flows
import Foundation
import JSON
import Synchronization

/// Prints `run`'s progress (one line per step, prefixed by the flow when several run at
/// once), the summary table, and for each failed flow the expected-vs-actual lines and the
/// daemon's last events; or, with --json, only the final report.
final class RunPrinter: Sendable {
    private let json: Bool
    private let verbose: Bool
    private let lock = Mutex(())

    init(json: Bool, verbose: Bool) {
        self.json = json
        self.verbose = verbose
    }

    func show(_ progress: FlowProgress) {
        guard !json else { return }
        switch progress {
        case .flowStarted(let name, let description, let steps):
            emit("▶ \(name) (\(steps) steps)" + (verbose && !description.isEmpty ? "\n  \(description)" : ""))
        case .stepFinished(let flow, let total, let step):
            let mark = step.outcome == .passed ? "ok  " : "FAIL"
            var line = "  [\(flow)] \(step.index)/\(total) \(mark) \(step.summary) — \(step.detail)"
            if verbose, let note = step.note { line = "  [\(flow)] \(step.index)/\(total) # \(note)\n" + line }
            line += " (\(step.milliseconds) ms)"
            emit(([line] + step.mismatches.map { "        \($0)" }).joined(separator: "\n"))
        case .flowFinished(let result):
            if let error = result.setupError { emit("  [\(result.name)] ERROR \(error)") }
            if let kept = result.keptStateDirectory {
                emit("  [\(result.name)] state kept in \(kept) (its daemon's store, vault and control.sock; remove it when done)")
            }
            for story in result.stories {
                let verdict = story.diagnoses.isEmpty ? "no known loop" : story.diagnoses.map(\.message).joined(separator: "; ")
                emit("  [\(result.name)] explain \(story.account) (ends \(story.ending ?? "-")): \(verdict)")
            }
            emit("\(result.passed ? "✔" : "✘") \(result.name) \(result.passed ? "passed" : "FAILED") in \(Self.seconds(result.milliseconds))")
        }
    }

    func finish(_ results: [FlowResult]) {
        let passed = results.filter(\.passed).count
        if json {
            print(JSONValue.object([
                "flows": .array(results.map(\.json)), "passed": .int(Int64(passed)), "failed": .int(Int64(results.count - passed)),
            ]).encodedString())
            return
        }
        var table = TextTable(["FLOW", "RESULT", "STEPS", "DURATION", "FILE"])
        for result in results {
            let done = result.steps.filter { $0.outcome == .passed }.count
            table.add([result.name, result.passed ? "passed" : (result.setupError != nil ? "ERROR" : "FAILED"), "\(done)/\(result.steps.count)", Self.seconds(result.milliseconds), result.file])
        }
        var lines = ["", table.rendered, ""]
        for result in results where !result.passed { lines += Self.failure(result) }
        lines.append("\(passed) of \(results.count) flows passed")
        emit(lines.joined(separator: "\n"))
    }

    /// The story of a failed flow: the step, each difference, the last events, the daemon log.
    static func failure(_ result: FlowResult) -> [String] {
        var lines: [String] = []
        if let error = result.setupError {
            lines.append("ERROR \(result.name) (\(result.file)): \(error)")
        } else if let step = result.failedStep {
            lines.append("FAILED \(result.name) (\(result.file)), step \(step.index): \(step.summary)")
            lines.append("  \(step.detail)")
            lines += step.mismatches.map { "  - \($0)" }
        }
        if !result.lastEvents.isEmpty {
            lines.append("  last events:")
            lines += result.lastEvents.map { "    \(Describe.event($0))" }
        }
        if !result.daemonLog.isEmpty {
            lines.append("  daemon log:")
            lines += result.daemonLog.map { "    \($0)" }
        }
        return lines + [""]
    }

    static func seconds(_ milliseconds: Int64) -> String {
        String(format: "%.2f s", Double(milliseconds) / 1000)
    }

    private func emit(_ text: String) {
        lock.withLock { _ in
            Terminal.say(text)
            fflush(nil)  // nil: every stream (stdout itself is not concurrency-safe to name)
        }
    }
}
