import ChildProcess
import Foundation
import LocalServers
import Testing

/// docs/testing-your-app.md and its examples (docs/examples/): the MSAL Python and curl examples
/// pass against a real mockauth (a child process on 127.0.0.1, port 0, https), the guide's CI
/// job and own-tenant commands run as written, and every code block the guide takes from an
/// example is a verbatim part of that file, so the guide cannot drift from what is tested.
@Suite("docs/testing-your-app.md", .serialized)
struct AppTeamGuideTests {
    static let root = InProcessMockAuth.packageRoot
    static let guide = root.appendingPathComponent("docs/testing-your-app.md").path
    static let examples = root.appendingPathComponent("docs/examples")

    @Test("msal_app_test.py and curl-walkthrough.sh pass against mockauth")
    func examplesPass() async throws {
        let python = try await Self.python()
        try await Self.withMockAuth([]) { url, certificate in
            let msal = try await Command.run(
                python, [Self.examples.appendingPathComponent("msal_app_test.py").path, url, "--cacert", certificate],
                timeout: .seconds(120), environment: Self.environment())
            try Self.require(msal, "msal_app_test.py")
            let curl = try await Command.run(
                "/bin/bash", [Self.examples.appendingPathComponent("curl-walkthrough.sh").path, url, certificate],
                timeout: .seconds(120), environment: Self.environment(), graceful: .seconds(10))
            try Self.require(curl, "curl-walkthrough.sh")
            // The 53005 / 53009 / wipe / fault steps ran (not skipped by an early exit 0).
            for step in ["2 53005 with protapp", "3 53009 without protapp", "6 the request log names", "7 check-in gets the wipe"] {
                #expect(msal.stdout.contains("ok   " + step) || curl.stdout.contains("ok   " + step), "no step \(step)")
            }
        }
    }

    @Test("every block the guide shows from an example is a verbatim part of it; every code block is marked")
    func guideQuotesTheExamples() throws {
        let blocks = try Self.blocks()
        var quoted = 0
        for block in blocks {
            guard let marker = block.marker else {
                Issue.record("line \(block.line): a \(block.language) block without a marker (from: FILE, run: NAME, fixture: FILE, not run: why)")
                continue
            }
            guard marker.hasPrefix("from: ") else { continue }
            let path = String(marker.dropFirst("from: ".count))
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(("\n" + file).contains("\n" + block.text + "\n"), "line \(block.line): the block is not a verbatim part of \(path):\n\(block.text)")
            quoted += 1
        }
        #expect(quoted >= 6, "the guide quotes \(quoted) example parts")
        let markers = Set(blocks.compactMap(\.marker))
        for needed in ["run: ci-job", "run: own-tenant", "fixture: fabrikam.json", "from: docs/examples/msal_app_test.py", "from: docs/examples/curl-walkthrough.sh"] {
            #expect(markers.contains(needed), "no block marked \(needed)")
        }
        // The pins the guide states are those of requirements.txt, which the tests install.
        let guide = try String(contentsOfFile: Self.guide, encoding: .utf8)
        for pin in try Self.pins() {
            #expect(guide.contains("`\(pin)`"), "the guide does not state the pin \(pin)")
        }
    }

