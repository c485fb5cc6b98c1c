import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The `mockauth` executable run as a child process; always stopped with SIGKILL
/// (a child of Swift Testing may inherit a blocked signal mask and ignore SIGTERM).
final class ServerProcess {
    let process = Process()
    private let scratch: URL
    private let stdoutURL: URL

    /// The built `mockauth` next to the test bundle (`swift build` puts both in one directory).
    static var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mockauth").path
    }

    init(arguments: [String]) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits (bounded) for the first complete stdout line.
    func firstLine(timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOf: stdoutURL, encoding: .utf8), let newline = text.firstIndex(of: "\n") {
                return String(text[..<newline])
            }
            if !process.isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// SIGKILL, then a bounded reap.
    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        try? FileManager.default.removeItem(at: scratch)
    }
}
