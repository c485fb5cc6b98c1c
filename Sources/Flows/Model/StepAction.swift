import JSON

/// What a step does: a daemon action, an admin action on the mock, a clock or process action,
/// or a check (flows/README.md lists each with its fields).
public enum StepAction: Sendable {
    /// How the sign-in page is answered, when one is shown.
    public enum User: Sendable, Hashable {
        case none
        case password(String)
        /// The password grant instead of the sign-in page (`"grant": "password"`).
        case passwordGrant(String)
        case cancel
    }

    // Daemon actions.
    /// `account` nil: the app's managed user (`loginAndEnrollAccount(nil)`).
    case signIn(account: String?, user: User, silent: Bool, scopes: [String]?)
    case token(account: String, scopes: [String], user: User, interactive: Bool, remediate: Bool)
    case remediate(account: String, user: User, silent: Bool)
    case deregister(account: String, wipe: Bool)
    case putData(account: String, name: String, text: String)
    case removeData(account: String, name: String)
    /// Reads one file (`GET /v1/accounts/{upn}/data/{name}`): refused for managed data under
    /// another UI identity.
    case readData(account: String, name: String)
    /// `setUIPolicyIdentity` ("" is no user); `cancel`: the user cancels the conditional launch.
    case setUIIdentity(identity: String, cancel: Bool)
    /// `setProcessIdentity` ("" is no user).
    case setProcessIdentity(identity: String)
    /// The SDK enrolled `account` on its own and asks the app to add it (`addIdentity:completionHandler:`).
    case sdkEnrolls(account: String)
    /// `PUT /v1/settings/overrides`: each named override set (a string) or cleared (null); an
    /// authority starting with "/" is a path on the flow's issuer.
    case overrideSettings(changes: JSONObject)
    /// `protect`: `text` protected for `identity` (nil: no user), kept under `keep` for later
    /// steps; `expected` (`owner`, `encrypted`, or `error`, `messageContains`) checks the answer.
    case protect(identity: String?, text: String, keep: String, expected: JSONObject)
    /// `unprotect` of `input` (flipped in its last byte with `corrupt`); `expected`: `text`,
    /// `protected`, `owner`, `encrypted`, or `error`, `messageContains`.
    case unprotect(input: BufferInput, corrupt: Bool, expected: JSONObject)
    case advanceClock(seconds: Int64, text: String)
    /// The app reports it restarted itself (`POST /v1/app/restarted`).
    case appRestarted

    // The daemon process.
    case restartDaemon(kill: Bool)
    case crashAfter(point: String, occurrence: Int)
    /// The daemon's next `count` storage operations of `operation` fail (a full disk).
    case failStorage(operation: String, count: Int)

    // Admin actions on the mock (its `/_admin` API).
    case admin(method: String, path: String, body: JSONValue?, summary: String)

    // Checks.
    case expectAccount(account: String, fields: JSONObject)
    case expectData(
        account: String, present: [String], absent: [String], contents: [(String, String)], encrypted: [String] = [], plain: [String] = [],
        owners: [(String, String)] = [])
    /// `protectionInfo` of `input` (see ``unprotect(input:corrupt:expected:)``); `expected`:
    /// `protected`, `owner`, `encrypted`, or `error`, `messageContains`.
    case expectProtectionInfo(input: BufferInput, corrupt: Bool, expected: JSONObject)
    case expectEvents(events: [JSONValue], absent: [JSONValue], counts: [CountedPattern])
    case expectEnrollmentStatuses(account: String, codes: [Int64])
    case expectRequests(requests: [JSONValue], absent: [JSONValue], counts: [CountedPattern])
    /// The identity's policy object (nil: no identity) asked about `owner`'s locations and
    /// items (and `scheme`): the answer must match `expected` partially.
    case expectDataProtection(identity: String?, owner: String?, scheme: String?, knownManagedAppScheme: Bool, expected: JSONObject)
    /// The account's MAM app configuration (one key's values with `key`), matched partially.
    case expectAppConfig(account: String, key: String?, query: String?, expected: JSONObject)
    /// The app's registered, allowed and managed accounts (`GET /v1/app`), matched partially.
    case expectApp(expected: JSONObject)
    /// The Entra settings in force (`GET /v1/settings`): `clientId`, `redirectUri`,
    /// `authorityPath`, `overrides`, matched partially.
    case expectSettings(expected: JSONObject)
    /// The app's identities (`GET /v1/identity`), matched partially.
    case expectIdentity(expected: JSONObject)
    /// A web-view or clipboard decision asked of the daemon (`question` is the route's body);
    /// the answer, flattened (``DecisionKind``), must match `expected` partially.
    case expectDecision(DecisionKind, question: JSONObject, expected: JSONObject)

    // Web-content checks, decided locally from the flow's app profile.
    case web(WebCheck)

