import CoreMetrics
import ProgramSupport

/// What mockauth counts, served at `GET /metrics` (Prometheus text format) through
/// swift-metrics into a registry of this mock's own (two mocks in one process count apart;
/// listeners sharing one ``MockState`` share its counts). Counters only grow: an admin reset
/// does not zero them.
///
/// | metric | labels |
/// |---|---|
/// | `mockauth_tokens_issued_total` | `grant` (authorization_code, refresh_token, password, client_credentials, device_code) |
/// | `mockauth_errors_total` | `endpoint` (token, devicecode), `error` (OAuth error code), `aadsts` (the AADSTS number, or `none`) |
/// | `mockauth_ca_blocks_total` | `aadsts` (53005 remediable with `protapp`, 53009 without) |
/// | `mockauth_mam_requests_total` | `route` (enroll, checkin, unenroll, report-compliance), `http_status`, `mam_status` (the body's status code, or `none`) |
/// | `mockauth_faults_fired_total` | `route`, `action` |
public struct MockMetrics: Sendable {
    /// The registry `GET /metrics` prints.
    public let program = ProgramMetrics()

    public init() {}

    func tokenIssued(grant: String) {
        let name = grant == Issuer.deviceCodeGrantType ? "device_code" : grant
        count("mockauth_tokens_issued_total", [("grant", name)])
    }

    func error(_ error: OAuthError, endpoint: String) {
        count("mockauth_errors_total", [("endpoint", endpoint), ("error", error.error), ("aadsts", error.aadsts.map(String.init) ?? "none")])
    }

    func conditionalAccessBlocked(aadsts: Int?) {
        count("mockauth_ca_blocks_total", [("aadsts", aadsts.map(String.init) ?? "none")])
    }

    func mamRequest(route: String, httpStatus: Int, mamStatus: Int64?) {
        count("mockauth_mam_requests_total", [("route", route), ("http_status", String(httpStatus)), ("mam_status", mamStatus.map(String.init) ?? "none")])
    }

    func faultFired(route: String, action: String) {
        count("mockauth_faults_fired_total", [("route", route), ("action", action)])
    }

    private func count(_ label: String, _ dimensions: [(String, String)]) {
        Counter(label: label, dimensions: dimensions, factory: program.factory).increment()
    }
}
