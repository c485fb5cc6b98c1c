import JSON
import Testing

/// `DaemonRoutes` at the router: health, events, the clock.
@Suite struct DaemonRouterTests {
    @Test func healthEventsAndTheVirtualClock() async throws {
        try await RouterSupport.withRouter { client, harness in
            let health = try await client.control(.get, "/v1/health")
            #expect(health.status == .ok && health.json["status"] == "ok" && health.json["clock"] == "virtual")
            #expect(health.json["issuerKind"] == "entra" && health.json["issuer"]?.stringValue == harness.mock.authority)
            let clock = try await client.control(.get, "/v1/clock")
            let advance = try await client.control(.post, "/v1/clock/advance", ["seconds": 3600])
            #expect(advance.status == .ok && advance.json["from"] == clock.json["now"])
            #expect(advance.json["now"]?.intValue == (clock.json["now"]?.intValue).map { $0 + 3_600_000 })
            let events = try await client.control(.get, "/v1/events?since=0")
            let seqs = events.json["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
            #expect(events.status == .ok && !seqs.isEmpty && seqs == seqs.sorted())
            #expect(events.json["lastSeq"]?.intValue == seqs.last)
        }
    }

    @Test func badInputAndTheClocksRefusal() async throws {
        try await RouterSupport.withRouter { client, _ in
            let limit = try await client.control(.get, "/v1/events?limit=0")
            #expect(limit.isError(.badRequest, "bad_request") && limit.message.contains("'limit'"))
            let wait = try await client.control(.get, "/v1/events?wait=60001")
            #expect(wait.isError(.badRequest, "bad_request") && wait.message.contains("'wait'"))
            let seconds = try await client.control(.post, "/v1/clock/advance", ["seconds": "an hour"])
            #expect(seconds.isError(.badRequest, "bad_request") && seconds.message.contains("'seconds' must be an integer"))
            let backwards = try await client.control(.post, "/v1/clock/advance", ["seconds": -1])
            #expect(backwards.isError(.badRequest, "bad_request") && backwards.message.contains("between 0 and"))
        }
    }
}
