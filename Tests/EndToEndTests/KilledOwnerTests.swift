import ChildProcess
import Foundation
import LocalServers
import Testing

/// A process that starts servers is killed with SIGKILL (it gets no chance to stop them):
/// nothing it started outlives it, grandchildren included (issue 50). `compliancectl run` starts
/// mockauth and complianced; complianced runs the flow's restart hook, a shell that leaves a
/// `setsid` daemon behind (its own session and group) and answers. Every one of them carries a
/// marker in its environment.
@Suite("Nothing outlives a killed owner", .serialized)
struct KilledOwnerTests {
    /// The owner started by Foundation's `Process` (no keeper of its own): only the keepers of
    /// the servers it started, which see it die, can end them.
    @Test func theServersOfAKilledRunEndWithIt() async throws {
        try await Self.killOwner(contained: false)
    }

    /// The owner started as any test starts a program (``ChildProcess``, under a keeper): its
    /// keeper ends what it left when it dies.
    @Test func theKeeperOfAKilledProgramEndsWhatItLeft() async throws {
        try await Self.killOwner(contained: true)
    }

    static func killOwner(contained: Bool) async throws {
        try #require(ChildProcess.keeperPath != nil, "child-keeper is not built beside the tests")
        let (marker, environment) = RunInterruptTests.markedEnvironment()
        let directory = NSTemporaryDirectory() + "killed-owner-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The restart hook daemonises a grandchild (setsid: a session and group of its own, so
        // the daemon's end of the hook's group misses it), waits until the grandchild is in its
        // own session (the daemon kills the hook's group once it answers), and answers YES; then
        // every token request waits 9 s at mockauth, so the run keeps its servers for minutes.
        let slowSignIn = RunInterruptTests.slowSignIn
        let flow = #"""
            {"name": "a hook that leaves a daemon", "description": "the restart hook leaves a setsid daemon; then a slow issuer",
             "fixture": "\#(CLI.root)/mocks/fixtures/contoso.json", "app": "\#(CLI.root)/mocks/fixtures/apps/chatr-Info.plist",
             "restartHook": "setsid sh -c 'echo $$ > \"$COMPLIANCE_STATE_DIRECTORY/hook-daemon\"; exec sleep 601' </dev/null >/dev/null 2>&1 & while [ ! -s \"$COMPLIANCE_STATE_DIRECTORY/hook-daemon\" ]; do sleep 0.05; done; exit 0",
             "steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "Passw0rd!", "scopes": ["api://contoso-chat/Chat.Read"],
                        "expect": {"error": "restart_pending"}},
                       {"do": "appRestarted", "expect": {"status": "Compliant"}},
                       {"do": "injectFault", "route": "token", "delayMs": 9000, "count": 20}, \#(Array(repeating: slowSignIn, count: 10).joined(separator: ", "))]}
            """#
        #expect(FileManager.default.createFile(atPath: directory + "/hook-daemon.json", contents: Data(flow.utf8)))
        let executable = ChildServer.executable("compliancectl")
        let owner: pid_t
        var child: ChildProcess?
        var process: Process?
        if contained {
            child = try ChildProcess(executable: executable, arguments: ["run", directory], environment: environment)
            owner = child!.pid
        } else {
            let started = Process()
            started.executableURL = URL(fileURLWithPath: executable)
            started.arguments = ["run", directory]
            started.environment = environment
            started.standardOutput = FileHandle.nullDevice
            started.standardError = FileHandle.nullDevice
            try started.run()
            process = started
            owner = started.processIdentifier
        }
        // Wait for the hook's daemon: then servers and daemon all run (a hang guard of 300 s:
        // the first minutes of a whole test run on a busy machine are slow).
        let deadline = ContinuousClock.now + .seconds(300)
        var seen: [pid_t] = []
        while ContinuousClock.now < deadline, child?.isRunning ?? process?.isRunning ?? false {
            seen = RunInterruptTests.processes(with: marker, besides: owner)
            if seen.map(RunInterruptTests.commandLine).contains("sleep 601") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let commands = seen.map(RunInterruptTests.commandLine)
        #expect(commands.contains("sleep 601"), "the hook's daemon did not start: \(commands); \(child?.standardOutput.suffix(600) ?? "")")
        #expect(commands.contains { $0.contains("/mockauth ") } && commands.contains { $0.contains("/complianced ") }, "\(commands)")

        kill(owner, SIGKILL)
        var left = RunInterruptTests.processes(with: marker, besides: owner)
        let gone = ContinuousClock.now + .seconds(30)
        while !left.isEmpty, ContinuousClock.now < gone {
            try await Task.sleep(for: .milliseconds(50))
            left = RunInterruptTests.processes(with: marker, besides: owner)
        }
        #expect(left.isEmpty, "still running after the owner was killed: \(left.map(RunInterruptTests.commandLine))")
        for pid in left { kill(pid, SIGKILL) }  // never leave them behind, even when the test fails
        if let child {
            #expect(await child.waitForExit(timeout: .seconds(30)))
            #expect(child.exitStatus == .signalled(SIGKILL))
        }
        if let process {  // reaped by Foundation; bounded, never waitUntilExit (a blocked mask can hang it)
            let reaped = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < reaped { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!process.isRunning)
        }
    }
}