    /// The step's name as written in flows (`signIn`, `targetCA`, …) with its main argument.
    public var summary: String {
        switch self {
        case .signIn(let account, _, let silent, _): "signIn \(account ?? "(the managed user)")\(silent ? " (silent)" : "")"
        case .token(let account, let scopes, _, _, _): "token \(account) \(scopes.joined(separator: " "))"
        case .remediate(let account, _, let silent): "remediate \(account)\(silent ? " (silent)" : "")"
        case .deregister(let account, let wipe): "deregister \(account)\(wipe ? " with wipe" : "")"
        case .putData(let account, let name, _): "putData \(account) \(name)"
        case .removeData(let account, let name): "removeData \(account) \(name)"
        case .readData(let account, let name): "readData \(account) \(name)"
        case .setUIIdentity(let identity, let cancel): "setUIIdentity \(identity.isEmpty ? "(no user)" : identity)\(cancel ? " (the user cancels)" : "")"
        case .setProcessIdentity(let identity): "setProcessIdentity \(identity.isEmpty ? "(no user)" : identity)"
        case .sdkEnrolls(let account): "sdkEnrolls \(account) (addIdentity)"
        case .overrideSettings(let changes): "overrideSettings \(changes.keys.sorted().joined(separator: ", "))"
        case .protect(let identity, _, let keep, _): "protect for \(identity ?? "no user") as \(keep)"
        case .unprotect(let input, let corrupt, _): "unprotect \(input)\(corrupt ? " (corrupted)" : "")"
        case .expectProtectionInfo(let input, let corrupt, _): "expectProtectionInfo \(input)\(corrupt ? " (corrupted)" : "")"
        case .advanceClock(_, let text): "advanceClock \(text)"
        case .appRestarted: "appRestarted"
        case .restartDaemon(let kill): kill ? "restartDaemon (kill -9)" : "restartDaemon (SIGTERM)"
        case .crashAfter(let point, let occurrence): "crashAfter \(point)\(occurrence > 1 ? " #\(occurrence)" : "")"
        case .failStorage(let operation, let count): "failStorage \(operation)\(count > 1 ? " ×\(count)" : "")"
        case .admin(_, _, _, let summary): summary
        case .expectAccount(let account, _): "expectAccount \(account)"
        case .expectData(let account, _, _, _, _, _, _): "expectData \(account)"
        case .expectEvents(let events, _, let counts): "expectEvents (\(Self.patternCounts(events, counts)))"
        case .expectEnrollmentStatuses(let account, let codes): "expectEnrollmentStatuses \(account) \(codes)"
        case .expectRequests(let requests, _, let counts): "expectRequests (\(Self.patternCounts(requests, counts)))"
        case .expectApp: "expectApp"
        case .expectIdentity: "expectIdentity"
        case .expectDecision(let kind, let question, _): kind.summary(question)
        case .expectSettings: "expectSettings"
        case .expectAppConfig(let account, let key, _, _): "expectAppConfig \(account)\(key.map { " \($0)" } ?? "")"
        case .expectDataProtection(let identity, let owner, _, _, _): "expectDataProtection \(identity ?? "no identity")\(owner.map { ", owner \($0)" } ?? "")"
        case .web(let check): check.summary
        }
    }

    /// "2 in order" or "2 in order, 1 counted".
    private static func patternCounts(_ inOrder: [JSONValue], _ counts: [CountedPattern]) -> String {
        "\(inOrder.count) in order" + (counts.isEmpty ? "" : ", \(counts.count) counted")
    }
}

/// Which decision an `expectDecision` step asks the daemon for.
public enum DecisionKind: Sendable, Hashable {
    /// `expectWebViewDecision`: `POST /v1/webview/decide`.
    case webView
    /// `expectClipboard`: `POST /v1/clipboard/decide`.
    case clipboard

    /// `expectWebViewDecision currentIdentity https://x`, `expectClipboard webView → unmanagedApp`.
    func summary(_ question: JSONObject) -> String {
        switch self {
        case .webView:
            "expectWebViewDecision \(question["policy"]?.stringValue ?? "unset")\(question["url"]?.stringValue.map { " " + $0 } ?? "")"
        case .clipboard:
            "expectClipboard \(question["from"]?.stringValue ?? "?") → \(question["to"]?.stringValue ?? "?")"
        }
    }
}

/// A pattern of `expectEvents` or `expectRequests` with the exact number of events (or
/// requests) that must match it: `{"kind": "enrollment", "count": 1}`.
public struct CountedPattern: Sendable, Hashable {
    /// The pattern, without its `count`.
    public let pattern: JSONValue
    /// How many must match: exactly this many (0 is the same as `absent`).
    public let count: Int

    public init(pattern: JSONValue, count: Int) {
        self.pattern = pattern
        self.count = count
    }
}

/// The input of `unprotect` and `expectProtectionInfo`: what an earlier `protect` step kept
/// (`"data": NAME`), or literal text sent as it is (`"input": TEXT`, e.g. data no `protect`
/// made).
public enum BufferInput: Sendable, Hashable, CustomStringConvertible {
    case kept(String)
    case text(String)

    public var description: String {
        switch self {
        case .kept(let name): name
        case .text(let text): "\"\(text.prefix(40))\""
        }
    }
}
