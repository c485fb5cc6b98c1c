import JSON
import Testing

/// `SettingsRoutes` at the router: the settings in force and the runtime overrides.
@Suite struct SettingsRouterTests {
    @Test func anOverrideIsSetAndCleared() async throws {
        try await RouterSupport.withRouter { client, _ in
            let before = try await client.control(.get, "/v1/settings")
            #expect(before.status == .ok)
            let set = try await client.control(.put, "/v1/settings/overrides", ["aadRedirectUriOverride": "chatr://com.contoso.chatr"])
            #expect(set.status == .ok && set.json != before.json)
            let cleared = try await client.control(.put, "/v1/settings/overrides", ["aadRedirectUriOverride": .null])
            #expect(cleared.status == .ok && cleared.json == before.json)
        }
    }

    @Test func badInputIsA400NamingTheField() async throws {
        try await RouterSupport.withRouter { client, _ in
            let number = try await client.control(.put, "/v1/settings/overrides", ["aadClientIdOverride": 5])
            #expect(number.isError(.badRequest, "bad_request") && number.message.contains("'aadClientIdOverride' must be a string (set) or null"))
            let unknown = try await client.control(.put, "/v1/settings/overrides", ["aadAuthority": "x"])
            #expect(unknown.isError(.badRequest, "bad_request") && unknown.message.contains("'aadAuthority'"))
            let authority = try await client.control(.put, "/v1/settings/overrides", ["aadAuthorityUriOverride": "https://user@login.example/t"])
            #expect(authority.isError(.badRequest, "bad_request"), "the engine refuses an authority with user information")
        }
    }
}
