import Flows
import Foundation

/// `run --junit FILE`: the flows' results as JUnit XML, the shape GitLab
/// (`artifacts:reports:junit`), Jenkins and GitHub's test reporters read.
///
/// One `<testsuites>` holding one `<testsuite name="compliancectl run">` (`tests`, `failures`,
/// `errors`, `skipped`, `time` in seconds, `timestamp`), and one `<testcase>` per flow:
/// `classname` from the flow's file (its path without `.json`, `/` as `.`, which GitLab shows as
/// the suite), `name` the flow's name, `file`, `time`. A failed flow has `<failure>` (message:
/// the step and its first difference; text: the step, each expected-and-got, the daemon's last
/// events and log, as the run prints them); a flow that could not run has `<error>`. Each
/// testcase's `<system-out>` lists its steps.
enum JUnitReport {
    static func xml(_ results: [FlowResult], started: Date, seconds: Double) -> String {
        let failures = results.filter { $0.setupError == nil && !$0.passed }.count
        let errors = results.filter { $0.setupError != nil }.count
        return document(tests: results.count, failures: failures, errors: errors, seconds: seconds, started: started, results.flatMap(testcase))
    }

    /// The `<testsuites>`/`<testsuite>` document around `testcases` (their lines).
    static func document(tests: Int, failures: Int, errors: Int, seconds: Double, started: Date, _ testcases: [String]) -> String {
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\""
        let lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"compliancectl run\" \(counts) time=\"\(Self.time(seconds))\">",
            "  <testsuite name=\"compliancectl run\" \(counts) skipped=\"0\" time=\"\(Self.time(seconds))\" timestamp=\"\(Self.timestamp(started))\">",
        ] + testcases + ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }

    /// The report of a run that stopped before any flow ran because flow files are invalid
    /// (exit 65): one testcase per invalid file with `<error type="invalid flow">`, so that a CI
    /// reporter shows the run as failed (never an old report, nor none). An empty list (no flow
    /// files were found) is one error testcase for the paths.
    static func invalid(_ errors: [FlowError], paths: [String], started: Date) -> String {
        let cases: [(file: String, message: String)] = errors.isEmpty
            ? [(paths.joined(separator: " "), "no flow files were found in \(paths.joined(separator: " "))")]
            : errors.map { ($0.file, $0.description) }
        let testcases = cases.flatMap { file, message in
            [
                "    <testcase classname=\"\(attribute(classname(file)))\" name=\"\(attribute((file as NSString).lastPathComponent))\" "
                    + "file=\"\(attribute(file))\" time=\"0.000\">",
                "      <error message=\"\(attribute(message))\" type=\"invalid flow\">\(text(message))</error>",
                "    </testcase>",
            ]
        }
        return document(tests: cases.count, failures: 0, errors: cases.count, seconds: 0, started: started, testcases)
    }

    static func testcase(_ result: FlowResult) -> [String] {
        let head = "    <testcase classname=\"\(attribute(classname(result.file)))\" name=\"\(attribute(result.name))\" "
            + "file=\"\(attribute(result.file))\" time=\"\(time(Double(result.milliseconds) / 1000))\">"
        var lines = [head]
        let story = RunPrinter.failure(result).dropLast().joined(separator: "\n")  // the run's own account, less its blank line
        if let error = result.setupError {
            lines.append("      <error message=\"\(attribute(error))\" type=\"setup\">\(text(story))</error>")
        } else if !result.passed {
            let step = result.failedStep
            let message = step.map { "step \($0.index): \($0.summary): \($0.mismatches.first ?? $0.detail)" } ?? "no steps ran"
            lines.append("      <failure message=\"\(attribute(message))\" type=\"step failed\">\(text(story))</failure>")
        }
        let steps = result.steps.map { step in
            "\(step.index) \(step.outcome == .passed ? "ok  " : step.outcome == .failed ? "FAIL" : "skip") \(step.summary) — \(step.detail) (\(step.milliseconds) ms)"
        }
        if !steps.isEmpty { lines.append("      <system-out>\(text(steps.joined(separator: "\n")))</system-out>") }
        lines.append("    </testcase>")
        return lines
    }

    /// `flows/seed-x.json` → `flows.seed-x`, relative to the working directory when inside it.
    static func classname(_ file: String) -> String {
        var path = file
        let here = FileManager.default.currentDirectoryPath + "/"
        if path.hasPrefix(here) { path.removeFirst(here.count) }
        while path.hasPrefix("./") { path.removeFirst(2) }
        if path.hasPrefix("/") { path.removeFirst() }
        if path.hasSuffix(".json") { path.removeLast(5) }
        return path.replacingOccurrences(of: "/", with: ".")
    }

    static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Element text: `&`, `<`, `>` escaped; characters XML 1.0 cannot hold dropped.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars where allowed(scalar) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An attribute value (in double quotes): also `"` and line breaks and tabs escaped, so a
    /// parser gives them back as they were.
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;")
            .replacingOccurrences(of: "\r", with: "&#13;").replacingOccurrences(of: "\t", with: "&#9;")
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
