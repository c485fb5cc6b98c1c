import Foundation
import Testing
import LocalServers

@testable import MockAuth

/// A page that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name as both
/// `Host` and `Origin`: the admin API answers only requests addressed to this server's names,
/// reads included; curl at 127.0.0.1 or localhost still works.
@Suite("Admin API and DNS rebinding")
struct AdminHostGuardTests {
    static func curl(_ arguments: [String]) async throws -> String {
        try await Command.run(
            "/usr/bin/curl", ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}"] + arguments, timeout: .seconds(90)).stdout
    }

    @Test("a foreign Host is refused on every admin route; the server's own names pass")
    func foreignHostIsRefused() async throws {
        let codes = try await LiveServer.run(https: false) { server -> [String] in
            let port = server.url.split(separator: ":").last.map(String.init) ?? ""
            let json = ["-H", "Content-Type: application/json", "--data", "{}"]
            return [
                try await Self.curl(["-H", "Host: attacker.test:\(port)", "-H", "Origin: http://attacker.test:\(port)"] + json + [server.url + "/_admin/reset"]),
                try await Self.curl(["-H", "Host: evil.example", server.url + "/_admin/state"]),
                try await Self.curl([server.url + "/_admin/state"]),
                try await Self.curl(["-H", "Host: localhost:\(port)", server.url + "/_admin/state"]),
                try await Self.curl(json + [server.url + "/_admin/reset"]),
            ]
        }
        #expect(codes == ["403", "403", "200", "200", "200"])
    }
}
