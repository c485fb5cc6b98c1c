import HummingbirdTesting
import JSON
import Testing

@testable import MockAuth

/// `protapp` is matched ignoring case, as Entra does: the SDK guide's Swift sample declares
/// `ProtApp`, and such an app meets the remediable 53005; the claim names stay exact.
@Suite struct CapabilityCaseTests {
    @Test(arguments: ["protapp", "ProtApp", "PROTAPP"])
    func anyCaseOfProtappGetsTheRemediable53005(value: String) async throws {
        try await TestSupport.withRouterApp { client, _ in
            let claims = #"{"access_token":{"xms_cc":{"values":["\#(value)"]}}}"#
            let (status, body) = try await client.passwordToken("alice@contoso.com", claims: claims)
            #expect(status == .badRequest)
            #expect(body["error_codes"] == [53005])
            #expect(body["suberror"] == "protection_policy_required")
        }
    }

    @Test func anotherValueOrAnotherClaimNameGets53009() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for claims in [#"{"access_token":{"xms_cc":{"values":["prot-app"]}}}"#, #"{"access_token":{"XMS_CC":{"values":["protapp"]}}}"#] {
                let (status, body) = try await client.passwordToken("alice@contoso.com", claims: claims)
                #expect(status == .badRequest)
                #expect(body["error_codes"] == [53009], "\(claims)")
            }
        }
    }
}
