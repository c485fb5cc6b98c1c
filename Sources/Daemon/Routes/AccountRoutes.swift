import Hummingbird
import JSON
import Orchestrator

/// Accounts: `GET /v1/accounts[/{upn}]`, and what is done to one: `POST /v1/sign-in`,
/// `/v1/token`, `/v1/remediate`, `/v1/deregister`.
struct AccountRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/accounts", use: accounts)
        router.get("/v1/accounts/:upn", use: account)
        router.post("/v1/sign-in", use: signIn)
        router.post("/v1/token", use: token)
        router.post("/v1/remediate", use: remediate)
        router.post("/v1/deregister", use: deregister)
    }

    @Sendable func accounts(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let summaries = try await engine.accounts()
        return .json(["accounts": .array(summaries.map(ControlJSON.account))])
    }

    @Sendable func account(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let upn = try context.pathParameter("upn")
        return .json(ControlJSON.account(try await engine.account(upn)))
    }

    @Sendable func signIn(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/sign-in", known: ["account", "silent", "scopes", "user"])
        // No account (absent or null) is loginAndEnrollAccount(nil): the app's managed user.
        let upn = try body.optionalString("account")
        let silent = try body.bool("silent", default: false)
        let scopes = try body.scopes()
        let user = try body.user(engine.interactions)
        let outcome = try await engine.signIn(upn, scopes: scopes, silent: silent, user: user)
        var object: JSONObject = ["account": .string(outcome.account.key), "signedIn": .bool(outcome.signedIn)]
        let token = ControlJSON.tokenOutcome(outcome.token)
        object["status"] = token["status"]
        for key in ["report", "token", "fromCache", "failure", "remediated"] { if let value = token[key] { object[key] = value } }
        return .json(.object(object))
    }

    @Sendable func token(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/token", known: ["account", "scopes", "silent", "remediate", "user"])
        let upn = try body.string("account")
        guard let scopes = try body.scopes() else { throw ControlError.badRequest("POST /v1/token: field 'scopes' is required") }
        let silent = try body.bool("silent", default: true)
        let remediate = try body.bool("remediate", default: true)
        let user = try body.user(engine.interactions)
        let outcome = try await engine.acquireToken(upn, scopes: scopes, silent: silent, remediate: remediate, user: user)
        return .json(.object(ControlJSON.tokenOutcome(outcome)))
    }

    @Sendable func remediate(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/remediate", known: ["account", "silent", "user"])
        let upn = try body.string("account")
        let silent = try body.bool("silent", default: false)
        let user = try body.user(engine.interactions)
        let outcome = try await engine.remediate(upn, silent: silent, user: user)
        var object: JSONObject = ["report": EngineJSON.report(outcome.report)]
        if let tokens = outcome.tokens { object["token"] = ControlJSON.token(tokens) }
        return .json(.object(object))
    }

    @Sendable func deregister(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/deregister", known: ["account", "wipe"])
        let upn = try body.string("account")
        let wipe = try body.bool("wipe", default: false)
        let outcome = try await engine.deregister(upn, wipe: wipe)
        return .json([
            "account": .string(outcome.account.key),
            "enrollmentStatus": outcome.enrollmentStatus.map { EngineJSON.status($0) } ?? .null,
            "wiped": .bool(outcome.wiped),
        ])
    }
}
