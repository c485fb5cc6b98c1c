#if canImport(Glibc)
import Glibc
#endif

/// File descriptors a process of the load run needs, checked before any device starts: each
/// device's SQLite store holds five (a database pool: the writer's connection and one reader's
/// each open the database and its write-ahead log; the shared memory is opened once), and
/// every HTTP connection one. A device runs one flow at a time, so its pool never opens a
/// second reader (DescriptorBudgetTests counts what a started device and one whose flow ended
/// really hold).
enum DescriptorBudget {
    static let perDevice = 5
    /// Standard streams, the mock's listener, libcurl's and SQLite's own, and slack.
    static let base = 64

    /// Raises the soft limit to the hard one and checks `devices` and `connections` fit; the
    /// error names what is needed, the limit, and how many processes would fit.
    static func check(devices: Int, connections: Int, totalDevices: Int) throws(LoadError) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let available = Int(clamping: limit.rlim_cur)
        let needed = devices * perDevice + connections + base
        guard needed > available else { return }
        let perProcess = max(1, (available - connections - base) / perDevice)
        let processes = (totalDevices + perProcess - 1) / perProcess
        throw LoadError(
            "\(devices) devices in one process need about \(needed) file descriptors (\(perDevice) per device's SQLite store, "
                + "\(connections) for HTTP connections, \(base) more), but this process may open \(available) (ulimit -n; hard limit "
                + "\(limit.rlim_max)). Use --processes \(processes) or more, or raise the limit.")
    }
}

/// A load run that cannot start or whose workers failed, said so a person can act on it.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
