import Foundation
import JSON
import Testing
import LocalServers

/// The flow runner's checks can fail: a check naming a file, an account, an event or a
/// request that is missing fails; a broken wipe fails the wipe flows; a daemon that dies of
/// anything but its armed crash point fails the flow.
@Suite struct FlowCheckTests {
    /// The failed flows of a `--json` report: file name → the failed step's mismatches and detail.
    static func failures(_ report: JSONValue) -> [String: String] {
        var result: [String: String] = [:]
        for flow in report["flows"]?.arrayValue ?? [] where flow["result"] != "passed" {
            let file = URL(fileURLWithPath: flow["file"]?.stringValue ?? "?").lastPathComponent
            let failed = flow["steps"]?.arrayValue?.first { $0["result"] == "failed" }
            let texts = (failed?["mismatches"]?.arrayValue ?? []).compactMap(\.stringValue) + [failed?["detail"]?.stringValue ?? "", flow["setupError"]?.stringValue ?? ""]
            result[file] = texts.joined(separator: " | ")
        }
        return result
    }

    /// A temporary executable script; removed with its directory by the caller.
    static func script(_ text: String, in directory: String, named name: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    static func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = NSTemporaryDirectory() + "flow-checks-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory)
    }

    /// A complianced that runs the real one with `extra` arguments; `$STATE` in them is the
    /// state directory `run` gives it.
    static func wrappedDaemon(_ extra: String, in directory: String) throws -> String {
        try script("""
            #!/bin/sh
            STATE=""
            previous=""
            for argument in "$@"; do
                [ "$previous" = "--state-dir" ] && STATE="$argument"
                previous="$argument"
            done
            export STATE
            exec '\(ChildServer.executable("complianced"))' "$@" \(extra)
            """, in: directory, named: "complianced")
    }

    @Test func checksThatNameSomethingMissingFail() async throws {
        let result = try await CLI.run(["run", CLI.brokenFlows + "/checks", "--json"])
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        let failures = Self.failures(result.json)
        let expected = [
            "missing-file-contents.json": "notes.txt: expected content \"bob's notes\", but bob@contoso.com has no such file (it has [plan.txt])",
            "missing-file-encrypted.json": "notes.txt: expected plain, but bob@contoso.com has no such file (it has [plan.txt])",
            "unknown-account-data.json": "account: the daemon has no account nobody@contoso.com",
            "unknown-account-data-protection.json": "no account alcie@contoso.com has signed in to this app",
            "unknown-account-fields.json": "account: the daemon has no account nobody@contoso.com, so signedIn cannot be checked",
            "unknown-account-statuses.json": "account: the daemon has no account nobody@contoso.com",
            "unseen-account-events.json": "account: bbo@contoso.com has no event since the flow started and no step acts on it",
            "unseen-user-requests.json": "user: bbo@contoso.com has no request since the flow started and no step acts on it",
        ]
        #expect(Set(failures.keys) == Set(expected.keys), "\(failures)")
        for (file, text) in expected {
            #expect(failures[file]?.contains(text) == true, "\(file): \(failures[file] ?? "passed")")
        }
        #expect(result.json["passed"] == 0)
    }

    /// An app wipe hook that removes every account's vault directory (a wipe that is not
    /// selective): bob's data is gone, and each wipe flow says so.
    @Test func aWipeThatRemovesEveryAccountsFilesFailsTheWipeFlows() async throws {
        try await Self.withTemporaryDirectory { directory in
            let daemon = try Self.wrappedDaemon(#"--wipe-hook 'find "$STATE/vault" -mindepth 1 -maxdepth 1 -exec rm -rf {} +'"#, in: directory)
            let flows = ["wipe-deregister", "wipe-admin-at-checkin", "wipe-failed-remediation"].map { CLI.root + "/flows/\($0).json" }
            let result = try await CLI.run(["run"] + flows + ["--complianced", daemon, "--json"])
            #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
            let failures = Self.failures(result.json)
            #expect(failures.count == 3, "\(failures)")
            for (file, text) in failures {
                #expect(text.contains("notes.txt: expected content \"bob's notes\", but bob@contoso.com has no such file"), "\(file): \(text)")
            }
        }
    }

    /// The same three flows with a hook that leaves the files to the daemon (exit status 1:
    /// `wipeDataForAccount` answered NO) pass: the failure above is the wipe's.
    @Test func theWipeFlowsPassWithAHookThatLeavesTheFilesToTheDaemon() async throws {
        try await Self.withTemporaryDirectory { directory in
            let daemon = try Self.wrappedDaemon("--wipe-hook false", in: directory)
            let flows = ["wipe-deregister", "wipe-admin-at-checkin", "wipe-failed-remediation"].map { CLI.root + "/flows/\($0).json" }
            let result = try await CLI.run(["run"] + flows + ["--complianced", daemon])
            #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        }
    }

    /// The real daemon, killed by its wipe hook while `wipe:done` is armed: not the crash point.
    @Test func aDaemonKilledWhileArmedButNotByItsCrashPointFailsTheFlow() async throws {
        try await Self.withTemporaryDirectory { directory in
            let daemon = try Self.wrappedDaemon(#"--wipe-hook 'kill -9 $PPID'"#, in: directory)
            let result = try await CLI.run(["run", CLI.brokenFlows + "/crashes/hook-kills-daemon.json", "--complianced", daemon, "--json"])
            #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
            let failure = Self.failures(result.json)["hook-kills-daemon.json"] ?? "passed"
            #expect(failure.contains("complianced killed by signal 9 while the crash point wipe:done armed in step 2 was armed, without reaching it"), "\(failure)")
        }
    }

    /// A stand-in daemon that dies on cue (broken-flows/fake-complianced.py): only a SIGKILL
    /// that left the armed point's marker passes as the crash; a death with nothing armed
    /// fails the restart step.
    @Test(arguments: [
        ("armed-then-killed.json", "armed-marker", nil),
        ("armed-then-killed.json", "armed-other", "complianced killed by signal 9 while the crash point remediation:awaitingPolicy armed in step 1 was armed, without reaching it"),
        ("died-after-answer.json", "after-answer", "complianced had stopped before this step (killed by signal 9) with no crash point armed"),
    ] as [(String, String, String?)])
    func onlyTheArmedCrashPointPassesAsTheCrash(flow: String, death: String, failure: String?) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["FAKE_DAEMON_DEATH"] = death
        let result = try await CLI.run(
            ["run", CLI.brokenFlows + "/crashes/" + flow, "--complianced", CLI.brokenFlows + "/fake-complianced.py", "--json"], environment: environment)
        let failures = Self.failures(result.json)
        if let failure {
            #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
            #expect(failures[flow]?.contains(failure) == true, "\(failures)")
        } else {
            #expect(result.status == 0, "\(failures)\n\(result.stderr)")
        }
    }
}
