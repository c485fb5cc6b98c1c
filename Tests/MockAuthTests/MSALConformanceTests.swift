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

    /// Runs `script BASE_URL CERT_PEM arguments…` against a live https mockauth; its JSON report.
    static func report(of script: String, arguments: [String] = []) async throws -> JSONValue {
        let python = try await Self.python()
        // requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE override MSAL's session-level
        // `verify=cert.pem`; drop them so the self-signed certificate is what is trusted.
        var environment = ProcessInfo.processInfo.environment
        environment["REQUESTS_CA_BUNDLE"] = nil
        environment["CURL_CA_BUNDLE"] = nil
        environment["PYTHONDONTWRITEBYTECODE"] = "1"  // no __pycache__ beside the scripts
        let result = try await LiveServer.run(https: true) { [environment] server in
            try await Command.run(
                python, [script, server.url, server.certificatePath ?? ""] + arguments, timeout: .seconds(120),
                environment: environment)
        }
        try #require(!result.timedOut, "the MSAL script timed out; stderr: \(result.stderr)")
        try #require(result.status == 0, "the MSAL script failed: \(result.stderr)")
        return try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("auth code + PKCE, silent refresh, password, device code, 53005 with protapp and 53009 without")
    func msalPython() async throws {
        let report = try await Self.report(of: Self.script)

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

extension MSALConformanceTests {
    static let entraPathsScript = TestSupport.repositoryRoot.appendingPathComponent("Tests/MockAuthTests/msal_entra_paths.py").path

    /// Issue 52 items 1-5, each as MSAL Python does it.
    @Test("Graph scope User.Read, certificate credentials, on-behalf-of, /consumers, max_age")
    func msalEntraPaths() async throws {
        let certs = TestSupport.repositoryRoot.appendingPathComponent("mocks/fixtures/certs").path
        let report = try await Self.report(of: Self.entraPathsScript, arguments: [certs])
        #expect(report["msal_version"] == "1.39.0")

        let graph = try #require(report["graph_user_read"])
        #expect(graph["error"] == nil, "graph: \(graph)")
        #expect(graph["access_token_claims"]?["aud"] == "00000003-0000-0000-c000-000000000000")
        #expect(graph["access_token_claims"]?["scp"] == "User.Read")

        for name in ["certificate_sha1", "certificate_sha256", "certificate_again"] {
            let result = try #require(report[name])
            #expect(result["error"] == nil, "\(name): \(result)")
            #expect(result["access_token_claims"]?["azp"] == "contoso-daemon", "\(name)")
            #expect(result["access_token_claims"]?["azpacr"] == "2", "\(name)")
        }

        let obo = try #require(report["on_behalf_of"])
        #expect(obo["error"] == nil, "on-behalf-of: \(obo)")
        #expect(obo["access_token_claims"]?["oid"] == "b0b00000-0000-4000-8000-000000000b0b")
        #expect(obo["access_token_claims"]?["azp"] == "c4a7e2d9-5b1f-4e3a-9c8d-7f2b6a1e3d5c")
        #expect(obo["access_token_claims"]?["xms_cc"] == ["protapp"])

        let consumers = try #require(report["consumers"])
        #expect(consumers["error"] == nil, "consumers: \(consumers)")
        #expect(consumers["id_token_claims"]?["tid"] == "9188040d-6c67-4c5b-b112-36a304b66dad")
        #expect(report["consumers_accounts"] == ["00000000-0000-0000-5a7c-3e9b1d4f6a2c.9188040d-6c67-4c5b-b112-36a304b66dad"])

        let maxAge = try #require(report["max_age"])
        #expect(maxAge["error"] == nil, "max_age: \(maxAge)")
        #expect(maxAge["id_token_claims"]?["auth_time"]?.intValue != nil)
    }
}
