import ChildProcess

/// Runs a command to its end (killed at `timeout`) and returns its status and output; the
/// child gets a clean signal mask and no inherited descriptors (ChildProcess).
public enum Command {
    public struct Result: Sendable {
        /// The exit status; -1 when the command was killed.
        public var status: Int32
        public var timedOut: Bool
        public var stdout: String
        public var stderr: String
    }

    /// `graceful`: how long a command still running at `timeout` gets after SIGTERM before SIGKILL.
    public static func run(
        _ executable: String, _ arguments: [String], timeout: Duration, environment: [String: String]? = nil, graceful: Duration = .zero
    ) async throws -> Result {
        let completion = try await ChildProcess.run(executable, arguments, environment: environment, timeout: timeout, graceful: graceful)
        return Result(status: completion.status ?? -1, timedOut: completion.timedOut, stdout: completion.standardOutput, stderr: completion.standardError)
    }
}
