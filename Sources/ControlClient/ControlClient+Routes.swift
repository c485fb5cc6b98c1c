import HTTPClient
import JSON

/// The control API's routes as calls (bodies and answers as in Sources/complianced/README.md).
extension ControlClient {
    /// How an interactive step is answered when the issuer shows its sign-in page.
    public enum User: Sendable, Hashable {
        /// The daemon fills the sign-in page as the request's account with this password.
        case signIn(password: String)
        /// Presses cancel.
        case cancel
        /// The resource owner password grant (test issuers).
        case passwordGrant(password: String)
        /// A person signs in in a browser (interaction from ``openInteraction(_:)``).
        case browser(interaction: String, timeoutSeconds: Int?)
        /// A person signs in on another device with a code.
        case deviceCode(interaction: String)

        var json: JSONValue {
            switch self {
            case .signIn(let password): ["action": "signIn", "password": .string(password)]
            case .cancel: ["action": "cancel"]
            case .passwordGrant(let password): ["action": "passwordGrant", "password": .string(password)]
            case .browser(let id, let timeout):
                ["action": "browser", "interaction": .string(id), "timeoutSeconds": timeout.map { .int(Int64($0)) } ?? .null]
            case .deviceCode(let id): ["action": "deviceCode", "interaction": .string(id)]
            }
        }
    }

