import Foundation
import Hummingbird
import JSON
import Orchestrator

/// `/v1/interactions`: sign-ins a person completes in a browser or on another device. The
/// CLI opens one, passes its id in a sign-in's `user`, reads the prompt (the URL to open, or
/// the verification URI and user code) while the sign-in waits, and cancels it on Ctrl-C.
struct InteractionRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.post("/v1/interactions", use: open)
        router.get("/v1/interactions/:id", use: interaction)
        router.delete("/v1/interactions/:id", use: cancel)
    }

    /// `POST /v1/interactions` `{"kind": "browser" | "deviceCode"}` → 201 with the interaction.
    @Sendable func open(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let route = "POST /v1/interactions"
        let body = try await request.controlBody(route: route, known: ["kind"])
        let name = try body.string("kind")
        guard let kind = InteractionSession.Kind(rawValue: name) else {
            throw ControlError.badRequest("\(route): kind must be \"browser\" or \"deviceCode\", got '\(name)'")
        }
        guard let session = engine.interactions.create(kind, now: OrchestratorStore.wallClock()) else {
            throw ControlError(.tooManyRequests, "too_many_interactions", "\(route): \(InteractionSessions.limit) interactions are open; finish or cancel one")
        }
        return .json(Self.json(session), status: .created)
    }

    /// `GET /v1/interactions/{id}?since=VERSION&wait=MS`: the interaction, once its version
    /// differs from `since` (or after `wait` ms, at most 60000).
    @Sendable func interaction(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let id = try context.pathParameter("id")
        guard let session = engine.interactions.session(id) else { throw ControlError.notFound("no open interaction '\(id)'") }
        let query = request.uri.queryParameters
        if let text = query["wait"] {
            guard let wait = Int64(String(text)), (0...60_000).contains(wait) else {
                throw ControlError.badRequest("GET /v1/interactions/{id}: 'wait' must be an integer in 0...60000, got '\(text)'")
            }
            let since = query["since"].flatMap { Int(String($0)) } ?? session.version
            _ = await session.waitForChange(after: since, timeout: .milliseconds(wait))
        }
        return .json(Self.json(session))
    }

    /// `DELETE /v1/interactions/{id}`: cancels it; the sign-in using it ends UserCancelled.
    @Sendable func cancel(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let id = try context.pathParameter("id")
        guard engine.interactions.remove(id) else { throw ControlError.notFound("no open interaction '\(id)'") }
        return .json(["id": .string(id), "cancelled": true])
    }

    /// `{"id", "kind", "state": "pending" | "prompted" | "ended" | "cancelled", "version",
    /// "url"?, "verificationUri"?, "verificationUriComplete"?, "userCode"?, "message"?, "expiresAt"?}`.
    static func json(_ session: InteractionSession) -> JSONValue {
        var object: JSONObject = ["id": .string(session.id), "kind": .string(session.kind.rawValue), "version": .int(Int64(session.version))]
        switch session.state {
        case .pending: object["state"] = "pending"
        case .ended: object["state"] = "ended"
        case .cancelled: object["state"] = "cancelled"
        case .prompted(let prompt):
            object["state"] = "prompted"
            if let url = prompt.url { object["url"] = .string(url) }
            if let uri = prompt.verificationURI { object["verificationUri"] = .string(uri) }
            if let uri = prompt.verificationURIComplete { object["verificationUriComplete"] = .string(uri) }
            if let code = prompt.userCode { object["userCode"] = .string(code) }
            if let message = prompt.message { object["message"] = .string(message) }
            if let expiresAt = prompt.expiresAt { object["expiresAt"] = .int(expiresAt) }
        }
        return .object(object)
    }
}
