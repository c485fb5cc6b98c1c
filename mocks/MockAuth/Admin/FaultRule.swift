import JSON

/// An injected fault for the next `remaining` requests to a route.
///
/// `route` names an endpoint (see ``RouteName``): `token`, `authorize`, `devicecode`,
/// `openid-configuration`, `keys`, `instance-discovery`, `mam.enroll`, `mam.checkin`,
/// `mam.unenroll`, `mam.report-compliance`; `mam` matches every MAM route and `*` every
/// non-admin route.
public struct FaultRule: Sendable, Hashable {
    /// What happens after the optional delay.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Pass the request on (delay only), or answer `status` when set.
        case none
        /// Hold the request unanswered until it is released (``HeldRequests``), then go on as
        /// `none`; a request whose connection closed meanwhile ends unanswered.
        case hold
        /// Abort the TCP connection (RST).
        case reset
        /// Close the connection without answering.
        case close
        /// Answer a complete body that is not JSON.
        case malformed
        /// Answer `status` (default 500) with an empty body.
        case empty
        /// Announce a Content-Length, send half of it, close.
        case truncated
        /// Run the route, then serve its (JSON) answer as `text/html`.
        case wrongContentType
        /// Run the route, then pad its answer with white space to `bytes` (default 5 MiB,
        /// above HTTPClient's 4 MiB response cap): still valid JSON, only too big.
        case oversized
    }

    /// The size an `oversized` answer is padded to when the rule names none.
    public static let defaultOversizedBytes = 5 << 20

    public var id: Int
    public var route: String
    public var remaining: Int
    public var delayMilliseconds: Int
    public var status: Int?
    public var retryAfter: Int?
    public var action: Action
    /// The padded size of an `oversized` answer.
    public var bytes: Int?

    /// True when the rule applies to `routeName`.
    func matches(_ routeName: String) -> Bool {
        route == "*" || route == routeName || routeName.hasPrefix(route + ".")
    }

    /// Parses `{"route", "count"?, "delayMs"?, "status"?, "retryAfter"?, "action"?, "bytes"?}`.
    static func parse(_ body: JSONObject, id: Int) throws(AdminError) -> FaultRule {
        guard let route = body["route"]?.stringValue, !route.isEmpty else {
            throw .badRequest("'route' is required: one of \(RouteName.all.joined(separator: ", ")), 'mam' or '*'.")
        }
        guard route == "*" || route == "mam" || RouteName.all.contains(route) else {
            throw .badRequest("unknown route '\(route)'; known: \(RouteName.all.joined(separator: ", ")), 'mam', '*'.")
        }
        func integer(_ key: String, _ range: ClosedRange<Int64>) throws(AdminError) -> Int? {
            guard let value = body[key] else { return nil }
            guard let number = value.intValue, range.contains(number) else {
                throw .badRequest("'\(key)' must be an integer in \(range.lowerBound)...\(range.upperBound).")
            }
            return Int(number)
        }
        let actionName = body["action"]?.stringValue ?? "none"
        guard let action = Action(rawValue: actionName) else {
            throw .badRequest("'action' must be one of \(Action.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let rule = FaultRule(
            id: id, route: route,
            remaining: try integer("count", 1...1_000_000) ?? 1,
            delayMilliseconds: try integer("delayMs", 0...120_000) ?? 0,
            status: try integer("status", 200...599),
            retryAfter: try integer("retryAfter", 0...86_400),
            action: action,
            bytes: try integer("bytes", 1...(64 << 20)))
        if rule.action == .none, rule.status == nil, rule.delayMilliseconds == 0 {
            throw .badRequest("a fault needs at least one of 'delayMs', 'status' or an 'action'.")
        }
        // HTTP forbids a body in these answers: a client would read the body as the start of
        // the connection's next answer.
        if let status = rule.status, [204, 205, 304].contains(status), rule.action != .empty {
            throw .badRequest("'status' \(status) answers must have no body: use it with 'action': 'empty'.")
        }
        return rule
    }

    var json: JSONValue {
        [
            "id": .int(Int64(id)), "route": .string(route), "remaining": .int(Int64(remaining)),
            "delayMs": .int(Int64(delayMilliseconds)), "status": status.map { .int(Int64($0)) } ?? .null,
            "retryAfter": retryAfter.map { .int(Int64($0)) } ?? .null, "action": .string(action.rawValue),
            "bytes": bytes.map { .int(Int64($0)) } ?? .null,
        ]
    }
}

/// Names of the routes faults and the request log refer to.
public enum RouteName {
    public static let all = [
        "openid-configuration", "instance-discovery", "userrealm", "keys", "authorize", "token", "devicecode", "deviceauth", "logout",
        "mam.enroll", "mam.checkin", "mam.unenroll", "mam.report-compliance",
    ]

    /// The route name of a request path; `nil` for admin and unknown paths.
    public static func of(path: String) -> String? {
        let segments = path.split(separator: "/").map(String.init)
        if AdminRoutes.isAdmin(path: path) { return nil }
        if segments == ["common", "discovery", "instance"] { return "instance-discovery" }
        if segments.count == 3, segments[0] == "common", segments[1] == "userrealm" { return "userrealm" }
        if segments.count == 3, segments[0] == "mam", segments[1] == "v1", all.contains("mam." + segments[2]) {
            return "mam." + segments[2]
        }
        let tail = segments.dropFirst().joined(separator: "/")
        switch tail {
        case "v2.0/.well-known/openid-configuration": return "openid-configuration"
        case "discovery/v2.0/keys": return "keys"
        case "oauth2/v2.0/authorize": return "authorize"
        case "oauth2/v2.0/token": return "token"
        case "oauth2/v2.0/devicecode": return "devicecode"
        case "oauth2/v2.0/deviceauth": return "deviceauth"
        case "oauth2/v2.0/logout": return "logout"
        default: return nil
        }
    }
}