    /// `POST /v1/interactions`: opens a browser or device-code interaction.
    public func openInteraction(_ kind: String) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/interactions", ["kind": .string(kind)])
    }

    /// `GET /v1/interactions/{id}`, waiting up to `wait` ms for a change from `since`.
    public func interaction(_ id: String, since: Int64, waitMilliseconds: Int) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/interactions/\(Self.pathSegment(id))?since=\(since)&wait=\(waitMilliseconds)")
    }

    /// `DELETE /v1/interactions/{id}`: the sign-in using it ends UserCancelled.
    public func cancelInteraction(_ id: String) async throws(ControlClientError) -> JSONValue {
        try await call(.delete, "/v1/interactions/\(Self.pathSegment(id))")
    }

    public func health() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/health")
    }

    public func accounts() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/accounts")
    }

    public func account(_ upn: String) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/accounts/" + Self.pathSegment(upn))
    }

    /// Signs `upn` in; nil signs in the app's managed user (`loginAndEnrollAccount(nil)`).
    public func signIn(_ upn: String?, silent: Bool = false, scopes: [String]? = nil, user: User? = nil) async throws(ControlClientError) -> JSONValue {
        var body: JSONObject = ["account": upn.map { .string($0) } ?? .null, "silent": .bool(silent)]
        if let scopes { body["scopes"] = .array(scopes.map { .string($0) }) }
        if let user { body["user"] = user.json }
        return try await call(.post, "/v1/sign-in", .object(body))
    }

    public func token(_ upn: String, scopes: [String], silent: Bool = true, remediate: Bool = true, user: User? = nil) async throws(ControlClientError) -> JSONValue {
        var body: JSONObject = [
            "account": .string(upn), "scopes": .array(scopes.map { .string($0) }), "silent": .bool(silent), "remediate": .bool(remediate),
        ]
        if let user { body["user"] = user.json }
        return try await call(.post, "/v1/token", .object(body))
    }

    public func remediate(_ upn: String, silent: Bool = false, user: User? = nil) async throws(ControlClientError) -> JSONValue {
        var body: JSONObject = ["account": .string(upn), "silent": .bool(silent)]
        if let user { body["user"] = user.json }
        return try await call(.post, "/v1/remediate", .object(body))
    }

    public func deregister(_ upn: String, wipe: Bool) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/deregister", ["account": .string(upn), "wipe": .bool(wipe)])
    }

    /// The data-protection answers of `identity`'s policy object (nil: no identity, unmanaged),
    /// for a location or item `owner` owns, and `isURLAllowed` for `scheme`.
    public func dataProtection(
        _ identity: String?, owner: String? = nil, scheme: String? = nil, knownManagedAppScheme: Bool = false
    ) async throws(ControlClientError) -> JSONValue {
        let path = identity.map { "/v1/accounts/\(Self.pathSegment($0))/data-protection" } ?? "/v1/data-protection"
        return try await call(.get, path + Self.query([("owner", owner), ("scheme", scheme), ("knownManagedAppScheme", knownManagedAppScheme ? "true" : nil)]))
    }

    /// The running app's decision for one web view (`POST /v1/webview/decide`): `question` holds
    /// `policy`, `url`, `frame`, `delegate`, `internalURLs`, `internalPrefixes`, `internalHosts`.
    public func webViewDecision(_ question: JSONObject) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/webview/decide", .object(question))
    }

    /// The running app's cut/copy/paste decision (`POST /v1/clipboard/decide`): `question` holds
    /// `from`, `to` (`app`, `webView`, `managedApp`, `unmanagedApp`), `fromPolicy`, `toPolicy`.
    public func clipboardDecision(_ question: JSONObject) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/clipboard/decide", .object(question))
    }

    /// `upn`'s MAM app configuration; with `key`, its values (`query`: any, min, max, or, and).
    public func appConfig(_ upn: String, key: String? = nil, query: String? = nil) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/accounts/\(Self.pathSegment(upn))/app-config" + Self.query([("key", key), ("query", query)]))
    }

    /// `?name=value&…` of the parameters given (percent-encoded), or "" when none is.
    static func query(_ parameters: [(String, String?)]) -> String {
        let given = parameters.compactMap { name, value in value.map { "\(name)=\(pathSegment($0))" } }
        return given.isEmpty ? "" : "?" + given.joined(separator: "&")
    }

    /// The app's Entra settings in force, the profile's, and the runtime overrides.
    public func settings() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/settings")
    }

    /// Changes the runtime overrides: a string sets one, `.null` clears it, a name left out stays
    /// (`aadAuthorityUriOverride`, `aadClientIdOverride`, `aadRedirectUriOverride`).
    public func setSettingsOverrides(_ changes: JSONObject) async throws(ControlClientError) -> JSONValue {
        try await call(.put, "/v1/settings/overrides", .object(changes))
    }

    /// The app's process, UI and effective UI identities.
    public func identity() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/identity")
    }

    /// `setUIPolicyIdentity` (`identity` "" is no user); the user cancels a conditional launch
    /// when `cancelConditionalLaunch`. The answer's `result` is Success, Canceled, NotAllowed or Failed.
    public func switchUIIdentity(_ identity: String, cancelConditionalLaunch: Bool = false) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/identity/ui", ["identity": .string(identity), "conditionalLaunch": .string(cancelConditionalLaunch ? "cancel" : "complete")])
    }

    /// `setProcessIdentity` (`identity` "" is no user).
    public func setProcessIdentity(_ identity: String) async throws(ControlClientError) -> JSONValue {
        try await call(.put, "/v1/identity/process", ["identity": .string(identity)])
    }

    /// `addIdentity:completionHandler:`: the SDK enrolled `account` on its own and asks the app
    /// to add it. The answer: `{"account", "registered"}`.
    public func sdkEnrolled(_ account: String) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/identity/sdk-enrolled", ["account": .string(account)])
    }

    /// The app's registered accounts, allowed accounts and managed account.
    public func app() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/app")
    }

    /// The app restarted itself after its restart hook answered YES: `{"restarted", "report"}`.
    public func appRestarted() async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/app/restarted", .object([:]))
    }

    public func listData(_ upn: String) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/accounts/\(Self.pathSegment(upn))/data")
    }

    public func putData(_ upn: String, name: String, bytes: [UInt8]) async throws(ControlClientError) -> JSONValue {
        let answer = try await raw(.put, "/v1/accounts/\(Self.pathSegment(upn))/data/\(Self.pathSegment(name))", body: bytes)
        return (try? JSONValue.parse(answer)) ?? .null
    }

    public func getData(_ upn: String, name: String) async throws(ControlClientError) -> [UInt8] {
        try await raw(.get, "/v1/accounts/\(Self.pathSegment(upn))/data/\(Self.pathSegment(name))")
    }

    public func removeData(_ upn: String, name: String) async throws(ControlClientError) -> JSONValue {
        try await call(.delete, "/v1/accounts/\(Self.pathSegment(upn))/data/\(Self.pathSegment(name))")
    }

    /// Events after `since`; waits up to `wait` milliseconds for one when there is none yet.
    public func events(since: Int64, wait: Int64 = 0, limit: Int = 1000) async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/events?since=\(since)&wait=\(wait)&limit=\(limit)")
    }

    public func clock() async throws(ControlClientError) -> JSONValue {
        try await call(.get, "/v1/clock")
    }

    public func advanceClock(seconds: Int64) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/clock/advance", ["seconds": .int(seconds)])
    }

    /// Test hook (daemon started with `--test-hooks`): SIGKILL right after the commit of `point`.
    public func crashAfter(_ point: String, occurrence: Int = 1) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/test/crash-after", ["point": .string(point), "occurrence": .int(Int64(occurrence))])
    }

    /// Test hook: the daemon's next `count` storage operations of `operation` (`commit`,
    /// `tokens`, `vault`) fail as on a full disk.
    public func failStorage(_ operation: String, count: Int) async throws(ControlClientError) -> JSONValue {
        try await call(.post, "/v1/test/fail-storage", ["operation": .string(operation), "count": .int(Int64(count))])
    }

    /// Percent-encodes everything but unreserved characters and `@`, so a UPN or a file name
    /// stays one path segment.
    public static func pathSegment(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
