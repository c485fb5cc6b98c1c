import Hummingbird
import JSON
import Orchestrator

/// `/v1/test/*`, served only with `--test-hooks`: arm a crash at a commit point, count the
/// commits, list the points, make the store or the vault fail.
struct TestHookRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.post("/v1/test/crash-after", use: crashAfter)
        router.get("/v1/test/commits", use: commits)
        router.get("/v1/test/crash-points", use: crashPoints)
        router.post("/v1/test/fail-storage", use: failStorage)
    }

    @Sendable func crashAfter(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/test/crash-after", known: ["point", "occurrence"])
        let point = try body.string("point")
        let occurrence = try body.optionalInt("occurrence") ?? 1
        try await engine.armCrash(at: point, occurrence: Int(clamping: occurrence))
        return .json(["armed": .string(point), "occurrence": .int(occurrence)])
    }

    @Sendable func commits(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let counts = await engine.committedPoints()
        return .json(["commits": .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int(Int64($0.value))) }))])
    }

    @Sendable func crashPoints(_ request: Request, context: ControlRequestContext) async throws -> Response {
        .json(["points": .array(Engine.crashPoints.map { .string($0) })])
    }

    @Sendable func failStorage(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/test/fail-storage"
        let body = try await request.controlBody(route: route, known: ["operation", "count"])
        let name = try body.string("operation")
        guard let kind = StorageFaults.Kind(rawValue: name) else {
            throw ControlError.badRequest("\(route): 'operation' must be one of \(StorageFaults.Kind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name)'")
        }
        let count = try body.optionalInt("count") ?? 1
        guard (1...1000).contains(count) else { throw ControlError.badRequest("\(route): 'count' must be 1 to 1000, got \(count)") }
        await engine.failStorage(kind, count: Int(count))
        return .json(["failing": .string(kind.rawValue), "count": .int(count)])
    }
}
