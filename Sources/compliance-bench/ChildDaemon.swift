import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The built `complianced` executable (beside this benchmark) as a child process on a state
/// directory. Always stopped with SIGKILL and a bounded reap: a child of a Swift process may
/// inherit a blocked signal mask and ignore SIGTERM.
final class ChildDaemon: @unchecked Sendable {  // the process is only started, read and killed
    let process = Process()
    let stateDirectory: String
    /// From `run()` to the ready line on stdout.
    let startToReady: Duration
    var socketPath: String { stateDirectory + "/control.sock" }
    /// The daemon's standard error (removed by `stop()`).
    let errorLog: String

    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("complianced").path
    }

    /// Starts the daemon and waits (bounded) for `listening on unix:…`.
    init(stateDirectory: String, authority: String, timeout: Duration = .seconds(30)) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw BenchError("\(Self.executable) is missing: swift build -c release --product complianced")
        }
        self.stateDirectory = stateDirectory
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "--state-dir", stateDirectory, "--app", BenchEngine.appProfile, "--authority", authority,
            "--clock", "virtual", "--log-level", "error",
        ]
        let stdout = Pipe()
        process.standardOutput = stdout
        // Its standard error goes to a file beside the state directory, quoted when it fails to start.
        errorLog = stateDirectory + ".stderr"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorLog) ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        let line = Self.firstLine(of: stdout.fileHandleForReading, deadline: start + timeout)
        startToReady = ContinuousClock.now - start
        guard line == "listening on unix:\(stateDirectory)/control.sock" else {
            let stderr = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            let tail = stderr.split(separator: "\n").suffix(5).joined(separator: "\n")
            let exit = process.isRunning ? "still running" : "exit status \(process.terminationStatus)"
            stop()
            throw BenchError(
                "complianced did not get ready within \(timeout) (first line: \(line ?? "none"); \(exit))\(tail.isEmpty ? "" : "; its standard error ends:\n\(tail)")")
        }
    }

    /// Reads up to the first newline, giving up at `deadline` (poll, so a silent child cannot hang us).
    private static func firstLine(of handle: FileHandle, deadline: ContinuousClock.Instant) -> String? {
        var bytes: [UInt8] = []
        var poller = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        while ContinuousClock.now < deadline {
            guard poll(&poller, 1, 10) > 0 else { continue }
            guard read(handle.fileDescriptor, &byte, 1) == 1 else { return nil }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    /// Resident set size now, from /proc (bytes).
    var residentBytes: Int { procKilobytes("status", "VmRSS:") * 1024 }

    /// The anonymous part of the resident memory (heap, stacks), without mapped code (bytes).
    var anonymousBytes: Int { procKilobytes("smaps_rollup", "Anonymous:") * 1024 }

    private func procKilobytes(_ file: String, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/\(file)", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        }
        return 0
    }

    /// SIGKILL, then reap for at most 5 s.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
        try? FileManager.default.removeItem(atPath: errorLog)
    }

    deinit { stop() }
}
