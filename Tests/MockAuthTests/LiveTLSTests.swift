import Foundation
import JSON
import Testing
import LocalServers

@testable import MockAuth

/// The real server over https with a self-signed certificate, checked by curl with
/// `--cacert` (chain and SAN verification, both for 127.0.0.1 and localhost).
@Suite("Live https server")
struct LiveTLSTests {
    @Test("discovery and a token over https; the certificate verifies for 127.0.0.1 and localhost")
    func httpsWithSelfSignedCertificate() async throws {
        let outputs = try await LiveServer.run(https: true) { server in
            #expect(server.url.hasPrefix("https://127.0.0.1:"))
            let cert = try #require(server.certificatePath)
            let discovery = try await Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "10", "--cacert", cert, server.url + "/contoso.com/v2.0/.well-known/openid-configuration"],
                timeout: .seconds(20))
            let viaLocalhost = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let token = try await Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "10", "--cacert", cert, viaLocalhost + "/organizations/oauth2/v2.0/token",
                    "-d", "grant_type=password&client_id=chatr&username=bob@contoso.com&password=Passw0rd!&scope=openid%20api://contoso-chat/Chat.Read"],
                timeout: .seconds(20))
            let untrusted = try await Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "10", server.url + "/contoso.com/discovery/v2.0/keys"], timeout: .seconds(20))
            return (discovery, token, untrusted, server.url)
        }
        let (discovery, token, untrusted, url) = outputs
        #expect(discovery.status == 0, "curl: \(discovery.stderr)")
        let configuration = try JSONValue.parse(discovery.stdout)
        #expect(configuration["issuer"] == .string("\(url)/\(TestSupport.tenantId)/v2.0"))
        #expect(configuration["token_endpoint"] == .string("\(url)/\(TestSupport.tenantId)/oauth2/v2.0/token"))
        #expect(token.status == 0, "curl: \(token.stderr)")
        let body = try JSONValue.parse(token.stdout)
        #expect(body.jwtClaims("access_token")?["iss"]?.stringValue?.hasPrefix("https://localhost:") == true)
        // Without the certificate, verification fails (curl exit 60).
        #expect(untrusted.status == 60)
    }
}
