import Foundation
import HTTPClient
import JSON
import Testing
import LocalServers

/// `compliancectl run` end to end: it starts mockauth and complianced per flow (or uses
/// running ones) and judges the flows.
@Suite struct RunCommandTests {
    /// The flow files in flows/, and the files its README's "The flows here" table lists.
    static func flowFiles() throws -> (onDisk: Set<String>, inReadme: Set<String>) {
        let directory = CLI.root + "/flows"
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") })
        let readme = try String(contentsOfFile: directory + "/README.md", encoding: .utf8)
        let table = readme.components(separatedBy: "## The flows here").last ?? ""
        let inReadme = Set(table.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let name = String(line[line.index(line.startIndex, offsetBy: 3)..<end])
            return name.hasSuffix(".json") ? name : nil
        })
        return (onDisk, inReadme)
    }

    /// Every flow passes, and `explain` (run over each account at the end of each flow) tells
    /// the truth about how the flow ends: a story that ends Compliant names no loop; one that
    /// ends in 53009 names the missing capability; flows/ holds no real loop, so no other
    /// story names one either.
    @Test func everyFlowInTheRepositoryPassesAndExplainsAsItEnds() async throws {
        let files = try Self.flowFiles()
        #expect(files.onDisk == files.inReadme, "flows/README.md lists \(files.inReadme.sorted()), flows/ holds \(files.onDisk.sorted())")
        // A hang guard, not a bound: every flow on a machine whose cores another job keeps busy
        // took over 300 s (./run.sh test-stress).
        let result = try await CLI.run(["run", CLI.root + "/flows", "--json", "--explain"], timeout: .seconds(1800))
        let report = result.json
        let flows = report["flows"]?.arrayValue ?? []
        let failed = flows.filter { $0["result"] != "passed" }
        #expect(result.status == 0, "failed flows: \(failed)\nstderr: \(result.stderr)")
        // Exactly every file ran and passed: a flow that silently drops out is a failure.
        let ran = Set(flows.compactMap { $0["file"]?.stringValue.map { URL(fileURLWithPath: $0).lastPathComponent } })
        #expect(ran == files.onDisk, "ran \(ran.count) flows; missing: \(files.onDisk.subtracting(ran).sorted())")
        #expect(report["passed"]?.intValue == Int64(files.onDisk.count))
        #expect(files.onDisk.count == 132, "the flows in the repository; change this number with the flows")
        #expect(report["failed"] == 0)

        var endedCompliant = 0
        for flow in flows {
            let name = URL(fileURLWithPath: flow["file"]?.stringValue ?? "?").lastPathComponent
            for story in flow["explain"]?.arrayValue ?? [] {
                let ending = story["ending"]?.stringValue
                let kinds = story["diagnoses"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
                let expected = ending == "capabilityMissing" ? ["capabilityMissing"] : []
                #expect(kinds == expected, "\(name): \(story["account"] ?? "?") ends \(ending ?? "-"), explain says \(story["diagnoses"] ?? [])")
                if ending == "Compliant" { endedCompliant += 1 }
            }
        }
        #expect(endedCompliant >= 90, "the stories that end Compliant: \(endedCompliant)")
        let seed2 = flows.first { $0["file"]?.stringValue?.hasSuffix("seed-mam-ca-after-enrolled.json") == true }
        #expect(seed2?["explain"]?[0]?["account"] == "bob@contoso.com" && seed2?["explain"]?[0]?["ending"] == "Compliant", "\(seed2 ?? [:])")
    }

    @Test func aBrokenExpectationExitsNonZeroWithAReadableDiff() async throws {
        let result = try await CLI.run(["run", CLI.brokenFlows + "/broken-expectation.json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAILED deliberately broken: alice expected NotCompliant"), "\(result.stdout)")
        #expect(result.stdout.contains("step 1: signIn alice@contoso.com"))
        #expect(result.stdout.contains("- status: expected NotCompliant (1), got Compliant (0)"))
        #expect(result.stdout.contains("- token: expected none, got one for \"alice@contoso.com\""))
        #expect(result.stdout.contains("last events:"))
        #expect(result.stdout.contains("compliance {\"report\""))
        #expect(result.stdout.contains("0 of 1 flows passed"))

        let json = try await CLI.run(["run", CLI.brokenFlows + "/broken-expectation.json", "--json"])
        #expect(json.status == 1)
        let flow = try #require(json.json["flows"]?[0])
        #expect(flow["result"] == "failed")
        #expect(flow["steps"]?[0]?["mismatches"]?[0] == "status: expected NotCompliant (1), got Compliant (0)")
        #expect(flow["steps"]?[1]?["result"] == "skipped")
    }

    @Test func anInvalidFlowIsRefusedBeforeAnythingRuns() async throws {
        let file = CLI.brokenFlows + "/unknown-step.json"
        let result = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json", file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(file): step 2: unknown step 'signOut'"), "\(result.stderr)")
        #expect(!result.stdout.contains("▶"), "nothing ran")
        let missing = try await CLI.run(["run", "/nonexistent/flows"])
        #expect(missing.status == 65 && missing.stderr.contains("/nonexistent/flows: no such file or directory"))
    }

    @Test func flowsRunAgainstARunningMockGivenByAuthority() async throws {
        try await InProcessMockAuth.run { mock in
            let result = try await CLI.run([
                "run", CLI.root + "/flows/seed-mam-ca-always-applied.json", CLI.root + "/flows/wipe-admin-at-checkin.json",
                "--authority", mock.authority,
            ])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("2 of 2 flows passed"))
            let requests = mock.state.requestLogEntries()
            #expect(requests.contains { $0.route == "mam.enroll" }, "the flows used the given mock")
        }
    }

    /// A token step's source: its progress line says it, and `expect.fromCache` fails naming
    /// both sides when it differs.
    @Test func aTokenStepSaysWhetherTheCacheOrTheIssuerAnswered() async throws {
        let flow = """
            {"name": "token source", "fixture": "\(CLI.root)/mocks/fixtures/contoso.json", "app": "\(CLI.root)/mocks/fixtures/apps/chatr-Info.plist", "steps": [
              {"do": "signIn", "account": "bob@contoso.com", "password": "Passw0rd!", "scopes": ["api://contoso-chat/Chat.Read"],
               "expect": {"status": "Compliant", "fromCache": false}},
              {"do": "token", "account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"], "expect": {"fromCache": false}}
            ]}
            """
        let file = NSTemporaryDirectory() + "token-source-" + UUID().uuidString + ".json"
        try flow.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await CLI.run(["run", file])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1/2 ok   signIn bob@contoso.com — Compliant (0), signed in, token xms_cc [\"protapp\"], from the issuer"), "\(result.stdout)")
        #expect(result.stdout.contains("- fromCache: expected from the issuer, got from the cache"), "\(result.stdout)")
    }

    /// `run --authority` resets a mock that may be shared, and says so; `--no-reset` keeps its
    /// state (here: dave targeted for CA, which no flow touches).
    @Test func runAgainstAGivenMockSaysItResetsItOrKeepsItWithNoReset() async throws {
        try await InProcessMockAuth.run { mock in
            let http = HTTPClient()
            let flow = CLI.root + "/flows/seed-mam-ca-always-applied.json"
            func daveTargeted() async throws -> Bool? {
                let state = try JSONValue.parse(try await http.execute(HTTPClientRequest(url: mock.url + "/_admin/state")).body)
                return state["users"]?.arrayValue?.first { $0["upn"] == "dave@contoso.com" }?["caTargeted"]?.boolValue
            }
            let target = try await http.execute(.json(method: .post, url: mock.url + "/_admin/users/dave@contoso.com/ca", body: Array(#"{"targeted":true}"#.utf8)))
            #expect(target.status == 200)

            let kept = try await CLI.run(["run", flow, "--authority", mock.authority, "--no-reset"])
            #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
            #expect(!kept.stderr.contains("resets the mock"), "\(kept.stderr)")
            #expect(try await daveTargeted() == true, "--no-reset kept the mock's state")

            let reset = try await CLI.run(["run", flow, "--authority", mock.authority])
            #expect(reset.status == 0, "\(reset.stdout)\(reset.stderr)")
            #expect(reset.stderr.contains("each flow first resets the mock at \(mock.url) (POST /_admin/reset)"), "\(reset.stderr)")
            #expect(reset.stderr.contains("--no-reset keeps them"))
            #expect(try await daveTargeted() == false, "the reset took the mock back to its fixtures")

            let alone = try await CLI.run(["run", flow, "--no-reset"])
            #expect(alone.status == 64 && alone.stderr.contains("--no-reset goes with --authority"), "\(alone.stderr)")
        }
    }

    /// An admin step's answer: whole in the JSON report, whole members in progress.
    @Test func anAdminAnswerIsWholeInTheReportAndNotCutInProgress() async throws {
        let json = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-after-enrolled.json", "--json"])
        let step = try #require(json.json["flows"]?[0]?["steps"]?[2])
        #expect(step["step"] == "targetCA bob@contoso.com true")
        #expect(step["answer"]?["caTargeted"] == true && step["answer"]?["compliantApps"] != nil, "\(step)")
        let detail = step["detail"]?.stringValue ?? ""
        #expect(detail.hasPrefix("{\"upn\":\"bob@contoso.com\"") && detail.hasSuffix(" more member}"), "\(detail)")
    }

    /// A new directory outside the repository (no mocks/fixtures above it), removed after `body`.
    static func withDirectoryOutsideTheRepository(_ body: (String) async throws -> Void) async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("compliancectl-run-" + UUID().uuidString)
        #expect(!directory.hasPrefix(CLI.root + "/"), "the temporary directory must be outside the repository")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    /// A flow kept in an app's own repository names neither fixture nor app: the run gives
    /// the issuer and the profile; `${NAME}` reaches its hook.
    @Test func aFlowOutsideTheCheckoutRunsWithTheRunsIssuerAndApp() async throws {
        try await Self.withDirectoryOutsideTheRepository { directory in
            let flow = """
                {"name": "my app's flow", "wipeHook": "echo ${hookword} > /dev/null",
                 "steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "Passw0rd!", "scopes": ["api://contoso-chat/Chat.Read"],
                            "expect": {"status": "Compliant", "remediated": true}},
                           {"do": "targetCA", "account": "bob@contoso.com"}]}
                """
            try flow.write(toFile: directory + "/my-flow.json", atomically: true, encoding: .utf8)
            let app = CLI.root + "/mocks/fixtures/apps/chatr-Info.plist"
            let alone = try await CLI.run(["run", directory, "--param", "hookword=hi"])
            #expect(alone.status == 65 && alone.stderr.contains("field 'fixture': not given"), "\(alone.stderr)")
            #expect(alone.stderr.contains("or run it with --authority against a running mock"), "\(alone.stderr)")
            try await InProcessMockAuth.run { mock in
                let refused = try await CLI.run(["run", directory, "--authority", mock.authority, "--param", "hookword=hi"])
                #expect(refused.status == 65 && refused.stderr.contains("field 'app': not given"), "\(refused.stderr)")
                #expect(refused.stderr.contains("or run --app PLIST"), "\(refused.stderr)")
                let result = try await CLI.run(["run", directory, "--authority", mock.authority, "--app", app, "--param", "hookword=hi"])
                #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
                #expect(result.stdout.contains("1 of 1 flows passed"), "\(result.stdout)")
            }
        }
    }

    @Test func aWebOnlyFlowRunsWithoutAFixtureAndWithoutServers() async throws {
        try await Self.withDirectoryOutsideTheRepository { directory in
            // The shop flow and its app's Info.plist, beside it: no fixture anywhere above.
            let flow = try String(contentsOfFile: CLI.root + "/flows/web-appbound-shop-app.json", encoding: .utf8)
            let app = "../mocks/fixtures/apps/appbound-shop-Info.plist"
            #expect(flow.contains("\"\(app)\""))
            try flow.replacingOccurrences(of: "\"\(app)\"", with: "\"appbound-shop-Info.plist\"")
                .write(toFile: directory + "/web-appbound-shop-app.json", atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(atPath: CLI.root + "/mocks/fixtures/apps/appbound-shop-Info.plist", toPath: directory + "/appbound-shop-Info.plist")
            // Executables that do not exist: looking for or starting either would fail the run.
            let result = try await CLI.run(["run", directory, "--mockauth", "/nonexistent/mockauth", "--complianced", "/nonexistent/complianced"])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("1 of 1 flows passed"), "\(result.stdout)")
        }
    }

    @Test func aFlowThatNeedsTheMockWithoutAFixtureIsRefusedNamingWhatIsMissing() async throws {
        try await Self.withDirectoryOutsideTheRepository { directory in
            let file = directory + "/seed-mam-ca-always-applied.json"
            try FileManager.default.copyItem(atPath: CLI.root + "/flows/seed-mam-ca-always-applied.json", toPath: file)
            let result = try await CLI.run(["run", directory])
            #expect(result.status == 65)
            #expect(result.stderr.contains(
                "\(file): field 'fixture': not given, and no mocks/fixtures/contoso.json above \(directory); "
                    + "step 1 (signIn alice@contoso.com) runs against mockauth, which serves a tenant fixture"), "\(result.stderr)")
            #expect(!result.stdout.contains("▶"), "nothing ran")
        }
    }

    /// A flow's name and an invalid step's words are printed with their control characters
    /// escaped: a flow from elsewhere cannot clear the screen, retitle the window or reorder
    /// the report's lines.
    @Test func aFlowCannotDriveTheTerminalThatShowsItsReport() async throws {
        try await Self.withDirectoryOutsideTheRepository { directory in
            // The shop flow (web only: no servers) under a name that would clear the screen,
            // retitle the window and turn the rest of the line around.
            let shop = try String(contentsOfFile: CLI.root + "/flows/web-appbound-shop-app.json", encoding: .utf8)
            let app = "../mocks/fixtures/apps/appbound-shop-Info.plist"
            let name = #""name": "web: App-Bound Domains, ShopApp""#
            #expect(shop.contains(app) && shop.contains(name))
            try shop.replacingOccurrences(of: app, with: CLI.root + "/mocks/fixtures/apps/appbound-shop-Info.plist")
                .replacingOccurrences(of: name, with: #""name": "shop\u001b[2J\u001b]0;owned\u0007\u202e""#)
                .write(toFile: directory + "/named.json", atomically: true, encoding: .utf8)
            let invalid = #"{"steps": [{"do": "sign\u001b[31mIn"}]}"#
            try invalid.write(toFile: directory + "/invalid.json", atomically: true, encoding: .utf8)
            let refused = try await CLI.run(["run", directory + "/invalid.json"])
            #expect(refused.status == 65, "\(refused.stderr)")
            #expect(refused.stderr.contains("sign\\u{1B}[31mIn") && !refused.stderr.contains("\u{1B}"), "\(refused.stderr)")
            let result = try await CLI.run(["run", directory + "/named.json", "--mockauth", "/nonexistent/mockauth", "--complianced", "/nonexistent/complianced"])
            let printed = result.stdout + result.stderr
            #expect(printed.contains("shop\\u{1B}[2J\\u{1B}]0;owned\\u{7}\\u{202E}"), "\(printed)")
            #expect(!printed.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" }, "\(printed)")
        }
    }

    @Test func usageErrorsAndAMissingServerHaveTheirOwnExitStatus() async throws {
        let noFlows = try await CLI.run(["run"])
        #expect(noFlows.status == 64)
        let noServer = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json", "--complianced", "/nonexistent/complianced"])
        #expect(noServer.status == 64 && noServer.stderr.contains("/nonexistent/complianced is not an executable file"))
    }
}
