#if canImport(Glibc)
import Glibc
#endif

/// systemd's readiness protocol (`sd_notify(3)`), without libsystemd: datagrams such as
/// `READY=1` sent to the `AF_UNIX` socket named by `NOTIFY_SOCKET`.
///
/// Created once at start with ``fromEnvironment()``, which also removes `NOTIFY_SOCKET`,
/// `WATCHDOG_USEC` and `WATCHDOG_PID` from the environment so that children (a wipe hook) do
/// not talk to systemd in the daemon's name. Without `NOTIFY_SOCKET` (not started by systemd
/// with `Type=notify`) every call does nothing.
public struct SystemdNotifier: Sendable {
    /// The socket address: a path, or an abstract name (written `@name` in the environment).
    public let socketPath: String?
    /// How often systemd expects `WATCHDOG=1` (`WatchdogSec=`), when it does.
    public let watchdogInterval: Duration?

    public init(socketPath: String?, watchdogInterval: Duration?) {
        self.socketPath = socketPath
        self.watchdogInterval = watchdogInterval
    }

    /// Reads and clears `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`.
    /// The watchdog applies only when `WATCHDOG_PID` is absent or names this process.
    public static func fromEnvironment() -> SystemdNotifier {
        let socket = getenv("NOTIFY_SOCKET").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        var interval: Duration?
        if let usec = getenv("WATCHDOG_USEC").flatMap({ UInt64(String(cString: $0)) }), usec > 0 {
            let pid = getenv("WATCHDOG_PID").flatMap { Int32(String(cString: $0)) }
            if pid == nil || pid == getpid() { interval = .microseconds(Int64(clamping: usec)) }
        }
        unsetenv("NOTIFY_SOCKET")
        unsetenv("WATCHDOG_USEC")
        unsetenv("WATCHDOG_PID")
        return SystemdNotifier(socketPath: socket, watchdogInterval: interval)
    }

    /// Whether systemd listens (`NOTIFY_SOCKET` was set).
    public var isActive: Bool { socketPath != nil }

    /// Sends `state` (newline-separated `KEY=VALUE` lines) in one datagram; `false` when there is
    /// no socket or the send failed (systemd gone: the daemon goes on).
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !path.isEmpty, path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path[0] == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == bytes.count
    }
}
