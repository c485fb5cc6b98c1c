import Foundation
import LocalServers
import Testing

/// The command blocks of README.md and docs/: each is run by a test (`run: NAME`), quoted from
/// a tested file (`from: FILE`), a fixture (`fixture: FILE`), or says why it is not run
/// (`not run: WHY`); README's "Using it" block runs as written.
@Suite("README.md and docs/ command blocks", .serialized)
struct DocBlocksTests {
    static let root = InProcessMockAuth.packageRoot
    static let readme = root.appendingPathComponent("README.md").path

    static func documents() throws -> [String] {
        let docs = root.appendingPathComponent("docs").path
        let names = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted()
        return [readme] + names.map { docs + "/" + $0 }
    }

    @Test("every block of README.md and docs/*.md is marked run, from, fixture or not run")
    func everyBlockIsMarked() throws {
        var blocks = 0
        for file in try Self.documents() {
            for block in try AppTeamGuideTests.blocks(of: file) {
                blocks += 1
                let marker = block.marker ?? ""
                #expect(
                    ["run: ", "from: ", "fixture: ", "not run: "].contains { marker.hasPrefix($0) && marker.count > $0.count },
                    "\(file):\(block.line): a \(block.language) block without a marker (run: NAME, from: FILE, fixture: FILE, not run: WHY)")
            }
        }
        #expect(blocks >= 15, "blocks read: \(blocks)")
        let markers = try AppTeamGuideTests.blocks(of: Self.readme).compactMap(\.marker)
        #expect(markers.contains("run: using-it"))
    }

    /// README's "Using it" block, with the programs this test run built (`bin=`) and a fresh
    /// directory for its /tmp/ paths. A command may fail only with the exit status its line's
    /// comment names (`exit 1`); every server it starts is stopped.
    @Test("README's Using it block runs as written")
    func usingItRuns() async throws {
        let block = try #require(AppTeamGuideTests.blocks(of: Self.readme).first { $0.marker == "run: using-it" })
        let lines = block.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "swift build && bin=$(swift build --show-bin-path)")
        let directory = NSTemporaryDirectory() + "readme-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bin = URL(fileURLWithPath: ChildServer.executable("compliancectl")).deletingLastPathComponent().path
        let preamble = [
            "cd '\(Self.root.path)'",
            "trap 'echo \"FAILED $? at line $((LINENO - 4))\"' ERR",
            "trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT",
            "trap 'exit 143' TERM",
        ]
        // Only the block's own /tmp/ paths move: the checkout and the programs built in it may
        // live under /tmp (a clean clone).
        var commands = lines.map { $0.replacingOccurrences(of: "/tmp/", with: directory + "/") }
        commands[0] = "bin='\(bin)'"
        let script = (preamble + commands).joined(separator: "\n")
        let marker = UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["README_TEST_RUN"] = marker
        environment["COMPLIANCED_SOCKET"] = nil
        let run = try await Command.run("/bin/bash", ["-c", script], timeout: .seconds(240), environment: environment, graceful: .seconds(30))
        let left = RunInterruptTests.processes(with: "README_TEST_RUN=" + marker, besides: getpid())
        for pid in left { kill(pid, SIGKILL) }
        #expect(left.isEmpty, "the block left processes running: \(left)")
        #expect(!run.timedOut, "\(run.stdout)\n\(run.stderr)")

        for failure in run.stdout.split(separator: "\n").filter({ $0.hasPrefix("FAILED ") }) {
            let words = failure.split(separator: " ")
            let status = words.count > 1 ? String(words[1]) : "?"
            let line = words.last.flatMap { Int($0) } ?? 0
            let text = (1...lines.count).contains(line) ? lines[line - 1] : "?"
            #expect(text.contains("exit \(status)"), "line \(line) exited \(status) without saying so: \(text)\n\(run.stdout)\n\(run.stderr)")
        }
        for text in [
            "alice@contoso.com: Compliant (0) — signed in", "fired checkIn for alice@contoso.com", "diagnosis: no known loop",
            "xms_cc [\"protapp\"], from the cache", "setUIPolicyIdentity alice@contoso.com: Success",
            "redirect URI: chatr://com.contoso.chatr", "bytes): owner: alice@contoso.com; encrypted", "3 of 3 flows passed",
            "fixed: IntuneMAMSettings.AutoEnrollOnLaunch", "openInManagedBrowser", "SFAuthenticationSession",
        ] {
            #expect(run.stdout.contains(text), "missing '\(text)' in\n\(run.stdout)")
        }
        let accounts = run.stdout.split(separator: "\n").first { $0.hasPrefix("alice@contoso.com  ") }
        #expect(accounts?.contains("Compliant (0)") == true, "accounts: \(accounts ?? "none")")
    }
}