    @Test("the guide's CI job runs as written and leaves no process behind")
    func ciJobRuns() async throws {
        let python = try await Self.python()
        let job = try #require(Self.blocks().first { $0.marker == "run: ci-job" }).text
        // The servers the job starts inherit this marker: afterwards none may be left.
        let marker = "APP_GUIDE_TEST_RUN=\(UUID().uuidString)"
        var environment = Self.environment()
        environment["APP_GUIDE_TEST_RUN"] = String(marker.split(separator: "=")[1])
        let bin = URL(fileURLWithPath: ChildServer.executable("mockauth")).deletingLastPathComponent().path
        environment["PATH"] = "\(URL(fileURLWithPath: python).deletingLastPathComponent().path):\(bin):/usr/bin:/bin"
        // A SIGTERM at the timeout ends the job through its EXIT trap, which stops its servers.
        let script = "cd '\(Self.root.path)'\ntrap 'exit 143' TERM\n" + job
        let run = try await Command.run("/bin/bash", ["-c", script], timeout: .seconds(240), environment: environment, graceful: .seconds(30))
        var left = RunInterruptTests.processes(with: marker, besides: getpid())
        let deadline = ContinuousClock.now + .seconds(10)
        while !left.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            left = RunInterruptTests.processes(with: marker, besides: getpid())
        }
        for pid in left { kill(pid, SIGKILL) }  // never leave them behind, even when the test fails
        #expect(left.isEmpty, "the CI job left processes running: \(left)")
        try Self.require(run, "the guide's CI job")
        #expect(run.stdout.components(separatedBy: "all checks passed").count == 3, "both examples: \(run.stdout)")
        #expect(run.stdout.contains("2 of 2 flows passed"), "\(run.stdout)")
        #expect(run.stdout.contains("alice@contoso.com: Compliant (0) — signed in"), "\(run.stdout)")
    }

    @Test("the guide's own-tenant fixture and command work")
    func ownTenantRuns() async throws {
        let python = try await Self.python()
        let blocks = try Self.blocks()
        let fixture = try #require(blocks.first { $0.marker == "fixture: fabrikam.json" }).text
        let lines = try #require(blocks.first { $0.marker == "run: own-tenant" }).text.split(separator: "\n").map(String.init)
        let serve = try #require(lines.first { $0.hasPrefix("mockauth serve ") })
        let test = try #require(lines.first { $0.hasPrefix("python docs/examples/msal_app_test.py ") })
        let directory = NSTemporaryDirectory() + "app-guide-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixturePath = directory + "/fabrikam.json"
        try fixture.write(toFile: fixturePath, atomically: true, encoding: .utf8)
        // `mockauth serve` arguments up to the redirections, with the guide's file name.
        let serveArguments = Self.words(serve).dropFirst(2).prefix { !$0.hasPrefix(">") && $0 != "2>" }
        let fixturesIndex = try #require(serveArguments.firstIndex(of: "--fixtures"))
        #expect(serveArguments[fixturesIndex + 1] == "fabrikam.json")
        let extra = Array(serveArguments).filter { !["--port", "0", "--tls-self-signed", "$DIR/tls", "fabrikam.json", "--fixtures"].contains($0) }
        #expect(extra.isEmpty, "arguments this test does not pass: \(extra)")
        try await Self.withMockAuth(["--fixtures", fixturePath]) { url, certificate in
            let arguments = Self.words(test).dropFirst().map { $0 == "$URL" ? url : $0 == "$CERT" ? certificate : $0 }
            let run = try await Command.run(
                python, [Self.root.appendingPathComponent(arguments[0]).path] + arguments.dropFirst(), timeout: .seconds(120),
                environment: Self.environment())
            try Self.require(run, "msal_app_test.py against the guide's own-tenant fixture")
            #expect(run.stdout.contains("ok   2 53005 with protapp"), "\(run.stdout)")
        }
    }

    // MARK: - Support

    /// The virtualenv `.build/app-guide-venv` with docs/examples/requirements.txt's pins.
    static func python() async throws -> String {
        try await PythonVenv.python("app-guide-venv", packages: try pins(), module: "msal, jwt, cryptography, requests")
    }

    static func pins() throws -> [String] {
        try String(contentsOf: examples.appendingPathComponent("requirements.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Ours, without the variables that make `requests` ignore MSAL's `verify=`.
    static func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["REQUESTS_CA_BUNDLE"] = nil
        environment["CURL_CA_BUNDLE"] = nil
        return environment
    }

    /// mockauth (`serve --port 0 --tls-self-signed DIR` + `arguments`) as a child process for
    /// `body`, with its URL and certificate; stopped afterwards, whatever `body` did.
    static func withMockAuth(_ arguments: [String], _ body: (String, String) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "app-guide-tls-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ChildServer("mockauth", arguments: ["serve", "--port", "0", "--tls-self-signed", directory] + arguments)
        guard let line = await server.firstLine(timeout: .seconds(30)), line.hasPrefix("listening on https://127.0.0.1:") else {
            let stderr = server.stderr
            await server.stop()
            throw CLIError("mockauth did not start: \(stderr)")
        }
        do {
            try await body(String(line.dropFirst("listening on ".count)), directory + "/cert.pem")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Fails with the command's output unless it ended with 0.
    static func require(_ result: Command.Result, _ what: String) throws {
        try #require(
            result.status == 0 && !result.timedOut,
            "\(what) ended with \(result.status) (timed out: \(result.timedOut))\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)")
    }

    /// Words of a shell line, with double quotes removed (the guide's commands quote no spaces).
    static func words(_ line: String) -> [String] {
        line.split(separator: " ").map { $0.replacingOccurrences(of: "\"", with: "") }
    }

    /// A fenced code block of the guide and the `<!-- marker -->` line just before it.
    struct Block {
        var line: Int
        var language: String
        var marker: String?
        var text: String
    }

    /// The sh, python and json blocks of `file` (the guide by default); fences may be indented
    /// (a block inside a list item), with their marker indented alike.
    static func blocks(of file: String = guide) throws -> [Block] {
        let raw = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let lines = raw.map { $0.trimmingCharacters(in: .whitespaces) }
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else { index += 1; continue }
            let language = String(line.dropFirst(3))
            let end = try #require(lines[(index + 1)...].firstIndex(of: "```"), "\(file):\(index + 1): the block is not closed")
            if ["sh", "python", "json"].contains(language) {
                let previous = index > 0 ? lines[index - 1] : ""
                let marker = previous.hasPrefix("<!-- ") && previous.hasSuffix(" -->") ? String(previous.dropFirst(5).dropLast(4)) : nil
                blocks.append(Block(line: index + 1, language: language, marker: marker, text: raw[(index + 1)..<end].joined(separator: "\n")))
            }
            index = end + 1
        }
        return blocks
    }
}
