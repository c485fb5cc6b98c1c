import ChildProcess
import Foundation

/// A built executable of this package (mockauth, complianced, compliancectl) run as a child
/// process that prints a ready line first. Spawned with a clean signal mask (ChildProcess),
/// stopped with SIGKILL and a bounded reap.
public final class ChildServer: Sendable {
    public let child: ChildProcess

    /// The executable `name` next to the running test bundle or benchmark (`swift build` puts
    /// them in one directory; symlinks resolved).
    public static func executable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name).path
    }

    public init(_ name: String, arguments: [String], environment: [String: String]? = nil) throws {
        child = try ChildProcess(executable: Self.executable(name), arguments: arguments, environment: environment)
    }

    /// Waits (bounded) for the first complete stdout line; nil if the child exits first.
    public func firstLine(timeout: Duration) async -> String? {
        await child.firstLine(timeout: timeout)
    }

    /// Waits (bounded) for the child to exit on its own; true when it did.
    public func waitForExit(timeout: Duration) async -> Bool {
        await child.waitForExit(timeout: timeout)
    }

    /// How it ended, once it did.
    public var exitStatus: ExitStatus? { child.exitStatus }

    /// What the child wrote on stderr so far.
    public var stderr: String { child.standardError }

    /// SIGKILL, then a bounded reap; removes the scratch files.
    public func stop() async {
        await child.stop()
    }
}
