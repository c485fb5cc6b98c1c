import ChildProcess
import Foundation
import LocalServers

/// The built `complianced` executable (beside this benchmark) as a child process on a state
/// directory, started by the ``ChildProcess`` module (clean signal mask, ready line seen the
/// moment it is written). Stopped with SIGKILL and a bounded reap.
final class ChildDaemon: Sendable {
    let child: ChildProcess
    let stateDirectory: String
    /// From the spawn to the ready line on stdout (both instants noted by ChildProcess).
    let startToReady: Duration
    var socketPath: String { stateDirectory + "/control.sock" }

    static let executable = ChildServer.executable("complianced")

    /// Starts the daemon and waits (bounded) for `listening on unix:…`; a daemon that does not
    /// get ready is killed, and the error quotes the end of its standard error.
    init(stateDirectory: String, authority: String, timeout: Duration = .seconds(30)) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw BenchError("\(Self.executable) is missing: swift build -c release --product complianced")
        }
        self.stateDirectory = stateDirectory
        child = try ChildProcess(
            executable: Self.executable,
            arguments: [
                "--state-dir", stateDirectory, "--app", BenchEngine.appProfile, "--authority", authority,
                "--clock", "virtual", "--log-level", "error",
            ])
        let line = await child.firstLine(timeout: timeout)
        guard line == "listening on unix:\(stateDirectory)/control.sock", let readyAt = child.firstLineAt else {
            let exit = child.exitStatus.map { "\($0)" } ?? "still running"
            let tail = child.standardError.split(separator: "\n").suffix(5).joined(separator: "\n")
            await child.stop()
            throw BenchError(
                "complianced did not get ready within \(timeout) (first line: \(line ?? "none"); \(exit))\(tail.isEmpty ? "" : "; its standard error ends:\n\(tail)")")
        }
        startToReady = readyAt - child.startedAt
    }

    /// Resident set size now, from /proc (bytes).
    var residentBytes: Int { procKilobytes("status", "VmRSS:") * 1024 }

    /// The anonymous part of the resident memory (heap, stacks), without mapped code (bytes).
    var anonymousBytes: Int { procKilobytes("smaps_rollup", "Anonymous:") * 1024 }

    private func procKilobytes(_ file: String, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(child.pid)/\(file)", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        }
        return 0
    }

    /// SIGKILL, then a bounded reap.
    func stop() async {
        await child.stop()
    }
}
