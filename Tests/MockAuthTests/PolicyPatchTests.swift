import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// `PATCH /_admin/policy` is a JSON merge patch over the settings: null removes a setting;
/// the data-protection settings take only their known values.
@Suite struct PolicyPatchTests {
    @Test func nullRemovesASettingAndValuesAreChecked() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (status, body) = try await client.sendJSON("/_admin/policy", method: .patch, ["saveToLocations": .null, "notificationRestriction": "block"])
            #expect(status == .ok)
            #expect(body["saveToLocations"] == nil && body["notificationRestriction"] == "block")
            #expect(state.directory.mamPolicy.settings["saveToLocations"] == nil)
            for (name, value) in [("saveToLocations", JSONValue.array(["iCloud"])), ("inboundDataTransfer", "some"), ("notificationRestriction", "quiet")] {
                let (refused, error) = try await client.sendJSON("/_admin/policy", method: .patch, .object(JSONObject([(name, value)])))
                #expect(refused == .badRequest, "\(name)")
                #expect(error["error_description"]?.stringValue?.contains("policy setting '\(name)' cannot be") == true, "\(error)")
            }
        }
    }
}
