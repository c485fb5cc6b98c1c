import ComplianceCore
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's own clean-up, run on selective wipe (the SDK's `wipeDataForAccount`): a shell
/// command (`/bin/sh -c`) that gets the account's UPN in `COMPLIANCE_WIPE_ACCOUNT` and its
/// managed files' directory in `COMPLIANCE_WIPE_DIRECTORY`, bounded in time. Exit status 0
/// answers YES (the app removed the account's data); anything else NO (the daemon removes
/// the account's files).
public struct WipeHook: Sendable, Hashable {
    /// The command line given to `/bin/sh -c`.
    public var command: String
    /// How long the command may run before it is killed with SIGKILL.
    public var timeout: Duration

    public init(command: String, timeout: Duration) {
        self.command = command
        self.timeout = timeout
    }

    /// How the command ended.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status (0 is success).
        case exited(Int32)
        /// A signal it did not get from us ended it.
        case signaled(Int32)
        /// It outlived ``WipeHook/timeout`` and was killed.
        case timedOut

        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            case .timedOut: "timed out and was killed"
            }
        }
    }

    /// Runs the command for `account` and waits for it, at most ``timeout`` plus a short grace
    /// for the kill to be reaped. Its standard input and output are `/dev/null`.
    /// - Parameter directory: the account's vault directory (`COMPLIANCE_WIPE_DIRECTORY`).
    /// - Throws: ``VaultError/Code/io`` when `/bin/sh` cannot be started.
    public func run(for account: AccountID, directory: String? = nil, logger: Logger) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["COMPLIANCE_WIPE_ACCOUNT"] = account.upn
        if let directory { environment["COMPLIANCE_WIPE_DIRECTORY"] = directory }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = TerminationFlag()
        process.terminationHandler = { _ in ended.set() }
        do {
            try process.run()
        } catch {
            throw VaultError(code: .io, account: account.upn, message: "cannot start the wipe hook: \(error)")
        }
        let pid = process.processIdentifier
        logger.info("wipe hook started", metadata: ["account.id": "\(account.upn)", "wipe.pid": "\(pid)"])

        guard await ended.wait(atMost: timeout) else {
            // SIGKILL: a child of a test runner may have SIGTERM blocked, and the hook had its chance.
            // Process starts the shell as a process-group leader: kill the group, so commands the
            // shell forked (it does not always exec the last one) die with it.
            if getpgid(pid) == pid { kill(-pid, SIGKILL) }
            kill(pid, SIGKILL)
            if !(await ended.wait(atMost: .seconds(5))) {
                logger.error("wipe hook did not exit after SIGKILL", metadata: ["wipe.pid": "\(pid)"])
            }
            logger.warning("wipe hook timed out and was killed", metadata: ["account.id": "\(account.upn)", "wipe.pid": "\(pid)"])
            return .timedOut
        }
        let outcome: Outcome = process.terminationReason == .exit
            ? .exited(process.terminationStatus) : .signaled(process.terminationStatus)
        logger.info("wipe hook ended", metadata: ["account.id": "\(account.upn)", "wipe.outcome": "\(outcome)"])
        return outcome
    }
}

/// Set once by the process's termination handler; polled by the waiting task.
private final class TerminationFlag: @unchecked Sendable {  // `done` is guarded by `lock`
    private let lock = NSLock()
    private var done = false

    func set() { lock.withLock { done = true } }

    var isSet: Bool { lock.withLock { done } }

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
}
