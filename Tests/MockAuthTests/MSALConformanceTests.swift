import Foundation
import JSON
import Testing
import LocalServers

@testable import MockAuth

/// MSAL Python, pointed at mockauth over https, runs the auth-code flow with PKCE,
/// refreshes silently, and sees the CA answers as real Entra ID would produce them.
@Suite("MSAL Python conformance", .serialized)
struct MSALConformanceTests {
    static let script = TestSupport.repositoryRoot.appendingPathComponent("Tests/MockAuthTests/msal_conformance.py").path

    /// The virtualenv's interpreter, with MSAL Python 1.39.0 (pinned: the conformance checked is that release's).
    static func python() async throws -> String {
        try await PythonVenv.python("mockauth-msal-venv", packages: ["msal==1.39.0"], module: "msal")
    }

    @Test("auth code + PKCE, silent refresh, password, device code, 53005 with protapp and 53009 without")
    func msalPython() async throws {
        let python = try await Self.python()
        // requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override MSAL's session-level
        // `verify=cert.pem`; drop them so the self-signed certificate is what is trusted.
        var environment = ProcessInfo.processInfo.environment
        environment["REQUESTS_CA_BUNDLE"] = nil
        environment["CURL_CA_BUNDLE"] = nil
        let result = try await LiveServer.run(https: true) { [environment] server in
            try await Command.run(
                python, [Self.script, server.url, server.certificatePath ?? ""], timeout: .seconds(120),
                environment: environment)
        }
        try #require(!result.timedOut, "the MSAL script timed out; stderr: \(result.stderr)")
        try #require(result.status == 0, "the MSAL script failed: \(result.stderr)")
        let report = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        let bob = try #require(report["bob_auth_code"])
        #expect(bob["error"] == nil, "bob: \(bob)")
        #expect(bob["token_type"] == "Bearer")
        #expect(bob["access_token_claims"]?["xms_cc"] == ["protapp"])
        #expect(bob["access_token_claims"]?["upn"] == "bob@contoso.com")
        // MSAL sent a hashed nonce and checked the id_token carries it; a mismatch raises.
        #expect(bob["id_token_claims"]?["nonce"]?.stringValue?.count == 64)
        #expect(report["bob_redirect_keys"] == ["client_info", "code", "state"])
        #expect(report["bob_login_prefilled"] == "bob@contoso.com")
        #expect(report["bob_accounts"]?[0]?["home_account_id"] == .string("b0b00000-0000-4000-8000-000000000b0b.\(TestSupport.tenantId)"))

        let refresh = try #require(report["bob_refresh"])
        #expect(refresh["error"] == nil, "refresh: \(refresh)")
        #expect(refresh["access_token_claims"]?["xms_cc"] == ["protapp"])
        #expect(report["bob_refresh_new_token"] == true)

        let alice = try #require(report["alice_protapp"])
        #expect(alice["error"] == "unauthorized_client")
        #expect(alice["suberror"] == "protection_policy_required")
        #expect(alice["error_codes"] == [53005])
        #expect(alice["error_description_head"] == "AADSTS53005: Application needs to enforce Intune protection policies.")

        let password = try #require(report["bob_password"])
        #expect(password["error"] == nil, "password: \(password)")
        #expect(password["access_token_claims"]?["xms_cc"] == ["protapp"])

        #expect(report["device_flow_keys"] == ["device_code", "message", "user_code", "verification_uri"])
        #expect(report["device_approval_status"] == 200)
        let device = try #require(report["bob_device_code"])
        #expect(device["error"] == nil, "device code: \(device)")
        #expect(device["access_token_claims"]?["upn"] == "bob@contoso.com")

        let plain = try #require(report["alice_without_capabilities"])
        #expect(plain["error"] == "invalid_grant")
        #expect(plain["error_codes"] == [53009])
        #expect(plain["suberror"] == nil)
    }
}
