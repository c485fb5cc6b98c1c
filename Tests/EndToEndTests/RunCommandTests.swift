import Foundation
import JSON
import Testing
import TestSupport

/// `compliancectl run` end to end: it starts mockauth and complianced per flow (or uses
/// running ones) and judges the flows.
@Suite struct RunCommandTests {
    @Test func everyFlowInTheRepositoryPasses() async throws {
        let result = try await CLI.run(["run", CLI.root + "/flows", "--json"])
        let report = result.json
        let failed = (report["flows"]?.arrayValue ?? []).filter { $0["result"] != "passed" }
        #expect(result.status == 0, "failed flows: \(failed)\nstderr: \(result.stderr)")
        #expect((report["passed"]?.intValue ?? 0) >= 20)
        #expect(report["failed"] == 0)
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

    @Test func usageErrorsAndAMissingServerHaveTheirOwnExitStatus() async throws {
        let noFlows = try await CLI.run(["run"])
        #expect(noFlows.status == 64)
        let noServer = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json", "--complianced", "/nonexistent/complianced"])
        #expect(noServer.status == 64 && noServer.stderr.contains("/nonexistent/complianced is not an executable file"))
    }
}
