import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Orchestrator
import Testing

@testable import Daemon

/// What every route shares, at the router: the peer check, the browser guard, an unknown
/// route, and errors that are not the control API's own, all as `{"error": {"code", "message"}}`.
@Suite struct AccessRouterTests {
    @Test func anotherUsersPeerIsRefusedAndTheConnectionCloses() async throws {
        try await RouterSupport.withRouter(peerUID: geteuid() &+ 1) { client, _ in
            let answer = try await client.control(.get, "/v1/health")
            #expect(answer.isError(.forbidden, "forbidden_peer") && answer.headers[.connection] == "close")
        }
        try await RouterSupport.withRouter(peerUID: nil) { client, _ in
            let answer = try await client.control(.get, "/v1/accounts")
            #expect(answer.isError(.forbidden, "forbidden_peer") && answer.message.contains("an unknown user"))
        }
    }

    @Test func aWebPageIsRefusedAndTheConnectionCloses() async throws {
        try await RouterSupport.withRouter { client, _ in
            let answer = try await client.control(
                .post, "/v1/deregister", ["account": "alice@contoso.com", "wipe": true], headers: [.origin: "https://evil.example"])
            #expect(answer.isError(.forbidden, "forbidden_origin") && answer.headers[.connection] == "close")
        }
    }

    @Test func anUnknownRouteOrMethodIsAJSON404() async throws {
        try await RouterSupport.withRouter { client, _ in
            let route = try await client.control(.get, "/v1/nothing-here")
            #expect(route.isError(.notFound, "not_found") && route.message.contains("GET /v1/nothing-here"))
            let method = try await client.control(.delete, "/v1/health")
            #expect(method.isError(.notFound, "not_found") && method.headers[.connection] == nil)
            let hooks = try await client.control(.get, "/v1/test/crash-points")
            #expect(hooks.isError(.notFound, "not_found"), "test routes exist only with --test-hooks")
        }
    }

    @Test func errorsBecomeControlErrorsInOnePlace() {
        struct Unexpected: Error {}
        let request = Request(
            head: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/v1/x"), body: .init(buffer: ByteBuffer()))
        let engine = ControlErrorMiddleware<ControlRequestContext>.controlError(EngineError(.keyGone, "gone"), request: request)
        #expect(engine == ControlError(.gone, "key_gone", "gone"))
        let other = ControlErrorMiddleware<ControlRequestContext>.controlError(Unexpected(), request: request)
        #expect(other.status == .internalServerError && other.code == "internal")
        let own = ControlError.badRequest("why")
        #expect(ControlErrorMiddleware<ControlRequestContext>.controlError(own, request: request) == own)
    }
}
