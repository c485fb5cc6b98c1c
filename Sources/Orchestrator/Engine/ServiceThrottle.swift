import ComplianceCore

/// `Retry-After` honoured the way MSAL does it: after a service answers 429 or 5xx with
/// `Retry-After`, requests to that service fail at once, without being sent, until the time
/// has passed (at most ``maximum``). Memory only, like MSAL's throttling cache: a restart
/// forgets it.
struct ServiceThrottle: Sendable {
    /// The services the engine talks to.
    enum Service: String, Sendable, Hashable {
        case issuer, mam
    }

    /// Longer waits are cut to this (MSAL caps its throttling at one hour).
    static let maximum = TimeSpan.hours(1)

    private var holds: [Service: (until: Instant, status: Int)] = [:]

    /// Records a failing answer; without `retryAfter` nothing is held.
    mutating func failed(_ service: Service, status: Int, retryAfter: TimeSpan?, now: Instant) {
        guard let retryAfter, retryAfter.milliseconds > 0 else { return }
        let wait = min(retryAfter, Self.maximum)
        holds[service] = (now.advanced(by: wait), status)
    }

    /// The time left before `service` may be asked again, and the status that asked to wait;
    /// nil when requests may go out.
    func hold(_ service: Service, now: Instant) -> (remaining: TimeSpan, status: Int)? {
        guard let hold = holds[service], now < hold.until else { return nil }
        let remaining = TimeSpan(milliseconds: hold.until.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
        return (remaining, hold.status)
    }
}
