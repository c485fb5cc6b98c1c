import JSON
import Testing

/// `InteractionRoutes` at the router: open, read and cancel a sign-in interaction.
@Suite struct InteractionRouterTests {
    @Test func openReadAndCancel() async throws {
        try await RouterSupport.withRouter { client, _ in
            let opened = try await client.control(.post, "/v1/interactions", ["kind": "deviceCode"])
            #expect(opened.status == .created && opened.json["kind"] == "deviceCode" && opened.json["state"] == "pending")
            let id = try #require(opened.json["id"]?.stringValue)
            let read = try await client.control(.get, "/v1/interactions/\(id)")
            #expect(read.status == .ok && read.json["id"] == .string(id))
            let cancelled = try await client.control(.delete, "/v1/interactions/\(id)")
            #expect(cancelled.status == .ok && cancelled.json["cancelled"] == true)
            let gone = try await client.control(.get, "/v1/interactions/\(id)")
            #expect(gone.isError(.notFound, "not_found"))
        }
    }

    @Test func badInputIsNamed() async throws {
        try await RouterSupport.withRouter { client, _ in
            let kind = try await client.control(.post, "/v1/interactions", ["kind": "carrier pigeon"])
            #expect(kind.isError(.badRequest, "bad_request") && kind.message.contains("\"browser\" or \"deviceCode\""))
            let opened = try await client.control(.post, "/v1/interactions", ["kind": "browser"])
            let id = try #require(opened.json["id"]?.stringValue)
            let wait = try await client.control(.get, "/v1/interactions/\(id)?wait=70000")
            #expect(wait.isError(.badRequest, "bad_request") && wait.message.contains("'wait'"))
            let unknown = try await client.control(.delete, "/v1/interactions/nope")
            #expect(unknown.isError(.notFound, "not_found"))
            let wrongKind = try await client.control(
                .post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "deviceCode", "interaction": .string(id)]])
            #expect(wrongKind.isError(.badRequest, "bad_request") && wrongKind.message.contains("is a browser interaction"))
        }
    }

    /// A request refused before it showed anything (silent with a person, no scope, a bad
    /// account) gives the interaction back: the next request naming it is not told it was used.
    @Test func aRefusedRequestLeavesTheInteractionUnused() async throws {
        try await RouterSupport.withRouter { client, _ in
            let opened = try await client.control(.post, "/v1/interactions", ["kind": "browser"])
            let id = try #require(opened.json["id"]?.stringValue)
            let user: JSONValue = ["action": "browser", "interaction": .string(id)]
            let silent = try await client.control(.post, "/v1/token", ["account": "alice@contoso.com", "scopes": ["x"], "silent": true, "user": user])
            #expect(silent.isError(.badRequest, "bad_request") && silent.message.contains("silent request carries no credentials"))
            let noScope = try await client.control(.post, "/v1/token", ["account": "alice@contoso.com", "scopes": [], "silent": false, "user": user])
            #expect(noScope.isError(.badRequest, "bad_request"), "\(noScope.message)")
            let badAccount = try await client.control(.post, "/v1/sign-in", ["account": "not an account", "user": user])
            #expect(badAccount.isError(.badRequest, "invalid_account"), "\(badAccount.message)")
            let again = try await client.control(.post, "/v1/remediate", ["account": "alice@contoso.com", "silent": true, "user": user])
            #expect(again.isError(.badRequest, "bad_request"), "still unused: \(again.message)")
            let read = try await client.control(.get, "/v1/interactions/\(id)")
            #expect(read.json["state"] == "pending")
        }
    }
}
