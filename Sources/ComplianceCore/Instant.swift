/// A point in time as milliseconds since the Unix epoch.
///
/// ComplianceCore never reads a clock: every event that depends on time takes an
/// `Instant` from the caller, so tests and replays are deterministic.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var millisecondsSinceEpoch: Int64

    /// The instant `millisecondsSinceEpoch` after the epoch.
    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// The instant `seconds` after the epoch.
    public static func seconds(_ seconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: seconds * 1000)
    }

    /// This instant moved by `span` (saturating at the ends of `Int64`).
    public func advanced(by span: TimeSpan) -> Instant {
        let (sum, overflow) = millisecondsSinceEpoch.addingReportingOverflow(span.milliseconds)
        if overflow { return Instant(millisecondsSinceEpoch: span.milliseconds > 0 ? .max : .min) }
        return Instant(millisecondsSinceEpoch: sum)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public var description: String { "@\(millisecondsSinceEpoch)ms" }
}

/// A length of time in milliseconds.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func seconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 1000) }
    public static func minutes(_ value: Int64) -> TimeSpan { .seconds(value * 60) }
    public static func hours(_ value: Int64) -> TimeSpan { .minutes(value * 60) }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public var description: String { "\(milliseconds)ms" }
}
