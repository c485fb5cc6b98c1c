import Foundation
import JSON
import Testing
import TestSupport

@testable import MockAuth

@Suite("The mockauth executable")
struct ExecutableTests {
    @Test("the first stdout line is `listening on https://127.0.0.1:PORT` and the server answers there")
    func listeningLine() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServerProcess.executable), "build mockauth first: \(ServerProcess.executable)")
        let tlsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-exe-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: tlsDirectory) }
        let server = try ServerProcess(arguments: [
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

    @Test("bad options exit with a usage error")
    func badOptions() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: ServerProcess.executable))
        let result = try await Command.run(ServerProcess.executable, ["serve", "--tls-cert", "x.pem"], timeout: .seconds(20))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--tls-cert and --tls-key go together"))
    }
}
