import ComplianceCore

/// Names that check patterns may use. A pattern naming an event kind or a request route that
/// cannot occur would make an `absent` or counted check pass without checking anything, so
/// such a flow is refused when it is read (65).
enum KnownNames {
    /// The event kinds the daemon writes (Sources/complianced/README.md, the events table; a
    /// test keeps the two equal).
    static let eventKinds: Set<String> = Set(ComplianceEvent.Kind.allCases.map(\.rawValue))

    /// The route names of mockauth's request log (mocks/README.md; a test keeps them equal to
    /// MockAuth's `RouteName.all`).
    static let requestRoutes: Set<String> = [
        "openid-configuration", "instance-discovery", "userrealm", "keys", "authorize", "token", "devicecode", "deviceauth", "logout",
        "mam.enroll", "mam.checkin", "mam.unenroll", "mam.report-compliance",
    ]
}
