import Foundation
import JSON
import Testing
import LocalServers

/// mocks/README.md's "Pointing curl at it" block, run as written (bash, curl and jq from apt,
/// the mockauth built beside these tests), with each answer checked against what the block's
/// comments state. A change to mockauth that breaks the walkthrough, or to the walkthrough
/// that no longer runs, fails here.
@Suite("mocks/README.md's curl walkthrough")
struct ReadmeCurlWalkthroughTests {
    /// The path the README starts mockauth from (relative to the repository root).
    static let documentedBinary = ".build/debug/mockauth "

    @Test("every answer is the one its comment states, and the request log holds no secret")
    func walkthrough() async throws {
        for tool in ["/bin/bash", "/usr/bin/curl", "/usr/bin/jq"] {
            try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is missing: `./run.sh test` installs curl and jq")
        }
        let block = try Self.curlBlock()
        try #require(block.contains(Self.documentedBinary), "the walkthrough no longer starts \(Self.documentedBinary)")
        let mockauth = ChildServer.executable("mockauth")
        try #require(FileManager.default.isExecutableFile(atPath: mockauth), "build mockauth first: \(mockauth)")
        // jq prints each answer on one line here, so each stdout line is one answer; no curl
        // waits more than 20 s, so a SIGTERM at the timeout reaches the traps in time, and they
        // stop the block's mockauth even when the block fails half way or is stopped.
        let script = """
            cd '\(TestSupport.repositoryRoot.path)'
            jq() { command jq -c "$@"; }
            curl() { command curl --max-time 20 "$@"; }
            trap 'kill $MOCK_PID 2>/dev/null; [ -n "${DIR:-}" ] && rm -rf "$DIR"' EXIT
            trap 'exit 143' TERM
            \(block.replacingOccurrences(of: Self.documentedBinary, with: mockauth + " "))
            """
        let run = try await Command.run("/bin/bash", ["-c", script], timeout: .seconds(120), graceful: .seconds(30))
        #expect(run.status == 0 && !run.timedOut, "the block ended with \(run.status) (timed out: \(run.timedOut)): \(run.stderr)")
        #expect(run.stderr.isEmpty, "stderr: \(run.stderr)")
        let answers = try run.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        try #require(answers.count == 7, "expected 7 answers, got \(answers.count): \(run.stdout)")

        // bob: no CA, a token whose claims carry upn, scp and xms_cc
        #expect(answers[0] == ["upn": "bob@contoso.com", "scp": "Chat.Read", "xms_cc": ["protapp"]])
        // alice with protapp: 53005
        #expect(answers[1] == ["error": "unauthorized_client", "suberror": "protection_policy_required", "error_codes": [53005]])
        // enrolled and reported: compliant, then a token
        #expect(answers[2] == ["complianceStatusName": "Compliant"])
        #expect(answers[3] == ["token_type": "Bearer", "scope": "api://contoso-chat/Chat.Read"])
        // a wipe queued, delivered at the next check-in
        #expect(answers[4] == ["queued": true, "upn": "alice@contoso.com"])
        #expect(answers[5] == ["status": 102, "statusName": "WipeReceived"])
        // the request log's last three lines, without passwords or tokens
        let routes = (0..<3).map { answers[6][$0]?["route"]?.stringValue }
        #expect(routes == ["mam.report-compliance", "token", "mam.checkin"])
        #expect(!run.stdout.contains("Passw0rd"), "a password in the output: \(run.stdout)")
        #expect(!answers[6].encodedString().contains("eyJ"), "a token in the request log: \(run.stdout)")
    }

    /// The first `sh` block after the "## Pointing curl at it" heading of mocks/README.md.
    static func curlBlock() throws -> String {
        let readme = try String(contentsOf: TestSupport.repositoryRoot.appendingPathComponent("mocks/README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex(of: "## Pointing curl at it"), "mocks/README.md has no \"## Pointing curl at it\"")
        let start = try #require(lines[heading...].firstIndex(of: "```sh"), "no sh block after the curl heading")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the curl block is not closed")
        return lines[(start + 1)..<end].joined(separator: "\n")
    }
}
