import JSON
import Testing

/// `AccountRoutes` at the router: accounts, sign-in, token, remediate, deregister.
@Suite struct AccountRouterTests {
    static let user: JSONValue = ["action": "signIn", "password": "Passw0rd!"]

    @Test func signInThenTheAccountIsListed() async throws {
        try await RouterSupport.withRouter { client, _ in
            let empty = try await client.control(.get, "/v1/accounts")
            #expect(empty.status == .ok && empty.json["accounts"] == [])
            let signIn = try await client.control(
                .post, "/v1/sign-in", ["account": "Bob@Contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "user": Self.user])
            #expect(signIn.status == .ok && signIn.json["account"] == "bob@contoso.com" && signIn.json["signedIn"] == true)
            #expect(signIn.json["status"]?["name"] != nil && signIn.json["token"]?["accessToken"]?.stringValue?.isEmpty == false)
            let one = try await client.control(.get, "/v1/accounts/BOB@contoso.com")
            #expect(one.status == .ok && one.json["account"] == "bob@contoso.com" && one.json["signedIn"] == true)
            let token = try await client.control(.post, "/v1/token", ["account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"]])
            #expect(token.status == .ok && token.json["fromCache"] == true)
        }
    }

    @Test func badInputIsA400NamingWhatWasWrong() async throws {
        try await RouterSupport.withRouter { client, _ in
            let notJSON = try await client.control(.post, "/v1/sign-in", raw: Array(#"{"account": "#.utf8))
            #expect(notJSON.isError(.badRequest, "bad_request") && notJSON.message.contains("not valid JSON"))
            let unknownField = try await client.control(.post, "/v1/sign-in", ["account": "alice@contoso.com", "pasword": "x"])
            #expect(unknownField.isError(.badRequest, "bad_request") && unknownField.message.contains("'pasword'"))
            let noScopes = try await client.control(.post, "/v1/token", ["account": "alice@contoso.com"])
            #expect(noScopes.isError(.badRequest, "bad_request") && noScopes.message.contains("'scopes' is required"))
            let action = try await client.control(.post, "/v1/remediate", ["account": "alice@contoso.com", "user": ["action": "dance"]])
            #expect(action.isError(.badRequest, "bad_request") && action.message.contains("user.action"))
            let wipe = try await client.control(.post, "/v1/deregister", ["account": "alice@contoso.com", "wipe": "yes"])
            #expect(wipe.isError(.badRequest, "bad_request") && wipe.message.contains("'wipe'"))
            let tooBig = try await client.control(.post, "/v1/sign-in", raw: Array(repeating: UInt8(ascii: " "), count: (64 << 10) + 1))
            #expect(tooBig.isError(.contentTooLarge, "payload_too_large"))
        }
    }

    @Test func theEnginesRefusalsCarryTheirCodeAndStatus() async throws {
        try await RouterSupport.withRouter { client, _ in
            let invalid = try await client.control(.post, "/v1/sign-in", ["account": "alice at contoso"])
            #expect(invalid.isError(.badRequest, "invalid_account"))
            let unknown = try await client.control(.get, "/v1/accounts/nobody@contoso.com")
            #expect(unknown.isError(.notFound, "unknown_account"))
            let deregister = try await client.control(.post, "/v1/deregister", ["account": "nobody@contoso.com"])
            #expect(deregister.isError(.notFound, "unknown_account"))
            let nobody = try await client.control(.post, "/v1/sign-in", ["silent": true])
            #expect(nobody.isError(.unprocessableContent, "account_required"))
        }
    }
}
