import Foundation
import JSON
import Testing
import LocalServers

@testable import Daemon

/// A browser running as the daemon's own user passes the peer check; the control API still
/// refuses what a web page can send (an Origin header; on TCP, a foreign Host).
@Suite struct BrowserGuardTests {

    @Test func aWebPageCannotWipeAnAccountOverLoopbackTCPOrTheSocket() async throws {
        try await DaemonProcess.withListening { daemon in try await Self.check(daemon) }
    }

    static func check(_ daemon: DaemonProcess) async throws {
        let port = try #require(daemon.listeningPort)
        let signedIn = try await daemon.call(
            .post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
        #expect(signedIn.json["signedIn"] == true, "\(signedIn.json)")
        let wipe = #"{"account":"bob@contoso.com","wipe":true}"#
        let tcp = "http://127.0.0.1:\(port)/v1/deregister"
        let socket = daemon.stateDirectory + "/control.sock"
        // What a page posts cross-site (text/plain needs no preflight), over TCP and over the socket.
        for (name, arguments) in [
            ("tcp, Origin", [tcp, "-H", "Origin: http://evil.example"]),
            ("tcp, rebound Host", [tcp, "-H", "Host: evil.example:\(port)"]),
            ("socket, Origin", ["--unix-socket", socket, "http://localhost/v1/deregister", "-H", "Origin: http://evil.example"]),
        ] {
            let result = try await Command.run(
                PeerAccessTests.curl, ["-sS", "--max-time", "10", "-X", "POST", "-H", "Content-Type: text/plain", "-d", wipe, "-w", "\n%{http_code}"] + arguments,
                timeout: .seconds(20))
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.last == "403", "\(name): \(result.stdout) \(result.stderr)")
            let code = lines.first.flatMap { try? JSONValue.parse(String($0)) }?["error"]?["code"]?.stringValue
            #expect(code == (name.contains("Host") ? "forbidden_host" : "forbidden_origin"), "\(name): \(result.stdout)")
        }
        let account = try await daemon.call(.get, "/v1/accounts/bob@contoso.com")
        #expect(account.json["signedIn"] == true && account.json["wipe"] != "done", "bob untouched: \(account.json)")
        // The CLI's way (no Origin, Host 127.0.0.1 or localhost) still works over TCP.
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "localhost"] {
            let health = try await Command.run(
                PeerAccessTests.curl, ["-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", "http://127.0.0.1:\(port)/v1/health"],
                timeout: .seconds(20))
            #expect(health.stdout == "200", "Host \(host): \(health.stdout)")
        }
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.0.0.1:8080", true), ("localhost", true), ("LOCALHOST:1", true), ("[::1]", true), ("[::1]:9", true),
        (nil, false), ("evil.example", false), ("127.0.0.1.evil.example", false), ("localhost:80@evil", false), ("[::1]x", false),
        ("127.0.0.2", false), ("", false),
    ] as [(String?, Bool)])
    func loopbackHosts(host: String?, allowed: Bool) {
        #expect(BrowserGuardMiddleware.isLoopbackHost(host) == allowed)
    }
}
