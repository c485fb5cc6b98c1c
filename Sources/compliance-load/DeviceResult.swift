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
        detail = "\(outcome.map(Self.describe) ?? "never ran"); state \(state)"
    }

    /// How a flow that ran ended, in words: its error, or its status, and when it got no
    /// 53005 to remediate, why that is wrong here.
    private static func describe(_ outcome: LoadDevice.FlowOutcome) -> String {
        if let error = outcome.error { return error }
        let status = outcome.status.map { "status \($0)" } ?? "no status"
        guard outcome.remediated else {
            return "\(status) without a remediation: the mock answered no 53005, so it already held this user's enrollment or compliance (a mock used by an earlier run: run compliance-load prepare again, or use a fresh mock)"
        }
        return outcome.signedIn ? status : "\(status), not signed in"
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

    /// Reads one device's result; the error says which field is wrong.
    init(json: JSONValue) throws(LoadError) {
        guard json.objectValue != nil else { throw LoadError("not a device's result (an object)") }
        guard let outcomeExpected = json["outcomeExpected"]?.boolValue else { throw LoadError("outcomeExpected must be true or false") }
        guard let stateExpected = json["stateExpected"]?.boolValue else { throw LoadError("stateExpected must be true or false") }
        switch json["nanoseconds"] ?? .null {
        case .null: duration = nil
        case let value:
            guard let number = value.intValue, (0...ShardResult.maxNanoseconds).contains(number) else {
                throw LoadError("nanoseconds must be null (never ran) or a whole number 0…\(ShardResult.maxNanoseconds), found \(value.encodedString().prefix(40))")
            }
            duration = .nanoseconds(number)
        }
        switch json["error"] ?? .null {
        case .null: error = nil
        case let value:
            guard let text = value.stringValue else { throw LoadError("error must be null or a string") }
            error = text
        }
        guard let detail = (json["detail"] ?? .string("")).stringValue else { throw LoadError("detail must be a string") }
        self.outcomeExpected = outcomeExpected
        self.stateExpected = stateExpected
        self.detail = detail
    }
}
