#if canImport(Glibc)
import Glibc
#endif

/// `posix_spawn` with stdin and stderr redirected to files, stdout to a descriptor (a pipe's
/// write end), an empty signal mask and default dispositions for the signals a supervisor sends.
/// With a `keeper` (``Keeper``), the keeper is started with this process's pid and the write
/// end of its report pipe as descriptor 3, and starts the program itself: the pid returned is
/// the keeper's.
enum Spawn {
    static func run(
        executable: String, arguments: [String], environment: [String], stdin: String, stdout: Int32, stderr: String,
        keeper: (path: String, descriptor: Int32)? = nil
    ) throws(ChildProcessError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)  // dup2 clears close-on-exec on descriptor 1
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let keeper { posix_spawn_file_actions_adddup2(&actions, keeper.descriptor, 3) }
        closeInheritedDescriptors(&actions, from: keeper == nil ? 3 : 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let started = keeper.map { [$0.path, String(getpid()), "3", executable] } ?? [executable]
        let argv = (started + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, keeper?.path ?? executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ChildProcessError(.spawnFailed, "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// The child keeps only stdin, stdout and stderr (and the keeper's descriptor 3). Other descriptors of this process (a
    /// server's listening socket: SwiftNIO opens them without close-on-exec) would otherwise
    /// live on in the child, which keeps accepting connections on the port after the server
    /// closed it. glibc 2.34+'s `posix_spawn_file_actions_addclosefrom_np` is not visible to
    /// Swift's Glibc module, so it is looked up at run time (older C libraries: nothing is closed).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: CInt) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }
}

/// Why a child process could not be started.
public struct ChildProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The executable does not exist or is not executable.
        public static let notFound = Code("notFound")
        /// `posix_spawn` or its scratch directory failed.
        public static let spawnFailed = Code("spawnFailed")
        public var description: String { name }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
