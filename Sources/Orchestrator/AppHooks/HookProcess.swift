import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an app hook's command ended (the wipe hook, the restart hook).
public enum HookOutcome: Sendable, Hashable, CustomStringConvertible {
    /// It exited with this status (0 is success: the app answers YES).
    case exited(Int32)
    /// A signal it did not get from us ended it.
    case signaled(Int32)
    /// It outlived its time limit and was killed.
    case timedOut

    public var succeeded: Bool { self == .exited(0) }

    /// The exit status, when it exited on its own.
    public var exitStatus: Int32? {
        if case .exited(let status) = self { return status }
        return nil
    }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by signal \(signal)"
        case .timedOut: "timed out and was killed"
        }
    }
}

/// An app hook's command line (`/bin/sh -c command`) and its time limit; `Purpose` names the
/// hook (``WipeHook``, ``RestartHook``), whose extension says what it is asked and what its
/// exit status answers.
public struct AppHookCommand<Purpose>: Sendable, Hashable {
    /// The command line given to `/bin/sh -c`.
    public var command: String
    /// How long the command may run before it is killed with SIGKILL.
    public var timeout: Duration

    public init(command: String, timeout: Duration) {
        self.command = command
        self.timeout = timeout
    }
}

/// Runs an app hook: `/bin/sh -c command` with `environment` added to the daemon's, standard
/// input and output `/dev/null`, bounded by `timeout` (then SIGKILL to its process group).
enum HookProcess {
    /// Why the command could not start.
    struct StartFailure: Error {
        var underlying: any Error
    }

    /// Runs it and waits, at most `timeout` plus a short grace for the kill to be reaped.
    /// `label` names the hook in the log (`wipe`, `restart`). With `stateDirectory` its process
    /// group is recorded there while it runs (``HookGroups``).
    static func run(
        _ command: String, environment added: [String: String], timeout: Duration, label: String, account: String, stateDirectory: String? = nil,
        logger: Logger
    ) async throws(StartFailure) -> HookOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = TerminationFlag()
        process.terminationHandler = { _ in ended.set() }
        let started = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw StartFailure(underlying: error)
        }
        let pid = process.processIdentifier
        let record = stateDirectory.flatMap { HookGroups.record(pid: pid, label: label, stateDirectory: $0) }
        defer { HookGroups.forget(record) }
        logger.info("\(label) hook started", metadata: ["account.id": "\(account)", "hook.pid": "\(pid)"])

        // The shell's own end decides, not Foundation's termination handler: that one fires
        // only once every process holding the shell's status socket has exited, background
        // commands the hook left behind (`sleep 300 & exit 0`) included.
        let end = await ended.wait(atMost: timeout, orUntilExited: pid)
        // A hook that ended only after its limit outlived it, even when this task (starved on a
        // busy machine) got to look only later: that is a timeout, as if it had been killed.
        guard let end, end.at - started <= timeout else {
            // SIGKILL: a child of a test runner may have SIGTERM blocked, and the hook had its chance.
            // Process starts the shell as a process-group leader: kill the group, so commands the
            // shell forked (it does not always exec the last one) die with it.
            // (A hook already reaped is not signalled: its pid may be another process's by now.)
            if !ended.isSet {
                if getpgid(pid) == pid { kill(-pid, SIGKILL) }
                kill(pid, SIGKILL)
                if !(await ended.wait(atMost: .seconds(5))) {
                    logger.error("\(label) hook did not exit after SIGKILL", metadata: ["hook.pid": "\(pid)"])
                }
            }
            logger.warning("\(label) hook timed out and was killed", metadata: ["account.id": "\(account)", "hook.pid": "\(pid)"])
            return .timedOut
        }
        if !ended.isSet {
            // The shell answered but left commands running in its group: the hook's answer is
            // given, and nothing of it may outlive it. (The shell is a zombie until Foundation
            // reaps it, so its pid still names this group.)
            kill(-pid, SIGKILL)
            logger.warning("\(label) hook left processes running after it answered; they were killed",
                           metadata: ["account.id": "\(account)", "hook.pid": "\(pid)"])
            if !(await ended.wait(atMost: .seconds(5))) {
                logger.error("\(label) hook's leftover processes did not exit after SIGKILL", metadata: ["hook.pid": "\(pid)"])
            }
        }
        let outcome = end.outcome ?? (process.terminationReason == .exit
            ? .exited(process.terminationStatus) : .signaled(process.terminationStatus))
        logger.info("\(label) hook ended", metadata: ["account.id": "\(account)", "hook.outcome": "\(outcome)"])
        return outcome
    }

    /// How the process `pid` ended, when it has, seen without reaping it (`WNOWAIT`: the
    /// reaping stays Foundation's); nil while it runs.
    static func peekExit(_ pid: pid_t) -> HookOutcome? {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return nil }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? .exited(status) : .signaled(status)
    }
}

/// Set once by the process's termination handler; polled by the waiting task.
private final class TerminationFlag: @unchecked Sendable {  // `done` is guarded by `lock`
    private let lock = NSLock()
    private var done: ContinuousClock.Instant?

    /// Records the end (the termination handler runs on its own thread, on time).
    func set() {
        let now = ContinuousClock.now
        lock.withLock { if done == nil { done = now } }
    }

    var isSet: Bool { lock.withLock { done != nil } }

    /// When the process ended, once it has.
    var endedAt: ContinuousClock.Instant? { lock.withLock { done } }

    /// Polls every 10 ms until set or `limit` has passed; returns whether it was set.
    /// Cancellation ends the wait early (returning the flag as it is).
    func wait(atMost limit: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !isSet, clock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return isSet
    }

    /// Polls every 10 ms until set, or until `pid` has exited (``HookProcess/peekExit(_:)``),
    /// or `limit` has passed: when it ended (the handler's time, or the first poll that saw
    /// the exit) and, when seen by the poll, how; nil while it still runs.
    func wait(atMost limit: Duration, orUntilExited pid: pid_t) async -> (at: ContinuousClock.Instant, outcome: HookOutcome?)? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline, !Task.isCancelled {
            if let endedAt { return (endedAt, nil) }
            if let outcome = HookProcess.peekExit(pid) { return (endedAt ?? clock.now, outcome) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        if let endedAt { return (endedAt, nil) }
        return HookProcess.peekExit(pid).map { (clock.now, $0) }
    }
}
