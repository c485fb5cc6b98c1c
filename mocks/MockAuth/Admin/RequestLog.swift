import Foundation
import JSON

/// One line of the request log. Holds no secrets: path without query, grant type, user.
public struct RequestLogEntry: Sendable, Hashable {
    public var time: Date
    public var method: String
    public var path: String
    public var route: String?
    /// The answer's status; nil when a fault broke the connection instead (`reset`, `close`).
    public var status: Int?
    public var grantType: String?
    public var user: String?
    /// The injected fault that shaped the answer, if any.
    public var fault: String?

    /// `path` with every segment that looks like a secret replaced by `[redacted]`: a client
    /// may put a token or a code in a path (a wrong URL), and the log never keeps secrets.
    /// Taken for one: a JWT (`eyJ…`), one of the mock's codes and tokens (`mock-…`), and any
    /// segment of 64 characters or more. Tenant ids, domains and UPNs stay.
    static func redacted(path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // Nearly every path has no such segment: it is returned as it is, without a copy.
        guard segments.contains(where: isSecret) else { return path }
        return segments.map { isSecret($0) ? "[redacted]" : String($0) }.joined(separator: "/")
    }

    /// A segment has at least as many UTF-8 bytes as characters, so the byte count rules out
    /// short segments before the characters are counted.
    private static func isSecret(_ segment: Substring) -> Bool {
        let bytes = segment.utf8.count
        if bytes >= 64, segment.count >= 64 { return true }
        return bytes >= 16 && (segment.hasPrefix("eyJ") || segment.hasPrefix("mock-")) && segment.count >= 16
    }

    var json: JSONValue {
        [
            "time": .string(ISO8601DateFormatter().string(from: time)),
            "method": .string(method), "path": .string(path),
            "route": route.map { .string($0) } ?? .null,
            "status": status.map { .int(Int64($0)) } ?? .null,
            "grantType": grantType.map { .string($0) } ?? .null,
            "user": user.map { .string($0) } ?? .null,
            "fault": fault.map { .string($0) } ?? .null,
        ]
    }
}

extension MockState {
    /// Appends a line stamped with the mock's time, dropping the oldest beyond the limit (a
    /// ring buffer: O(1) per request once the log is full). `path` is already
    /// ``RequestLogEntry/redacted(path:)``.
    func appendLog(
        method: String, path: String, route: String?, status: Int?, grantType: String?, user: String?, fault: String?
    ) {
        let limit = requestLogLimit
        locked { state in
            if state.requestLog.count >= limit { state.requestLog.removeFirst() }
            state.requestLog.append(RequestLogEntry(
                time: state.now(), method: method, path: path, route: route, status: status, grantType: grantType, user: user,
                fault: fault))
        }
    }

    /// The request log, oldest first.
    public func requestLogEntries() -> [RequestLogEntry] { locked { Array($0.requestLog) } }

    /// Empties the request log.
    public func clearRequestLog() { locked { $0.requestLog.removeAll() } }

    func addFault(_ body: JSONObject) throws(AdminError) -> FaultRule {
        try locked { (state: inout Storage) throws(AdminError) -> FaultRule in
            let rule = try FaultRule.parse(body, id: (state.faults.map(\.id).max() ?? 0) + 1)
            state.faults.append(rule)
            faultsArmed.store(true, ordering: .relaxed)
            return rule
        }
    }

    /// Takes one use of the first fault matching `route`; drops it when used up.
    func takeFault(route: String) -> FaultRule? {
        locked { state in
            guard let index = state.faults.firstIndex(where: { $0.matches(route) }) else { return nil }
            let rule = state.faults[index]
            state.faults[index].remaining -= 1
            if state.faults[index].remaining <= 0 { state.faults.remove(at: index) }
            faultsArmed.store(!state.faults.isEmpty, ordering: .relaxed)
            return rule
        }
    }

    /// Faults still waiting to fire, in the order they match.
    public func faultRules() -> [FaultRule] { locked { $0.faults } }

    /// Removes every pending fault and releases the requests a `hold` fault holds.
    public func clearFaults() {
        locked { state in
            state.faults = []
            faultsArmed.store(false, ordering: .relaxed)
        }
        held.releaseAll()
    }

    /// False when no fault is armed: requests then skip the lock.
    var hasPendingFaults: Bool { faultsArmed.load(ordering: .relaxed) }
}
