import Foundation
import Hummingbird
import JSON
import Orchestrator

/// The daemon itself: `GET /v1/health`, its event log (`GET /v1/events`) and its clock
/// (`GET /v1/clock`, `POST /v1/clock/advance`).
struct DaemonRoutes: Sendable {
    let engine: Engine

    func addRoutes(to router: Router<ControlRequestContext>) {
        router.get("/v1/health", use: health)
        router.get("/v1/events", use: events)
        router.get("/v1/clock", use: clock)
        router.post("/v1/clock/advance", use: advance)
    }

    @Sendable func health(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let last = try await engine.lastEventSeq()
        return .json([
            "status": "ok", "pid": .int(Int64(getpid())), "clock": .string(engine.clock.mode.rawValue),
            "now": .int(engine.clock.milliseconds), "app": .string(engine.clientID), "lastEventSeq": .int(last),
            "issuer": .string(engine.issuer.configuration.authority.url),
            "issuerKind": .string(engine.issuer.configuration.authority.isEntra ? "entra" : "oidc"),
        ])
    }

    /// `GET /v1/events?since=SEQ&wait=MS&limit=N`: events after `since`, waiting up to `wait`
    /// ms (at most 60000) for one.
    @Sendable func events(_ request: Request, context: ControlRequestContext) async throws -> Response {
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
        let found = try await engine.events(since: since, limit: Int(limit), wait: .milliseconds(wait))
        return .json(["events": .array(found.events.map(ControlJSON.event)), "lastSeq": .int(found.lastSeq)])
    }

    @Sendable func clock(_ request: Request, context: ControlRequestContext) async throws -> Response {
        .json(["clock": .string(engine.clock.mode.rawValue), "now": .int(engine.clock.milliseconds)])
    }

    /// `POST /v1/clock/advance` `{"seconds"}`: moves the virtual clock; the timers due fire.
    @Sendable func advance(_ request: Request, context: ControlRequestContext) async throws -> Response {
        let body = try await request.controlBody(route: "POST /v1/clock/advance", known: ["seconds"])
        let seconds = try body.int("seconds")
        let result = try await engine.advanceClock(seconds: seconds)
        let fired: [JSONValue] = result.fired.map {
            ["timer": .string($0.timer), "account": $0.account.map { .string($0.key) } ?? .null, "dueAt": .int($0.dueAt)]
        }
        return .json(["from": .int(result.from), "now": .int(result.now), "fired": .array(fired)])
    }
}
