import Foundation
import JSON
import Testing
import LocalServers

@testable import MockAuth

@Suite("The mockauth executable")
struct ExecutableTests {
    @Test("the first stdout line is `listening on https://127.0.0.1:PORT` and the server answers there")
    func listeningLine() async throws {
        let executable = ChildServer.executable("mockauth")
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build mockauth first: \(executable)")
        let tlsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-exe-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: tlsDirectory) }
        let server = try ChildServer("mockauth", arguments: [
            "serve", "--port", "0", "--fixtures", TestSupport.fixturesPath, "--tls-self-signed", tlsDirectory,
        ])
        let line = await server.firstLine(timeout: .seconds(30))
        let url = line.map { String($0.dropFirst("listening on ".count)) } ?? ""
        var curl: Command.Result?
        if line != nil {
            curl = try? await Command.run(
                "/usr/bin/curl", ["-sS", "--max-time", "10", "--cacert", tlsDirectory + "/cert.pem", url + "/contoso.com/discovery/v2.0/keys"],
                timeout: .seconds(20))
        }
        await server.stop()
        let listening = try #require(line, "no first line from mockauth")
        #expect(listening.wholeMatch(of: /listening on https:\/\/127\.0\.0\.1:\d{2,5}/) != nil, "\(listening)")
        #expect(curl?.status == 0, "curl: \(curl?.stderr ?? "not run")")
        #expect(try JSONValue.parse(curl?.stdout ?? "")["keys"]?[0]?["kty"] == "RSA")
    }

    @Test("SIGTERM stops the server, exit 0, even while a client never finishes its request body")
    func sigtermWithAStalledRequest() async throws {
        let server = try ChildServer("mockauth", arguments: ["serve", "--port", "0", "--fixtures", TestSupport.fixturesPath])
        let line = try #require(await server.firstLine(timeout: .seconds(30)), "no first line: \(server.stderr)")
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) })
        // A request whose body says 10 bytes and sends 2, on a connection kept open.
        let client = try StalledClient(port: port, bytes: "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
        try await Task.sleep(for: .milliseconds(300))  // the server reads the head and waits for the rest
        server.child.send(SIGTERM)
        let stopped = await server.waitForExit(timeout: .seconds(60))  // the grace is 5 s
        client.close()
        await server.stop()
        #expect(stopped, "mockauth still waits for the stalled request after SIGTERM")
        #expect(server.exitStatus == .exited(0))
    }

    @Test("bad options exit with a usage error")
    func badOptions() async throws {
        let executable = ChildServer.executable("mockauth")
        try #require(FileManager.default.isExecutableFile(atPath: executable))
        let result = try await Command.run(executable, ["serve", "--tls-cert", "x.pem"], timeout: .seconds(20))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--tls-cert and --tls-key go together"))
    }
}

/// A loopback TCP client that sends some bytes and then neither sends more nor closes.
final class StalledClient: Sendable {
    let descriptor: Int32

    init(port: UInt16, bytes: String) throws {
        descriptor = try RawHTTPClient.connected(port: Int(port), sending: bytes)
    }

    func close() { Glibc.close(descriptor) }
}
