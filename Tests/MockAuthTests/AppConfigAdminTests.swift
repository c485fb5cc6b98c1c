import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// `PUT /_admin/app-config`: the configurations, checked field by field, reach each enrolled
/// user's MAM answer as `appConfig` (only those that apply to the user and the app).
@Suite struct AppConfigAdminTests {
    @Test func configurationsAreCheckedStoredAndTargeted() async throws {
        try await TestSupport.withRouterApp { client, state in
            let version = state.directory.mamPolicy.version
            let (status, body) = try await client.sendJSON("/_admin/app-config", method: .put, ["configs": [
                ["appId": "chatr", "isDefault": true, "settings": ["theme": "light"]],
                ["appId": "chatr", "users": ["Alice@contoso.com"], "settings": ["theme": "dark"]],
                ["appId": "other", "settings": ["theme": "blue"]],
            ]])
            #expect(status == .ok && body["configs"]?.arrayValue?.count == 3)
            #expect(state.directory.mamPolicy.version == version + 1, "a change bumps the policy version")
            let policy = state.directory.mamPolicy
            #expect(policy.appConfig(upn: "alice@contoso.com", appId: "chatr") == [["theme": "light", "__IsDefault": true], ["theme": "dark"]])
            #expect(policy.appConfig(upn: "bob@contoso.com", appId: "chatr") == [["theme": "light", "__IsDefault": true]])
            #expect(policy.appConfig(upn: "bob@contoso.com", appId: "nobody") == [])
            let (_, listed) = try await client.sendJSON("/_admin/app-config", method: .get)
            #expect(listed["configs"]?[1]?["users"] == ["alice@contoso.com"])
            let refusals: [(JSONValue, String)] = [
                (["configs": [["settings": ["a": "b"]]]], "configs[0].appId is required"),
                (["configs": [["appId": "chatr", "settings": ["n": 3]]]], "configs[0].settings.n must be a string"),
                (["configs": [["appId": "chatr", "isDefault": true, "users": ["a@b.c"], "settings": [:]]]], "the tenant default targets every user"),
                (["configs": [["appId": "chatr", "setting": [:]]]], "configs[0].setting is not a field"),
                (["configs": "none"], #"send {"configs": [...]}"#),
            ]
            for (request, message) in refusals {
                let (refused, error) = try await client.sendJSON("/_admin/app-config", method: .put, request)
                #expect(refused == .badRequest, "\(request)")
                #expect(error["error_description"]?.stringValue?.contains(message) == true, "\(error)")
            }
        }
    }
}
