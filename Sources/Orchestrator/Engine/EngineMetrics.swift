import ComplianceCore
import CoreMetrics

/// What the engine counts and times, through swift-metrics (the daemon passes a factory that
/// records into its Prometheus registry; the default records nothing).
///
/// | metric | labels | from |
/// |---|---|---|
/// | `complianced_remediations_total` | `outcome` (compliant, notCompliant, …) | each remediation's one report |
/// | `complianced_enrollment_statuses_total` | `operation` (enrollment, policy, unenroll), `status` (code) | the MAM service's answers as the machine reports them |
/// | `complianced_wipes_started_total` | `reason` | each selective wipe begun |
/// | `complianced_wipes_total` | — | each selective wipe finished |
/// | `complianced_token_cache_total` | `result` (hit, miss) | each cache read: hit when it held a fresh access token |
/// | `complianced_issuer_request_duration_seconds` | `grant` | each grant sent to the token endpoint (an interactive one includes the person's time) |
/// | `complianced_mam_request_duration_seconds` | `request` (enroll, checkIn, unenroll, reportCompliance) | each MAM call |
///
/// Counts follow commits: an event counts once it is stored.
public struct EngineMetrics: Sendable {
    private let factory: any MetricsFactory
    /// Made once: a cache read is the silent token's hot path.
    private let cacheHits: Counter
    private let cacheMisses: Counter

    /// Records into `factory`; the default records nothing.
    public init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
        cacheHits = Counter(label: "complianced_token_cache_total", dimensions: [("result", "hit")], factory: factory)
        cacheMisses = Counter(label: "complianced_token_cache_total", dimensions: [("result", "miss")], factory: factory)
    }

    /// Counts what a committed event says.
    func committed(_ event: ComplianceEvent) {
        switch event {
        case .compliance(let report):
            // "Compliant(0)" → "Compliant"
            count("complianced_remediations_total", [("outcome", String("\(report.status)".prefix { $0 != "(" }))])
        case .enrollment(let report):
            count("complianced_enrollment_statuses_total", [("operation", "enrollment"), ("status", "\(report.status.rawValue)")])
        case .policy(let report):
            count("complianced_enrollment_statuses_total", [("operation", "policy"), ("status", "\(report.status.rawValue)")])
        case .unenroll(let report):
            count("complianced_enrollment_statuses_total", [("operation", "unenroll"), ("status", "\(report.status.rawValue)")])
        case .wipeStarted(_, let reason):
            count("complianced_wipes_started_total", [("reason", reason.rawValue)])
        case .wipeFinished:
            count("complianced_wipes_total", [])
        default:
            break
        }
    }

    /// A token-cache read: `hit` when it holds an access token fresh at `now`.
    func cacheRead(_ entry: TokenAcquisitionStateMachine.CacheEntry, now: Instant) {
        let hit = entry.accessToken.map { TokenAcquisitionStateMachine.isFresh($0, at: now) } ?? false
        (hit ? cacheHits : cacheMisses).increment()
    }

    /// How long one grant at the token endpoint took.
    func issuerRequest(grant: String, took duration: Duration) {
        Timer(label: "complianced_issuer_request_duration_seconds", dimensions: [("grant", grant)], factory: factory).recordNanoseconds(Self.nanoseconds(duration))
    }

    /// How long one MAM call took.
    func mamRequest(_ request: String, took duration: Duration) {
        Timer(label: "complianced_mam_request_duration_seconds", dimensions: [("request", request)], factory: factory).recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The `request` label of a MAM call.
    static func name(of request: ComplianceMachine.MAMRequest) -> String {
        switch request {
        case .enroll: "enroll"
        case .checkIn: "checkIn"
        case .unenroll: "unenroll"
        case .reportCompliance: "reportCompliance"
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private func count(_ label: String, _ dimensions: [(String, String)]) {
        Counter(label: label, dimensions: dimensions, factory: factory).increment()
    }
}
