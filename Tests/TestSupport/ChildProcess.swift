import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a child process with a bounded wait; on timeout it is killed with SIGKILL
/// (a child started from Swift Testing may ignore SIGTERM: inherited signal mask).
public enum ChildProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var timedOut: Bool
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` to its end or to `timeout`; returns its exit status and output.
    public static func run(_ executable: String, _ arguments: [String], timeout: Duration, environment: [String: String]? = nil) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? out.close(); try? err.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if let environment { process.environment = environment }
        try process.run()
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        // After SIGKILL the exit is immediate; bound this wait too.
        let reapDeadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < reapDeadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let status = process.isRunning ? -1 : process.terminationStatus
        return Result(
            status: status, timedOut: timedOut,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}
