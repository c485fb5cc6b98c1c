import JSON

/// How one device's run ended, as the report needs it; a worker process sends these to the
/// parent as JSON (one object a device).
struct DeviceResult: Sendable {
    /// The flow's duration; nil when it never ran (the time limit passed first).
    var duration: Duration?
    /// Why the flow failed (an engine error); nil when it completed.
    var error: String?
    /// The flow completed Compliant, signed in and remediated.
    var outcomeExpected: Bool
    /// The store says signed in, managed, enrolled and Compliant, and is sound.
    var stateExpected: Bool
    /// What went wrong, for the report's first lines of failures.
    var detail: String

    init(outcome: LoadDevice.FlowOutcome?, state: LoadDevice.State) {
        duration = outcome?.duration
        error = outcome?.error
        outcomeExpected = outcome.map { $0.error == nil && $0.status == .compliant && $0.signedIn && $0.remediated } ?? false
        stateExpected = state.isExpected
        detail = "\(outcome.map { $0.error ?? "status \(String(describing: $0.status))" } ?? "never ran"); state \(state)"
    }

    /// A device whose worker reported nothing.
    static let missing = DeviceResult(duration: nil, error: "its worker process reported nothing", outcomeExpected: false, stateExpected: false, detail: "its worker process reported nothing")

    private init(duration: Duration?, error: String?, outcomeExpected: Bool, stateExpected: Bool, detail: String) {
        self.duration = duration
        self.error = error
        self.outcomeExpected = outcomeExpected
        self.stateExpected = stateExpected
        self.detail = detail
    }

    /// Never ran, or failed with an error.
    var lost: Bool { duration == nil || error != nil }
    /// Completed, but not with the expected status or stored state.
    var wrong: Bool { !lost && !(outcomeExpected && stateExpected) }

    var json: JSONValue {
        [
            "nanoseconds": duration.map { .int(Self.nanoseconds($0)) } ?? .null,
            "error": error.map { .string($0) } ?? .null,
            "outcomeExpected": .bool(outcomeExpected), "stateExpected": .bool(stateExpected), "detail": .string(detail),
        ]
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    init?(json: JSONValue) {
        guard let outcomeExpected = json["outcomeExpected"]?.boolValue, let stateExpected = json["stateExpected"]?.boolValue else { return nil }
        duration = json["nanoseconds"]?.intValue.map { .nanoseconds($0) }
        error = json["error"]?.stringValue
        self.outcomeExpected = outcomeExpected
        self.stateExpected = stateExpected
        detail = json["detail"]?.stringValue ?? ""
    }
}
