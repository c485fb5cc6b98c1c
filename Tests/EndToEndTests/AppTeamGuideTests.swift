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
            // The capability in any case: the issuer echoes ProtApp, the API check takes it.
            #expect(msal.stdout.contains("ok   1 token declaring ProtApp: the API accepts it"), "\(msal.stdout)")
            #expect(curl.stdout.contains("ok   1 ProtApp (any case) is protapp: the API accepts it"), "\(curl.stdout)")
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
        let job = try #require(Self.blocks().first { $0.marker == "run: ci-job" }).text
        let run = try await Self.runJob(job, python: try await Self.python())
        try Self.require(run, "the guide's CI job")
        #expect(run.stdout.components(separatedBy: "all checks passed").count == 3, "both examples: \(run.stdout)")
        #expect(run.stdout.contains("2 of 2 flows passed"), "\(run.stdout)")
        #expect(run.stdout.contains("alice@contoso.com: Compliant (0) — signed in"), "\(run.stdout)")
    }

    @Test("a mockauth that fails to start in the CI job shows its reason, not only kill's")
    func ciJobShowsWhyTheMockDidNotStart() async throws {
        let job = try #require(Self.blocks().first { $0.marker == "run: ci-job" }).text
        let directory = NSTemporaryDirectory() + "app-guide-fake-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let reason = "fixtures: $.users[0].upn: must be a non-empty string"
        try "#!/bin/sh\necho 'mockauth: \(reason)' >&2\nexit 2\n".write(toFile: directory + "/mockauth", atomically: true, encoding: .utf8)
        chmod(directory + "/mockauth", 0o755)
        let run = try await Self.runJob(job, python: "/usr/bin/python3", first: directory)
        #expect(run.status == 1 && !run.timedOut, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("mockauth did not start:") && run.stderr.contains(reason), "\(run.stderr)")
        #expect(!run.stderr.contains("No such process"), "\(run.stderr)")
    }

    @Test("the guide's own-tenant fixture and lines work in the CI job as the guide says")
    func ownTenantRuns() async throws {
        let python = try await Self.python()
        let blocks = try Self.blocks()
        let fixture = try #require(blocks.first { $0.marker == "fixture: fabrikam.json" }).text
        let own = try #require(blocks.first { $0.marker == "run: own-tenant" }).text.split(separator: "\n").map(String.init)
        try #require(own.count == 2)
        let directory = NSTemporaryDirectory() + "app-guide-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixturePath = directory + "/fabrikam.json"
        try fixture.write(toFile: fixturePath, atomically: true, encoding: .utf8)
        // The CI job, changed as the guide says: the serve line, the two example lines, and
        // nothing from "# The device side" on.
        var lines = try #require(blocks.first { $0.marker == "run: ci-job" }).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let serve = try #require(lines.firstIndex { $0.hasPrefix("mockauth serve ") })
        #expect(own[0].contains(" --fixtures fabrikam.json "))
        lines[serve] = own[0].replacingOccurrences(of: " --fixtures fabrikam.json ", with: " --fixtures '\(fixturePath)' ")
        let msal = try #require(lines.firstIndex { $0.contains("python docs/examples/msal_app_test.py") })
        lines[msal] = own[1]
        let curl = try #require(lines.firstIndex { $0.hasPrefix("docs/examples/curl-walkthrough.sh ") })
        lines.remove(at: curl)
        let device = try #require(lines.firstIndex { $0.hasPrefix("# The device side") })
        let run = try await Self.runJob(lines[..<device].joined(separator: "\n"), python: python)
        try Self.require(run, "the CI job with the guide's own-tenant lines")
        #expect(run.stdout.contains("ok   2 53005 with protapp") && run.stdout.contains("all checks passed"), "\(run.stdout)")
    }

    /// Runs a job of the guide from the repository root with `python` and the built programs
    /// (after `first`, when given) on PATH; afterwards no process it started may be left.
    static func runJob(_ job: String, python: String, first: String? = nil) async throws -> Command.Result {
        // The servers the job starts inherit this marker: afterwards none may be left.
        let marker = "APP_GUIDE_TEST_RUN=\(UUID().uuidString)"
        var environment = Self.environment()
        environment["APP_GUIDE_TEST_RUN"] = String(marker.split(separator: "=")[1])
        let bin = URL(fileURLWithPath: ChildServer.executable("mockauth")).deletingLastPathComponent().path
        environment["PATH"] = (first.map { [$0] } ?? []).joined() + (first == nil ? "" : ":")
            + "\(URL(fileURLWithPath: python).deletingLastPathComponent().path):\(bin):/usr/bin:/bin"
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
        #expect(left.isEmpty, "the job left processes running: \(left)")
        return run
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
