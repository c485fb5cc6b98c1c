import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A built executable of this package (mockauth, complianced) run as a child process that
/// prints a ready line first. Always stopped with SIGKILL and a bounded reap: a child started
/// from Swift Testing may inherit a blocked signal mask and ignore SIGTERM.
public final class ChildServer: @unchecked Sendable {  // `process` is only started and killed
    public let process = Process()
    private let scratch: URL
    private let stdoutURL: URL
    public let stderrURL: URL

    /// The executable `name` next to the test bundle (`swift build` puts them in one directory).
    public static func executable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    public init(_ name: String, arguments: [String], environment: [String: String]? = nil) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.executable(name))
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits (bounded) for the first complete stdout line; nil if the child exits first.
    public func firstLine(timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: stdoutURL, encoding: .utf8), let newline = text.firstIndex(of: "\n") {
                return String(text[..<newline])
            }
            if !process.isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits (bounded) for the child to exit on its own; true when it did.
    public func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return !process.isRunning
    }

    /// What the child wrote on stderr so far.
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// SIGKILL, then a bounded reap; removes the scratch files.
    public func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = await waitForExit(timeout: .seconds(5))
        try? FileManager.default.removeItem(at: scratch)
    }
}
