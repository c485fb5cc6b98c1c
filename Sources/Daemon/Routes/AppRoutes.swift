import Hummingbird
import JSON
import Orchestrator

/// The app: `GET /v1/app`, its restart report (`POST /v1/app/restarted`) and its MAM app
/// configuration per account (`GET /v1/accounts/{upn}/app-config`).
struct AppRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/app", use: app)
        router.post("/v1/app/restarted", use: appRestarted)
        router.get("/v1/accounts/:upn/app-config", use: appConfig)
    }

    @Sendable func app(_ request: Request, context: ControlRequestContext) async throws -> Response {
        .json(.object(ControlJSON.app(await engine.appView())))
    }

    /// The app restarted itself after its restart hook answered YES.
    @Sendable func appRestarted(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let report = try await engine.appReportedRestart()
        return .json(["restarted": .bool(true), "report": report.map { EngineJSON.report($0) } ?? .null])
    }

    /// `GET /v1/accounts/{upn}/app-config`: the account's MAM app configuration; query `key`
    /// and `query` (`any`, `min`, `max`, `or`, `and`).
    @Sendable func appConfig(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "GET /v1/accounts/{upn}/app-config"
        let upn = try context.pathParameter("upn")
        let query = try request.controlQuery(route: route, known: ["key", "query"])
        let key = query["key"]
        if let key, key.isEmpty { throw ControlError.badRequest("\(route): 'key' is empty") }
        let kind = query["query"]
        if kind != nil, key == nil { throw ControlError.badRequest("\(route): 'query' needs 'key'") }
        return .json(.object(ControlJSON.appConfig(try await engine.appConfig(upn, key: key, query: kind))))
    }
}
