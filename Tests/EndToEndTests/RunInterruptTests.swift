import ChildProcess
import Foundation
import Testing
import LocalServers

/// `compliancectl run` told to stop while its servers run: it stops them before it ends, so
/// nothing it started outlives it.
@Suite struct RunInterruptTests {
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aStoppedRunStopsTheServersItStartedAndEndsByTheSignal(signal: Int32) async throws {
        let (marker, environment) = Self.markedEnvironment()
        // A flow whose token requests each take 9 s at mockauth (ten of them): the run keeps its
        // servers for a minute and more, however long this test waits for a turn on a busy machine.
        let directory = NSTemporaryDirectory() + "interrupt-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let signIn = Self.slowSignIn
        let flow = """
            {"name": "a slow issuer", "description": "every token request waits 9 s",
             "fixture": "\(CLI.root)/mocks/fixtures/contoso.json", "app": "\(CLI.root)/mocks/fixtures/apps/chatr-Info.plist",
             "steps": [{"do": "injectFault", "route": "token", "delayMs": 9000, "count": 10}, \(Array(repeating: signIn, count: 10).joined(separator: ", "))]}
            """
        #expect(FileManager.default.createFile(atPath: directory + "/slow.json", contents: Data(flow.utf8)))
        let run = try ChildProcess(
            executable: ChildServer.executable("compliancectl"), arguments: ["run", directory], environment: environment)
        // Wait until it has servers running: its children (found by parent pid, which does not
        // depend on reading other processes' environments), or processes carrying the marker.
        let deadline = ContinuousClock.now + .seconds(120)
        var servers: [pid_t] = []
        // Both programs, not only two processes: each runs under its keeper.
        let both = { (pids: [pid_t]) in
            let commands = pids.map(Self.commandLine)
            return commands.contains { $0.contains("/mockauth ") } && commands.contains { $0.contains("/complianced ") }
        }
        while !both(servers), run.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            servers = Array(Set(Self.children(of: run.pid) + Self.processes(with: marker, besides: run.pid)))
        }
        try #require(both(servers), "no servers seen; stdout: \(run.standardOutput.suffix(500))")
        // The daemon's state directory (its --state-dir), which the run must remove too (its
        // keeper's command line names it too: a set).
        let stateDirectories = Set(servers.compactMap { pid -> String? in
            let arguments = Self.commandLine(pid).split(separator: " ").map(String.init)
            guard let flag = arguments.firstIndex(of: "--state-dir"), flag + 1 < arguments.count else { return nil }
            return arguments[flag + 1]
        })
        #expect(stateDirectories.count == 1, "one daemon with a --state-dir: \(servers.map { Self.commandLine($0) })")
        run.send(signal)
        #expect(await run.waitForExit(timeout: .seconds(30)))
        #expect(run.exitStatus == .signalled(signal))
        // Everything it started is gone (stopped, and reaped by it).
        let alive = { Array(Set(servers.filter(Self.isLive) + Self.processes(with: marker, besides: run.pid))) }
        var left = alive()
        let gone = ContinuousClock.now + .seconds(10)
        while !left.isEmpty, ContinuousClock.now < gone {
            try await Task.sleep(for: .milliseconds(50))
            left = alive()
        }
        #expect(left.isEmpty, "still running: \(left.map { Self.commandLine($0) })")
        for directory in stateDirectories {
            #expect(!FileManager.default.fileExists(atPath: directory), "the run left its daemon's state directory \(directory)")
        }
        for pid in left { kill(pid, SIGKILL) }  // never leave them behind, even when the test fails
        await run.stop()
    }

    /// A marker (`NAME=VALUE`) and this process's environment with it: children inherit the
    /// environment, so the marker finds them among all processes.
    static func markedEnvironment() -> (marker: String, environment: [String: String]) {
        let value = UUID().uuidString
        var environment = ProcessInfo.processInfo.environment
        environment["COMPLIANCECTL_TEST_RUN"] = value
        return ("COMPLIANCECTL_TEST_RUN=\(value)", environment)
    }

    /// Flow steps: a sign-in after a deregistration with wipe, so its token comes from the
    /// issuer (a delayed request), never from the cache.
    static let slowSignIn =
        #"{"do": "signIn", "account": "bob@contoso.com", "password": "Passw0rd!"}, {"do": "deregister", "account": "bob@contoso.com", "wipe": true}"#

    /// The live children of `parent` (field 4 of /proc/PID/stat).
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && Int32(fields[1]) == parent
        }
    }

    /// True while `pid` runs (exists and is not a zombie).
    static func isLive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// Live processes (not zombies) whose environment holds `marker`, other than `excluded`.
    static func processes(with marker: String, besides excluded: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard pid != excluded, pid != getpid() else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] != "Z"
            else { return false }
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environ.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker }
        }
    }

    static func commandLine(_ pid: pid_t) -> String {
        let bytes = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }
}
