import ComplianceCore
import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Logging
import NIOCore
import Orchestrator

/// The daemon's control API over the engine: JSON over HTTP (Sources/complianced/README.md).
/// Every route reaches the daemon's state through the ``Engine``.
public struct ControlRoutes: Sendable {
    let engine: Engine
    let testHooks: Bool
    let logger: Logger

    public init(engine: Engine, testHooks: Bool, logger: Logger) {
        self.engine = engine
        self.testHooks = testHooks
        self.logger = logger
    }

    /// A router with every route, answering only peers running as the daemon's own user, and
    /// never a web page (``BrowserGuardMiddleware``).
    public func router() -> Router<ControlRequestContext> {
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: PeerCheckMiddleware(ownUID: geteuid(), logger: logger))
        router.add(middleware: BrowserGuardMiddleware())
        router.get("/v1/health") { _, _ in try await handle { try await health() } }
        router.get("/v1/accounts") { _, _ in try await handle { try await accounts() } }
        router.get("/v1/app") { _, _ in try await handle { .json(.object(await engine.appView())) } }
        router.post("/v1/app/restarted") { _, _ in try await handle { try await appRestarted() } }
        router.get("/v1/accounts/:upn") { _, context in try await handle { try await account(context) } }
        router.post("/v1/sign-in") { request, _ in try await handle { try await signIn(request) } }
        router.post("/v1/token") { request, _ in try await handle { try await token(request) } }
        router.post("/v1/remediate") { request, _ in try await handle { try await remediate(request) } }
        router.post("/v1/deregister") { request, _ in try await handle { try await deregister(request) } }
        router.get("/v1/accounts/:upn/data") { _, context in try await handle { try await listData(context) } }
        router.put("/v1/accounts/:upn/data/:name") { request, context in try await handle { try await putData(request, context) } }
        router.get("/v1/accounts/:upn/data/:name") { _, context in try await handle { try await getData(context) } }
        router.delete("/v1/accounts/:upn/data/:name") { _, context in try await handle { try await removeData(context) } }
        router.get("/v1/accounts/:upn/data/:name/protection-info") { _, context in
            try await handle { try await fileProtectionInfo(context, name: try dataName(context)) }
        }
        router.post("/v1/protect") { request, _ in try await handle { try await protect(request) } }
        router.post("/v1/unprotect") { request, _ in try await handle { try await unprotect(request) } }
        router.post("/v1/protection-info") { request, _ in try await handle { try await protectionInfo(request) } }
        router.get("/v1/accounts/:upn/data-protection") { request, context in
            try await handle { try await dataProtection(request, identity: try parameter("upn", context)) }
        }
        router.get("/v1/accounts/:upn/app-config") { request, context in
            try await handle { try await appConfig(request, upn: try parameter("upn", context)) }
        }
        router.get("/v1/data-protection") { request, _ in try await handle { try await dataProtection(request, identity: nil) } }
        router.get("/v1/settings") { _, _ in try await handle { try await settings() } }
        router.put("/v1/settings/overrides") { request, _ in try await handle { try await setSettingsOverrides(request) } }
        router.get("/v1/identity") { _, _ in try await handle { try await identity() } }
        router.post("/v1/identity/ui") { request, _ in try await handle { try await switchUIIdentity(request) } }
        router.put("/v1/identity/process") { request, _ in try await handle { try await setProcessIdentity(request) } }
        router.get("/v1/events") { request, _ in try await handle { try await events(request) } }
        router.get("/v1/clock") { _, _ in try await handle { clock() } }
        router.post("/v1/interactions") { request, _ in try await handle { try await openInteraction(request) } }
        router.get("/v1/interactions/:id") { request, context in try await handle { try await interaction(request, context) } }
        router.delete("/v1/interactions/:id") { _, context in try await handle { try cancelInteraction(context) } }
        router.post("/v1/clock/advance") { request, _ in try await handle { try await advance(request) } }
        if testHooks {
            router.post("/v1/test/crash-after") { request, _ in try await handle { try await crashAfter(request) } }
            router.get("/v1/test/commits") { _, _ in
                try await handle {
                    let counts = await engine.committedPoints()
                    return .json(["commits": .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int(Int64($0.value))) }))])
                }
            }
            router.get("/v1/test/crash-points") { _, _ in
                try await handle { .json(["points": .array(Engine.crashPoints.map { .string($0) })]) }
            }
            router.post("/v1/test/fail-storage") { request, _ in try await handle { try await failStorage(request) } }
        }
        return router
    }

    // MARK: - Handlers

    private func health() async throws -> Response {
        let last = try await engineCall { try await engine.lastEventSeq() }
        return .json([
            "status": "ok", "pid": .int(Int64(getpid())), "clock": .string(engine.clock.mode.rawValue),
            "now": .int(engine.clock.milliseconds), "app": .string(engine.clientID), "lastEventSeq": .int(last),
            "issuer": .string(engine.issuer.configuration.authority.url),
            "issuerKind": .string(engine.issuer.configuration.authority.isEntra ? "entra" : "oidc"),
        ])
    }

    private func accounts() async throws -> Response {
        let summaries = try await engineCall { try await engine.accounts() }
        return .json(["accounts": .array(summaries.map(ControlJSON.account))])
    }

    private func account(_ context: ControlRequestContext) async throws -> Response {
        let upn = try parameter("upn", context)
        return .json(ControlJSON.account(try await engineCall { try await engine.account(upn) }))
    }

    private func signIn(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/sign-in", known: ["account", "silent", "scopes", "user"])
        // No account (absent or null) is loginAndEnrollAccount(nil): the app's managed user.
        let upn = try body.optionalString("account")
        let silent = try body.bool("silent", default: false)
        let scopes = try body.scopes()
        let user = try body.user(engine.interactions)
        let outcome = try await engineCall { try await engine.signIn(upn, scopes: scopes, silent: silent, user: user) }
        var object: JSONObject = ["account": .string(outcome.account.key), "signedIn": .bool(outcome.signedIn)]
        let token = ControlJSON.tokenOutcome(outcome.token)
        object["status"] = token["status"]
        for key in ["report", "token", "fromCache", "failure", "remediated"] { if let value = token[key] { object[key] = value } }
        return .json(.object(object))
    }

    private func token(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/token", known: ["account", "scopes", "silent", "remediate", "user"])
        let upn = try body.string("account")
        guard let scopes = try body.scopes() else { throw ControlError.badRequest("POST /v1/token: field 'scopes' is required") }
        let silent = try body.bool("silent", default: true)
        let remediate = try body.bool("remediate", default: true)
        let user = try body.user(engine.interactions)
        let outcome = try await engineCall {
            try await engine.acquireToken(upn, scopes: scopes, silent: silent, remediate: remediate, user: user)
        }
        return .json(.object(ControlJSON.tokenOutcome(outcome)))
    }

    private func remediate(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/remediate", known: ["account", "silent", "user"])
        let upn = try body.string("account")
        let silent = try body.bool("silent", default: false)
        let user = try body.user(engine.interactions)
        let outcome = try await engineCall { try await engine.remediate(upn, silent: silent, user: user) }
        var object: JSONObject = ["report": EngineJSON.report(outcome.report)]
        if let tokens = outcome.tokens { object["token"] = ControlJSON.token(tokens) }
        return .json(.object(object))
    }

    /// The app restarted itself after its restart hook answered YES.
    private func appRestarted() async throws -> Response {
        let report = try await engineCall { try await engine.appReportedRestart() }
        return .json(["restarted": .bool(true), "report": report.map { EngineJSON.report($0) } ?? .null])
    }

    private func deregister(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/deregister", known: ["account", "wipe"])
        let upn = try body.string("account")
        let wipe = try body.bool("wipe", default: false)
        let outcome = try await engineCall { try await engine.deregister(upn, wipe: wipe) }
        return .json([
            "account": .string(outcome.account.key),
            "enrollmentStatus": outcome.enrollmentStatus.map { EngineJSON.status($0) } ?? .null,
            "wiped": .bool(outcome.wiped),
        ])
    }

    private func listData(_ context: ControlRequestContext) async throws -> Response {
        let upn = try parameter("upn", context)
        let files = try await engineCall { try await engine.listData(upn) }
        return .json(["account": .string(upn.lowercased()), "files": .array(files.map(ControlJSON.file))])
    }

    /// The `{name}` of a data route, by the control API's rule: 1 to 128 characters from
    /// `A-Z a-z 0-9 . _ -`, not starting with '.', without '..'. Checked before the body is read.
    func dataName(_ context: ControlRequestContext) throws -> String {
        let name = try parameter("name", context)
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let problem: String? =
            if name.isEmpty || name.utf8.count > 128 { "must be 1 to 128 characters long (it is \(name.utf8.count))" }
            else if !allowed { "may hold only letters A-Z and a-z, digits, '.', '_' and '-'" }
            else if name.hasPrefix(".") { "must not start with '.'" }
            else if name.contains("..") { "must not contain '..'" }
            else { nil }
        if let problem {
            let shown = String(name.unicodeScalars.prefix(60).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
            throw ControlError.badRequest("the file name '\(shown)' \(problem)")
        }
        return name
    }

    private func putData(_ request: Request, _ context: ControlRequestContext) async throws -> Response {
        let upn = try parameter("upn", context)
        let name = try dataName(context)
        let bytes: [UInt8]
        do {
            bytes = Array(try await request.body.collect(upTo: ControlLimits.maxDataBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw ControlError(.contentTooLarge, "payload_too_large", "a vault file holds at most \(ControlLimits.maxDataBytes) bytes")
        }
        let file = try await engineCall { try await engine.putData(upn, name: name, bytes: bytes) }
        var object = ControlJSON.file(file).objectValue ?? JSONObject()
        object["account"] = .string(upn.lowercased())
        return .json(.object(object), status: .created)
    }

    private func getData(_ context: ControlRequestContext) async throws -> Response {
        let upn = try parameter("upn", context)
        let name = try dataName(context)
        let bytes = try await engineCall { try await engine.getData(upn, name: name) }
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func removeData(_ context: ControlRequestContext) async throws -> Response {
        let upn = try parameter("upn", context)
        let name = try dataName(context)
        let removed = try await engineCall { try await engine.removeData(upn, name: name) }
        return .json(["removed": .bool(removed)])
    }

    /// `GET /v1/accounts/{upn}/data-protection` (and `/v1/data-protection` for no identity):
    /// the policy object's answers; query `owner`, `scheme`, `knownManagedAppScheme`.
    private func dataProtection(_ request: Request, identity: String?) async throws -> Response {
        let route = identity == nil ? "GET /v1/data-protection" : "GET /v1/accounts/{upn}/data-protection"
        let query = try Self.query(request, route: route, known: ["owner", "scheme", "knownManagedAppScheme"])
        let owner = query["owner"]
        if let owner, owner.isEmpty { throw ControlError.badRequest("\(route): 'owner' is empty; leave it out for no owner") }
        let scheme = query["scheme"]
        if let scheme, !Self.isURLScheme(scheme) {
            throw ControlError.badRequest("\(route): 'scheme' must be a URL scheme (a letter, then letters, digits, '+', '-', '.'), got '\(scheme)'")
        }
        let knownScheme: Bool
        switch query["knownManagedAppScheme"] {
        case nil, "false": knownScheme = false
        case "true": knownScheme = true
        case let other?: throw ControlError.badRequest("\(route): 'knownManagedAppScheme' must be true or false, got '\(other)'")
        }
        let question = Engine.DataProtectionQuestion(identity: identity, owner: owner, scheme: scheme, knownManagedAppScheme: knownScheme)
        return .json(.object(try await engineCall { try await engine.dataProtection(question) }))
    }

    /// `GET /v1/accounts/{upn}/app-config`: the account's MAM app configuration; query `key`
    /// and `query` (`any`, `min`, `max`, `or`, `and`).
    private func appConfig(_ request: Request, upn: String) async throws -> Response {
        let query = try Self.query(request, route: "GET /v1/accounts/{upn}/app-config", known: ["key", "query"])
        let key = query["key"]
        if let key, key.isEmpty { throw ControlError.badRequest("GET /v1/accounts/{upn}/app-config: 'key' is empty") }
        let kind = query["query"]
        if kind != nil, key == nil { throw ControlError.badRequest("GET /v1/accounts/{upn}/app-config: 'query' needs 'key'") }
        return .json(.object(try await engineCall { try await engine.appConfig(upn, key: key, query: kind) }))
    }

    /// The request's query parameters; one not in `known` is a 400 naming it and the known ones.
    static func query(_ request: Request, route: String, known: [String]) throws(ControlError) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            guard known.contains(String(name)) else {
                throw .badRequest("\(route): unknown query parameter '\(name)'; known: \(known.joined(separator: ", "))")
            }
            parameters[String(name)] = String(value)
        }
        return parameters
    }

    /// RFC 3986 scheme syntax.
    static func isURLScheme(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic, text.utf8.count <= 64 else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    private func events(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        func number(_ name: String, _ fallback: Int64, _ range: ClosedRange<Int64>) throws(ControlError) -> Int64 {
            guard let text = query[name[...]] else { return fallback }
            guard let value = Int64(String(text)), range.contains(value) else {
                throw .badRequest("GET /v1/events: '\(name)' must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return value
        }
        let since = try number("since", 0, 0...Int64.max)
        let wait = try number("wait", 0, 0...60_000)
        let limit = try number("limit", 1000, 1...10_000)
        let found = try await engineCall { try await engine.events(since: since, limit: Int(limit), wait: .milliseconds(wait)) }
        return .json(["events": .array(found.events.map(ControlJSON.event)), "lastSeq": .int(found.lastSeq)])
    }

    private func clock() -> Response {
        .json(["clock": .string(engine.clock.mode.rawValue), "now": .int(engine.clock.milliseconds)])
    }

    private func advance(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/clock/advance", known: ["seconds"])
        let seconds = try body.int("seconds")
        let result = try await engineCall { try await engine.advanceClock(seconds: seconds) }
        let fired: [JSONValue] = result.fired.map {
            ["timer": .string($0.timer), "account": $0.account.map { .string($0.key) } ?? .null, "dueAt": .int($0.dueAt)]
        }
        return .json(["from": .int(result.from), "now": .int(result.now), "fired": .array(fired)])
    }

    private func crashAfter(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/test/crash-after", known: ["point", "occurrence"])
        let point = try body.string("point")
        let occurrence = try body.optionalInt("occurrence") ?? 1
        try await engineCall { try await engine.armCrash(at: point, occurrence: Int(clamping: occurrence)) }
        return .json(["armed": .string(point), "occurrence": .int(occurrence)])
    }

    private func failStorage(_ request: Request) async throws -> Response {
        let body = try await jsonBody(request, route: "POST /v1/test/fail-storage", known: ["operation", "count"])
        let name = try body.string("operation")
        guard let kind = StorageFaults.Kind(rawValue: name) else {
            throw ControlError.badRequest("POST /v1/test/fail-storage: 'operation' must be one of \(StorageFaults.Kind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
        }
        let count = try body.optionalInt("count") ?? 1
        guard (1...1000).contains(count) else { throw ControlError.badRequest("POST /v1/test/fail-storage: 'count' must be 1 to 1000, got \(count)") }
        await engine.failStorage(kind, count: Int(count))
        return .json(["failing": .string(kind.rawValue), "count": .int(count)])
    }

    // MARK: - Helpers

    func jsonBody(_ request: Request, route: String, known: Set<String>) async throws -> ControlBody {
        let bytes: [UInt8]
        do {
            bytes = Array(try await request.body.collect(upTo: ControlLimits.maxJSONBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw ControlError(.contentTooLarge, "payload_too_large", "\(route): JSON bodies are at most \(ControlLimits.maxJSONBytes) bytes")
        }
        return try ControlBody(bytes, route: route, known: known)
    }

    func parameter(_ name: String, _ context: ControlRequestContext) throws(ControlError) -> String {
        guard let value = context.parameters.get(name) else { throw .badRequest("missing path parameter \(name)") }
        return value.removingPercentEncoding ?? value
    }

    func engineCall<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as EngineError {
            throw ControlError(error)
        }
    }

    /// Runs a handler; every error becomes a JSON error answer (never a crash, never HTML).
    func handle(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as ControlError {
            if error.status.code >= 500 { logger.error("control request failed", metadata: ["error.message": "\(error)"]) }
            return error.response()
        } catch {
            logger.error("control request failed", metadata: ["error.message": "\(error)"])
            return ControlError(.internalServerError, "internal", "\(error)").response()
        }
    }
}

extension Response {
    /// A JSON answer, never cached.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.encoded())))
    }
}
