import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program of this package (mockauth, complianced) started as a child process that prints a
/// ready line on stdout first.
///
/// Spawned with `posix_spawn` and an empty signal mask with default dispositions, so the
/// child reacts to SIGTERM and SIGINT even when this process runs with signals blocked (as
/// a test runner may). Its stdout comes through a pipe that a thread drains into a file (so
/// the ready line is seen the moment it is written), its stderr goes to a file; both files
/// live in a scratch directory, removed when this object goes away.
///
/// Contained (``Keeper``): the program runs under `child-keeper`, so neither it nor anything it
/// starts outlives this process, however this process dies, and whatever the program leaves
/// running when it ends is ended too. ``pid`` is the program's; signals go to it directly.
///
/// ## Why not swift-subprocess (decided 2026-11-26, issue 29)
/// swiftlang/swift-subprocess 1.0.2 (in the package mirror) spawns as carefully (empty signal
/// mask, default dispositions, close-on-exec descriptors) and would replace ``Spawn`` and the
/// reaping here, but not the rest, so the code would not get simpler:
/// - Its model is scoped: a child lives for the closure passed to `run(_:…)` and is torn down
///   when it returns. Ours outlive the scope that starts them: `compliancectl run` starts a
///   flow's mockauth and complianced and stops them later, tests hold a ``ChildProcess`` in a
///   harness object from `init` to `stop()`, and ``LiveChildren`` must find every live child
///   from a signal handler to stop it before `compliancectl run` exits (SIGINT, SIGTERM,
///   SIGHUP). Each of the 34 files that start children would become a closure nest.
/// - The first stdout line must be seen the moment it is written (the ready line, read with a
///   deadline while the child keeps running) and stdout kept whole for later reads; a stream
///   consumed inside the closure gives the first, not the second, without our own buffering.
/// - On kernels without pidfd it installs a process-wide SIGCHLD handler, which would race
///   with our `waitpid` reaping of children it did not start.
/// Revisit when a detached (unscoped) execution lands upstream.
public final class ChildProcess: @unchecked Sendable {  // `pid` and the paths never change; `exitStatus` is behind a lock
    /// The program's process id.
    public let pid: pid_t
    /// The process this one reaps: the keeper, or the program itself when not contained.
    let reapedPID: pid_t
    /// The program's path, for messages.
    public let executable: String
    private let scratch: String
    private let stdoutPath: String
    private let stderrPath: String
    private let reaped = ReapState()
    private let output: OutputPipe
    /// When the child was spawned (just before `posix_spawn`).
    public let startedAt: ContinuousClock.Instant

