import Foundation
import JSON
import LocalServers
import Testing

/// `compliancectl run --junit FILE` (issue 51 point 4): the report CI systems read, parsed by
/// junitparser (PyPI, pinned) as a CI report reader would.
@Suite struct JUnitReportTests {
    static let junitparser = "junitparser==5.0.3"
    static let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("junit/read_junit.py").path

    /// A passing flow, a failing one and a web-only flow whose name needs escaping: one
    /// testcase each, the failure with its step, expected and got, and the last events.
    @Test func oneTestcasePerFlowWithTheFailureStory() async throws {
        let python = try await PythonVenv.python("junitparser-venv", packages: [Self.junitparser], module: "junitparser")
        let directory = NSTemporaryDirectory() + "junit-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A web flow renamed: markup, quotes, a tab and a control character in its name.
        var web = try #require(try JSONValue.parse(String(contentsOfFile: CLI.root + "/flows/web-appbound-browser-app.json", encoding: .utf8)).objectValue)
        web["name"] = "web <&\"quoted\">\tü\u{1}"
        web["app"] = .string(CLI.root + "/mocks/fixtures/apps/appbound-browser-Info.plist")
        web["entitlements"] = .string(CLI.root + "/mocks/fixtures/apps/appbound-browser.entitlements")
        try Data(JSONValue.object(web).encoded()).write(to: URL(fileURLWithPath: directory + "/odd name.json"))
        let report = directory + "/report.xml"

        let result = try await CLI.run([
            "run", CLI.root + "/flows/seed-mam-ca-always-applied.json", CLI.brokenFlows + "/broken-expectation.json", directory + "/odd name.json",
            "--junit", report,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("2 of 3 flows passed"), "\(result.stdout)")
        let parsed = try await Command.run(python, [Self.reader, report], timeout: .seconds(60))
        #expect(parsed.status == 0, "junitparser: \(parsed.stderr)")
        let xml = try JSONValue.parse(parsed.stdout)
        #expect(xml["tag"] == "testsuites")
        #expect(xml["tests"] == 3 && xml["failures"] == 1 && xml["errors"] == 0, "\(xml)")
        let suites = xml["suites"]?.arrayValue ?? []
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        #expect(suite["name"] == "compliancectl run")
        #expect(suite["tests"] == 3 && suite["failures"] == 1 && suite["errors"] == 0 && suite["skipped"] == 0, "\(suite)")
        #expect((suite["time"]?.doubleValue ?? -1) >= 0)
        #expect(suite["timestamp"]?.stringValue?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(suite)")
        let cases = suite["cases"]?.arrayValue ?? []
        #expect(cases.count == 3)
        func testcase(_ name: String) -> JSONValue? { cases.first { $0["name"]?.stringValue == name } }

        let passed = try #require(testcase("seed: MAM-CA always applied"), "\(cases)")
        #expect(passed["classname"]?.stringValue?.hasSuffix("flows.seed-mam-ca-always-applied") == true, "\(passed)")
        #expect(passed["file"]?.stringValue?.hasSuffix("flows/seed-mam-ca-always-applied.json") == true)
        #expect(passed["results"] == [])
        #expect((passed["time"]?.doubleValue ?? 0) > 0)
        #expect(passed["systemOut"]?.stringValue?.hasPrefix("1 ok   signIn alice@contoso.com") == true, "\(passed)")

        let failed = try #require(testcase("deliberately broken: alice expected NotCompliant"), "\(cases)")
        #expect(failed["classname"]?.stringValue?.hasSuffix("broken-flows.broken-expectation") == true, "\(failed)")
        let failure = try #require(failed["results"]?[0])
        #expect(failed["results"]?.arrayValue?.count == 1)
        #expect(failure["kind"] == "Failure")
        #expect(failure["message"] == "step 1: signIn alice@contoso.com: status: expected NotCompliant (1), got Compliant (0)", "\(failure)")
        let story = failure["text"]?.stringValue ?? ""
        #expect(story.contains("step 1: signIn alice@contoso.com"), "\(story)")
        #expect(story.contains("- token: expected none, got one for \"alice@contoso.com\""), "\(story)")
        #expect(story.contains("last events:") && story.contains("compliance {\"report\""), "\(story)")
        #expect(failed["systemOut"]?.stringValue?.contains("2 skip expectAccount") == true, "\(failed)")

        let odd = try #require(testcase("web <&\"quoted\">\tü"), "the control character is dropped, the rest kept: \(cases)")
        #expect(odd["classname"]?.stringValue?.hasSuffix(".odd name") == true, "\(odd)")
        #expect(odd["results"] == [])
    }

    /// A run that stops at an invalid flow file (65) still writes a report, replacing an old
    /// one: one `<error>` testcase per invalid file, so that a CI reporter shows the failure.
    /// A new report is readable by others as the umask allows (a CI artifact), not owner-only.
    @Test func invalidFlowFilesAreErrorTestcasesInAReadableReport() async throws {
        let python = try await PythonVenv.python("junitparser-venv", packages: [Self.junitparser], module: "junitparser")
        let directory = NSTemporaryDirectory() + "junit-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = directory + "/report.xml"
        try Data("<old stale=\"1\"/>".utf8).write(to: URL(fileURLWithPath: report))
        try Data([0x7B, 0xFF, 0x7D]).write(to: URL(fileURLWithPath: directory + "/bad.json"))
        let result = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json", directory + "/bad.json", "--junit", report])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(!result.stdout.contains("▶"), "a flow ran: \(result.stdout)")
        let parsed = try await Command.run(python, [Self.reader, report], timeout: .seconds(60))
        #expect(parsed.status == 0, "junitparser: \(parsed.stderr)")
        let xml = try JSONValue.parse(parsed.stdout)
        #expect(xml["tests"] == 1 && xml["errors"] == 1 && xml["failures"] == 0, "\(xml)")
        let testcase = try #require(xml["suites"]?[0]?["cases"]?[0])
        #expect(testcase["name"] == "bad.json", "\(testcase)")
        #expect(testcase["results"]?[0]?["kind"] == "Error", "\(testcase)")
        #expect(testcase["results"]?[0]?["message"]?.stringValue?.contains("not valid JSON") == true, "\(testcase)")

        let fresh = directory + "/fresh.xml"
        let shell = "umask 022 && exec \"$0\" run \"$1\" --junit \"$2\" >/dev/null 2>&1; exit 0"
        _ = try await Command.run("/bin/sh", ["-c", shell, ChildServer.executable("compliancectl"), directory + "/bad.json", fresh], timeout: .seconds(60))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
        #expect(mode == 0o644, "a new report is 0\(String(mode, radix: 8)) under umask 022")
    }

    @Test func anUnwritableReportIsRefusedBeforeAnyFlowRuns() async throws {
        let result = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json", "--junit", "/nonexistent-dir/report.xml"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot write /nonexistent-dir/report.xml: the folder /nonexistent-dir does not exist"), "\(result.stderr)")
        #expect(!result.stdout.contains("▶"), "a flow ran: \(result.stdout)")
    }
}
