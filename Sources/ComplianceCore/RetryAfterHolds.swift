/// `Retry-After` honoured the way MSAL does it: after a service answers 429 or 5xx with
/// `Retry-After`, requests to that service fail at once, without being sent, until the time
/// has passed (at most ``maximum``). Memory only, like MSAL's throttling cache: a restart
/// forgets it. Each issuer and each MAM service is held on its own (an authority override's
/// issuer is not held by the first one's answer).
///
/// The composed machine keeps one (``ComplianceMachine``): it records holds from the results it
/// is fed and answers a held request itself instead of asking for it.
public struct RetryAfterHolds: Sendable, Hashable, Codable {
    /// A service the machine talks to, in the environment whose tokens it is sent with.
    public enum Service: Sendable, Hashable, Codable {
        case issuer(TokenEnvironment)
        case mam(TokenEnvironment)
    }

    /// A service's request to wait: the failing status and how long (`Retry-After`).
    public struct Request: Sendable, Hashable, Codable {
        public var status: Int
        public var wait: TimeSpan

        public init(status: Int, wait: TimeSpan) {
            self.status = status
            self.wait = wait
        }
    }

    /// Longer waits are cut to this (MSAL caps its throttling at one hour).
    public static let maximum = TimeSpan.hours(1)

    /// A service's `Retry-After` of `seconds` as a wait, cut to ``maximum``: the number comes
    /// from the service, and one too big for a ``TimeSpan`` in milliseconds (past about 2^53
    /// seconds) must not stop the daemon; nil for a negative number (no wait).
    public static func wait(seconds: Int) -> TimeSpan? {
        guard seconds >= 0 else { return nil }
        return Int64(seconds) >= maximum.milliseconds / 1000 ? maximum : .seconds(Int64(seconds))
    }

    private var holds: [Service: Hold] = [:]

    private struct Hold: Sendable, Hashable, Codable {
        var until: Instant
        var status: Int
    }

    public init() {}

    /// True when nothing is held.
    public var isEmpty: Bool { holds.isEmpty }

    /// Records a failing answer that asked to wait; a wait of zero or less holds nothing.
    public mutating func failed(_ service: Service, _ request: Request, now: Instant) {
        guard request.wait.milliseconds > 0 else { return }
        holds[service] = Hold(until: now.advanced(by: min(request.wait, Self.maximum)), status: request.status)
    }

    /// The time left before `service` may be asked again, and the status that asked to wait;
    /// nil when requests may go out (a hold that has passed is forgotten).
    public mutating func hold(_ service: Service, now: Instant) -> Request? {
        guard let hold = holds[service] else { return nil }
        guard now < hold.until else {
            holds[service] = nil
            return nil
        }
        return Request(status: hold.status, wait: TimeSpan(milliseconds: hold.until.millisecondsSinceEpoch - now.millisecondsSinceEpoch))
    }
}
