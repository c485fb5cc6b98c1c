import ControlClient
import JSON

/// How one step went.
public struct StepResult: Sendable {
    public enum Outcome: Sendable, Hashable {
        case passed
        case failed
        /// Not run: an earlier step failed.
        case skipped
    }

    public var index: Int
    public var summary: String
    /// The step's `note` from the flow file.
    public var note: String?
    public var outcome: Outcome
    /// What happened, in a line or two ("Compliant (0), signed in", "daemon stopped at …").
    public var detail: String
    /// For a failed step: each difference, `field: expected X, got Y`.
    public var mismatches: [String] = []
    /// An admin step's answer, whole (the progress line shows it briefly).
    public var answer: JSONValue?
    public var milliseconds: Int64

    public var json: JSONValue {
        var object: JSONObject = [
            "index": .int(Int64(index)), "step": .string(summary), "result": .string("\(outcome)"), "detail": .string(detail),
            "durationMs": .int(milliseconds),
        ]
        if !mismatches.isEmpty { object["mismatches"] = .array(mismatches.map { .string($0) }) }
        if let answer { object["answer"] = answer }
        return .object(object)
    }
}

/// How one flow went.
public struct FlowResult: Sendable {
    public var name: String
    public var file: String
    public var steps: [StepResult] = []
    /// Why the flow could not run at all (servers did not start, …).
    public var setupError: String?
    /// The daemon's last events when the flow failed.
    public var lastEvents: [JSONValue] = []
    /// The daemon's last log lines when it died or failed to start.
    public var daemonLog: [String] = []
    public var milliseconds: Int64 = 0
    /// With ``RunOptions/keepState``: where the flow's daemon state was kept (none when the
    /// flow started no daemon, or used one given by `--socket`).
    public var keptStateDirectory: String?
    /// With ``RunOptions/explain``: each account's compliance story as the flow left it.
    public var stories: [ComplianceStory] = []

    public init(name: String, file: String) {
        self.name = name
        self.file = file
    }

    public var passed: Bool { setupError == nil && !steps.isEmpty && steps.allSatisfy { $0.outcome == .passed } }

    /// The first failed step.
    public var failedStep: StepResult? { steps.first { $0.outcome == .failed } }

    public var json: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "file": .string(file), "result": .string(passed ? "passed" : "failed"), "durationMs": .int(milliseconds),
            "steps": .array(steps.map(\.json)),
        ]
        if let setupError { object["error"] = .string(setupError) }
        if let keptStateDirectory { object["stateDirectory"] = .string(keptStateDirectory) }
        if !lastEvents.isEmpty { object["lastEvents"] = .array(lastEvents) }
        if !daemonLog.isEmpty { object["daemonLog"] = .array(daemonLog.map { .string($0) }) }
        if !stories.isEmpty {
            object["explain"] = .array(stories.map { story in
                .object([
                    "account": .string(story.account), "ending": story.ending.map { .string($0) } ?? .null,
                    "diagnoses": story.json["diagnoses"] ?? [],
                ])
            })
        }
        return .object(object)
    }
}

/// What a runner reports while it works (the CLI prints it as progress).
public enum FlowProgress: Sendable {
    case flowStarted(name: String, description: String, steps: Int)
    case stepFinished(flow: String, total: Int, StepResult)
    case flowFinished(FlowResult)
}
