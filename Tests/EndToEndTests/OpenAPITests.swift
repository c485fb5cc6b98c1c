import ChildProcess
import Foundation
import LocalServers
import Testing

/// docs/openapi/control-api.yaml and docs/openapi/mockauth.yaml are kept true: schemathesis
/// (pinned in openapi/requirements.txt, installed once into `.build/schemathesis-venv`) sends
/// property-based requests, generated from each document, to a real mockauth and a real
/// complianced (children of this test, on loopback and a unix socket), and checks that no answer
/// is a 5xx and that each status, content type and body is one the document describes
/// (openapi/check_api.py, bounded: at most 15 cases per operation and mode, a fixed seed).
@Suite struct OpenAPITests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi")

    /// The pinned packages: openapi/requirements.txt without comments.
    static func pins() throws -> [String] {
        let text = try String(contentsOf: folder.appendingPathComponent("requirements.txt"), encoding: .utf8)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// A built server started as a child; stopped (and the failure said) when it prints no ready line.
    static func start(_ name: String, _ arguments: [String]) async throws -> (ChildServer, String) {
        let server = try ChildServer(name, arguments: arguments)
        guard let line = await server.firstLine(timeout: .seconds(60)), line.hasPrefix("listening on ") else {
            await server.stop()
            throw CLIError("\(name) did not start: \(server.stderr)")
        }
        return (server, String(line.dropFirst("listening on ".count)))
    }

    @Test func theDocumentsDescribeWhatTheServersAnswer() async throws {
        let python = try await PythonVenv.python("schemathesis-venv", packages: try Self.pins(), module: "schemathesis")
        let directory = NSTemporaryDirectory() + "openapi-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let (mock, url) = try await Self.start("mockauth", [
            "serve", "--host", "127.0.0.1", "--port", "0", "--fixtures", CLI.root + "/mocks/fixtures/contoso.json", "--log-level", "warning",
        ])
        let daemon: ChildServer
        do {
            (daemon, _) = try await Self.start("complianced", [
                "--state-dir", directory, "--app", CLI.root + "/mocks/fixtures/apps/chatr-Info.plist",
                "--authority", url + "/contoso.com", "--clock", "virtual", "--log-level", "warning",
            ])
        } catch {
            await mock.stop()
            throw error
        }
        let started = ContinuousClock.now
        let result: Command.Result
        do {
            result = try await Command.run(
                python, [Self.folder.appendingPathComponent("check_api.py").path, "--mockauth", url, "--control-socket", directory + "/control.sock"],
                timeout: .seconds(600))
        } catch {
            await daemon.stop()
            await mock.stop()
            throw error
        }
        await daemon.stop()
        await mock.stop()
        let summary = result.stdout.split(separator: "\n").suffix(4).joined(separator: "\n")
        print("OpenAPITests: check_api.py ran \(ContinuousClock.now - started):\n\(summary)")
        #expect(!result.timedOut, "check_api.py did not finish in 600 s:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.status == 0, "check_api.py found answers the documents do not describe:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("openapi checks: passed"), "\(result.stdout)\n\(result.stderr)")
    }
}
