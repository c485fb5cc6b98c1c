import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The containment of every child: each program is started under `child-keeper` (a C program
/// of this package, Sources/child-keeper/main.c), which is a child subreaper, gives the program
/// SIGKILL as its parent-death signal, and watches this process (a pidfd). When this process
/// dies, however it dies (SIGKILL included), the keeper kills everything below it (the program,
/// its children, a `setsid` grandchild, a browser a driver started) and ends. When the program
/// ends by itself, the keeper also kills what it left running, then ends as the program did.
///
/// Why a keeper process and not `setpriv --pdeathsig KILL` alone: the parent-death signal
/// follows the *thread* that spawned the child (a thread of Swift's pool may end at any time)
/// and covers the child only, not its own children. Why a pidfd and not a descriptor of ours
/// held for our life: a library that closes a descriptor twice here (Foundation's `Process`
/// has) would then kill a running child; the pipe that reports the program's pid is ours for
/// the start only.
///
/// Without the keeper (not found beside this executable), children are started directly and
/// are not contained (``ChildProcess/keeperPath`` is nil).
enum Keeper {
    /// The keeper's path: `$COMPLIANCE_CHILD_KEEPER`, else `child-keeper` beside this
    /// executable (the build directory, where the tests run too), else the package's
    /// `../libexec/compliance-orchestrator/child-keeper`; nil when none is executable.
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["COMPLIANCE_CHILD_KEEPER"], !given.isEmpty {
            return isExecutableFile(given) ? given : nil
        }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let candidates = [
            directory.appendingPathComponent("child-keeper").path,
            directory.deletingLastPathComponent().appendingPathComponent("libexec/compliance-orchestrator/child-keeper").path,
        ]
        return candidates.first(where: isExecutableFile)
    }()

    /// A regular file this process may execute. (swift-corelibs-foundation's
    /// `isExecutableFile(atPath:)` answers true for a path that does not exist, as root.)
    static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// Reads the program's pid the keeper writes first ("pid N\n"); nil when the keeper ended
    /// or wrote nothing within `timeout`.
    static func programPID(from descriptor: Int32, timeout: Duration) -> pid_t? {
        let deadline = ContinuousClock.now + timeout
        var line: [UInt8] = []
        while !line.contains(0x0A) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000, 60_000))
            let ready = poll(&wait, 1, max(milliseconds, 1))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            line.append(byte)
        }
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        guard text.hasPrefix("pid "), let pid = pid_t(text.dropFirst(4)), pid > 0 else { return nil }
        return pid
    }
}

extension ChildProcess {
    /// The keeper every child is started under (``Keeper``); nil when none was found, and then
    /// children are not contained.
    public static var keeperPath: String? { Keeper.path }
}
