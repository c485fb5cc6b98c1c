import JSON
import Testing

/// `IdentityRoutes` at the router: the process and UI identities.
@Suite struct IdentityRouterTests {
    @Test func theIdentitiesAndASwitchToNoUser() async throws {
        try await RouterSupport.withRouter { client, _ in
            let view = try await client.control(.get, "/v1/identity")
            #expect(view.status == .ok && view.json["processIdentity"] == .null && view.json["effectiveUIIdentity"] == "")
            let toNobody = try await client.control(.post, "/v1/identity/ui", ["identity": ""])
            #expect(toNobody.status == .ok && toNobody.json["result"] == "Success" && toNobody.json["effectiveUIIdentity"] == "")
            let process = try await client.control(.put, "/v1/identity/process", ["identity": ""])
            #expect(process.status == .ok && process.json["processIdentity"] == "")
        }
    }

    @Test func badInputAndRefusals() async throws {
        try await RouterSupport.withRouter { client, _ in
            let notString = try await client.control(.post, "/v1/identity/ui", ["identity": 5])
            #expect(notString.isError(.badRequest, "bad_request") && notString.message.contains("'identity'"))
            let launch = try await client.control(.post, "/v1/identity/ui", ["identity": "", "conditionalLaunch": "maybe"])
            #expect(launch.isError(.badRequest, "bad_request") && launch.message.contains("conditionalLaunch"))
            let invalid = try await client.control(.put, "/v1/identity/process", ["identity": "alice at contoso"])
            #expect(invalid.isError(.badRequest, "invalid_account"))
        }
    }
}