    /// Starts `executable` with `arguments`; `environment` nil inherits this process's;
    /// `input` is what the child reads on stdin (nothing when nil).
    public init(executable: String, arguments: [String], environment: [String: String]? = nil, input: [UInt8]? = nil) throws(ChildProcessError) {
        self.executable = executable
        guard Keeper.isExecutableFile(executable) else {
            throw ChildProcessError(.notFound, "\(executable) is not an executable file")
        }
        let name = (executable as NSString).lastPathComponent
        scratch = NSTemporaryDirectory() + "child-\(name)-\(UUID().uuidString)"
        stdoutPath = scratch + "/stdout"
        stderrPath = scratch + "/stderr"
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ChildProcessError(.spawnFailed, "cannot create \(scratch): \(error)")
        }
        // A supervisor stopped by a signal ends without this object's deinit: the stop removes it.
        Self.removeOnTermination(scratch)
        var stdinPath = "/dev/null"
        if let input {
            stdinPath = scratch + "/stdin"
            guard FileManager.default.createFile(atPath: stdinPath, contents: Data(input), attributes: [.posixPermissions: 0o600]) else {
                throw ChildProcessError(.spawnFailed, "cannot write \(stdinPath)")
            }
        }
        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        output = try OutputPipe()
        guard LiveChildren.beginSpawn() else {
            output.abandon()
            Self.discardScratch(scratch)
            throw ChildProcessError(.spawnFailed, "not starting \(executable): this process is stopping")
        }
        startedAt = .now
        do throws(ChildProcessError) {
            // The keeper reports the program's pid on a pipe of its own (its descriptor 3).
            let keeper = Keeper.path
            let report = keeper == nil ? nil : try OutputPipe.closeOnExecPipe(for: "the keeper's report")
            let (stdout, stderr) = (output.writeEnd, stderrPath)
            let spawned = Result { () throws(ChildProcessError) in
                try Spawn.run(
                    executable: executable, arguments: arguments, environment: environmentList, stdin: stdinPath, stdout: stdout,
                    stderr: stderr, keeper: keeper.map { ($0, report!.write) })
            }
            if let report { close(report.write) }  // the keeper has its copy
            defer { if let report { close(report.read) } }
            let started = try spawned.get()
            if let keeper, let report {
                let keeperPID = started
                guard let program = Keeper.programPID(from: report.read, timeout: .seconds(60)) else {
                    kill(keeperPID, SIGKILL)
                    var raw: Int32 = 0
                    _ = waitpid(keeperPID, &raw, 0)
                    let said = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
                    throw ChildProcessError(
                        .spawnFailed, "cannot start \(executable): its keeper (\(keeper)) did not report it started (\(ExitStatus(raw: raw))) \(said)")
                }
                (pid, reapedPID) = (program, keeperPID)
            } else {
                (pid, reapedPID) = (started, started)
            }
        } catch {
            _ = LiveChildren.endSpawn(nil)
            output.abandon()
            Self.discardScratch(scratch)
            throw error
        }
        output.start(copyingTo: stdoutPath)
        guard LiveChildren.endSpawn(LiveChildren.Child(reaped: reapedPID, program: pid)) else {
            // This process is stopping its children (``stopChildrenOnTermination()``), this one with them.
            throw ChildProcessError(.spawnFailed, "not starting \(executable): this process is stopping")
        }
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL) }
        _ = waitForExit(deadline: .now + .seconds(2))
        if exitStatus == nil, reapedPID != pid {
            kill(reapedPID, SIGKILL)  // a keeper that did not end with its program
            _ = waitForExit(deadline: .now + .seconds(2))
        }
        Self.discardScratch(scratch)
    }

    /// Waits (bounded) for the first complete stdout line; nil if the child closes its stdout
    /// (or exits) first or the time runs out.
    public func firstLine(timeout: Duration) async -> String? {
        var deadline = ContinuousClock.now + timeout
        var exited = false
        while ContinuousClock.now < deadline {
            if let first = output.firstLine { return first.line }
            if output.isClosed { return output.firstLine?.line }
            if !exited, !isRunning {
                // Exited, but what it wrote may still be in the pipe (or a process it started
                // holds its stdout): give the draining thread a moment, not the whole timeout.
                exited = true
                deadline = min(deadline, .now + .milliseconds(200))
            }
            try? await Task.sleep(for: .milliseconds(5))  // the line's own time is noted by the draining thread
        }
        return output.firstLine?.line
    }

    /// When the first complete stdout line arrived (noted by the draining thread), once it did.
    public var firstLineAt: ContinuousClock.Instant? { output.firstLine?.at }

    /// What the child wrote on stdout so far; once it exited, all of it: this waits (up to 2 s)
    /// for the draining thread to copy the rest. A process the child started may hold its
    /// stdout open longer; then it is what arrived so far.
    public var standardOutput: String {
        if !isRunning { output.waitUntilClosed(timeout: .seconds(2)) }
        return (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
    }

    /// What the child wrote on stderr so far.
    public var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// True until the child exited (and was reaped).
    public var isRunning: Bool { exitStatus == nil }

    /// The child's exit: `.exited(code)` or `.signalled(signal)`; nil while it runs.
    public var exitStatus: ExitStatus? {
        reaped.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(reapedPID, &raw, WNOHANG)
            if result == -1, errno == ECHILD {
                // Reaped elsewhere (``stopChildrenOnTermination()``): gone, how is unknown.
                status = .signalled(SIGKILL)
                LiveChildren.remove(reapedPID)
                return status
            }
            guard result == reapedPID else { return nil }
            // The keeper ends as the program ended.
            status = ExitStatus(raw: raw)
            LiveChildren.remove(reapedPID)
            return status
        }
    }

    /// Sends `signal` to the child (no effect once it exited).
    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    /// Waits (bounded) for the child to exit on its own; true when it did.
    public func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return !isRunning
    }

    private func waitForExit(deadline: ContinuousClock.Instant) -> Bool {
        while isRunning, ContinuousClock.now < deadline { usleep(2000) }
        return !isRunning
    }

    /// Stops the child: SIGTERM and up to `graceful` for it to exit, then SIGKILL; always
    /// reaps it (bounded). Returns how it ended.
    @discardableResult
    public func stop(graceful: Duration = .zero) async -> ExitStatus? {
        if isRunning, graceful > .zero {
            kill(pid, SIGTERM)
            _ = await waitForExit(timeout: graceful)
        }
        if isRunning { kill(pid, SIGKILL) }
        if !(await waitForExit(timeout: .seconds(5))), reapedPID != pid {
            kill(reapedPID, SIGKILL)  // a keeper that did not end with its program
            _ = await waitForExit(timeout: .seconds(5))
        }
        return exitStatus
    }
}

extension ChildProcess {
    /// Removes a child's scratch directory (its child has ended, or never started) and takes it
    /// back from a signal's stop (``removeOnTermination(_:)``), which may remove it too.
    static func discardScratch(_ scratch: String) {
        _ = LiveChildren.leftovers.withLock { $0.remove(scratch) }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// What a finished command printed and how it ended.
    public struct Completion: Sendable {
        /// The exit code; nil when it was killed (by a signal, or at the timeout).
        public var status: Int32?
        public var timedOut: Bool
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs a command to its end, stopping it after `timeout` (SIGTERM and up to `graceful`
    /// for it to exit, then SIGKILL; SIGKILL at once when `graceful` is zero).
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String]? = nil, timeout: Duration,
        graceful: Duration = .zero
    ) async throws(ChildProcessError) -> Completion {
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment, input: input)
        let finished = await child.waitForExit(timeout: timeout)
        let exit = await child.stop(graceful: graceful)
        var status: Int32?
        if case .exited(let code)? = exit { status = code }
        return Completion(status: status, timedOut: !finished, standardOutput: child.standardOutput, standardError: child.standardError)
    }
}

/// How a child process ended.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    init(raw: Int32) {
        let signal = raw & 0x7f
        self = signal == 0 ? .exited((raw >> 8) & 0xff) : .signalled(signal)
    }

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}

/// The cached exit status, behind a lock (waitpid may reap only once).
final class ReapState: @unchecked Sendable {  // every access goes through `lock`
    private let lock = NSLock()
    private var status: ExitStatus?

    func withLock<T>(_ body: (inout ExitStatus?) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&status)
    }
}
