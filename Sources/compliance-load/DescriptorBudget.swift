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

    /// How the devices could be spread over more processes, for the advice when they do not
    /// fit: `--processes` (the fleet's `total` devices), more shards (the fleet's `total`
    /// devices), or a worker of `--processes` (its parent chose the split).
    enum Spread {
        case processes(total: Int)
        case shards(total: Int)
        case worker
    }

    /// Raises the soft limit to the hard one and checks `devices` with at most `concurrency`
    /// flows in flight fit (each flow's connection and one spare: 2 a flow, never more than
    /// the devices use); the error names what is needed, the limit, and what would fit.
    static func check(devices: Int, concurrency: Int, spread: Spread) throws(LoadError) {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        let available = Int(clamping: limit.rlim_cur)
        let connections = min(devices, concurrency) * 2
        let needed = devices * perDevice + connections + base
        guard needed > available else { return }
        let what = "\(devices) devices in one process need about \(needed) file descriptors (\(perDevice) per device's SQLite store, "
            + "\(connections) for HTTP connections, \(base) more), but this process may open \(available) (ulimit -n; hard limit \(limit.rlim_max))."
        let room = available - base - connections
        guard room >= perDevice else {
            let least = perDevice + 2 + base  // one device, one flow
            throw LoadError(available < least
                ? "\(what) Raise the limit to at least \(least) (ulimit -n): no device runs under it."
                : "\(what) Lower --concurrency (its connections take \(connections)), or raise the limit.")
        }
        let perProcess = room / perDevice
        switch spread {
        case .processes(let total):
            throw LoadError("\(what) Use --processes \((total + perProcess - 1) / perProcess) or more, or raise the limit.")
        case .shards(let total):
            let shards = (total + perProcess - 1) / perProcess
            throw LoadError("\(what) Use \(shards) or more shards (--shard I/\(shards): each runs at most \(perProcess) devices here), or raise the limit.")
        case .worker:
            throw LoadError("\(what) Use more --processes, or raise the limit.")
        }
    }
}

/// A load run that cannot start or whose workers failed, said so a person can act on it.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
