import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The children of this process that are still running (spawned by ``ChildProcess``, not yet
/// reaped), so a supervisor told to stop can stop them first instead of leaving them orphaned.
enum LiveChildren {
    /// The live children, how many spawns are under way, and whether this process is stopping
    /// (then no new spawn starts).
    static let state = Mutex<(children: [pid_t: Child], spawning: Int, stopping: Bool)>(([:], 0, false))

    /// A live child: the process to reap (its keeper, or the program when not contained) and
    /// the program, which signals go to.
    struct Child: Sendable {
        var reaped: pid_t
        var program: pid_t
    }
    static let sources = Mutex<[SignalSource]>([])
    static let installed = Mutex(false)
    /// Paths removed once a signal's stop has stopped the children (``ChildProcess/removeOnTermination(_:)``).
    static let leftovers = Mutex<Set<String>>([])

    /// A dispatch signal source; it is only kept, never touched again once resumed.
    final class SignalSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
        init(_ source: any DispatchSourceSignal) { self.source = source }
    }

    /// Before `posix_spawn`: false once this process is stopping.
    static func beginSpawn() -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.spawning += 1
            return true
        }
    }

    /// After `posix_spawn` (`pid` nil when it failed): registers the child. False when this
    /// process started stopping meanwhile; ``stopAll(grace:)`` then stops this child too.
    static func endSpawn(_ child: Child?) -> Bool {
        state.withLock { state in
            state.spawning -= 1
            if let child { state.children[child.reaped] = child }
            return !state.stopping
        }
    }

    /// The child reaped as `pid` is gone.
    static func remove(_ pid: pid_t) { _ = state.withLock { $0.children.removeValue(forKey: pid) } }

    /// SIGTERM to every live child, up to `grace` for them to exit, SIGKILL to the rest; each
    /// is reaped (the ``ChildProcess`` objects may never get to it). Spawns under way finish
    /// first (bounded) and are stopped with the rest; no new spawn starts.
    static func stopAll(grace: Duration) {
        state.withLock { $0.stopping = true }
        let settled = ContinuousClock.now + .seconds(2)
        while state.withLock({ $0.spawning }) > 0, ContinuousClock.now < settled { usleep(1_000) }
        let children = Array(state.withLock { $0.children.values })
        for child in children { kill(child.program, SIGTERM) }
        var running = children
        let deadline = ContinuousClock.now + grace
        while !running.isEmpty, ContinuousClock.now < deadline {
            running = running.filter { waitpid($0.reaped, nil, WNOHANG) == 0 }
            if !running.isEmpty { usleep(10_000) }
        }
        // SIGKILL to the program: its keeper then ends what it left and itself.
        for child in running { kill(child.program, SIGKILL) }
        let killed = ContinuousClock.now + .seconds(5)
        while !running.isEmpty, ContinuousClock.now < killed {
            running = running.filter { waitpid($0.reaped, nil, WNOHANG) == 0 }
            if !running.isEmpty { usleep(10_000) }
        }
        for child in running {
            kill(child.reaped, SIGKILL)
            _ = waitpid(child.reaped, nil, 0)
        }
    }
}

extension ChildProcess {
    /// When a signal has started ``stopChildrenOnTermination()``'s stop, waits for it to end
    /// this process by that signal (it never returns then); otherwise returns at once. Call it
    /// before exiting on your own: work whose servers were just stopped fails fast, and its
    /// exit would otherwise beat the signal's.
    public static func awaitTerminationIfStopping() async {
        while LiveChildren.state.withLock({ $0.stopping }) {
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Removes `path` (a directory its children use) when a signal stops this process
    /// (``stopChildrenOnTermination()``), after the children are stopped; a process that ends
    /// by itself takes it back with ``forgetOnTermination(_:)`` and removes it itself.
    public static func removeOnTermination(_ path: String) {
        _ = LiveChildren.leftovers.withLock { $0.insert(path) }
    }

    /// Takes back a ``removeOnTermination(_:)``: true when `path` was still given, so the
    /// caller removes it; false once a signal's stop has begun, which removes it only after
    /// every child is reaped (a caller finishing meanwhile may see a child as gone that still
    /// writes into it).
    @discardableResult
    public static func forgetOnTermination(_ path: String) -> Bool {
        guard !LiveChildren.state.withLock({ $0.stopping }) else { return false }
        return LiveChildren.leftovers.withLock { $0.remove(path) != nil }
    }

    /// Makes this process a careful supervisor of the children it starts:
    ///
    /// - On SIGINT, SIGTERM or SIGHUP it stops every live child (SIGTERM, up to 5 s, then
    ///   SIGKILL) and then ends by the same signal, so its own parent sees how it ended.
    /// - Then it removes the paths given to ``removeOnTermination(_:)``.
    /// - SIGPIPE is ignored: when whoever reads this process's output goes away (`| head`),
    ///   writes fail instead of killing it with its children still running.
    ///
    /// Call early (compliancectl does before it starts servers); later calls do nothing. Children spawned by
    /// ``ChildProcess`` get default dispositions back, whatever this process set.
    public static func stopChildrenOnTermination() {
        guard LiveChildren.installed.withLock({ installed in defer { installed = true }; return !installed }) else { return }
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)  // delivered to the dispatch source instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                LiveChildren.stopAll(grace: .seconds(5))
                // The children no longer write into them: what they used goes too. The paths are
                // taken, so a supervisor finishing on its own at the same time does not remove
                // them too (two removals of one tree each stop at the other's deletions).
                let paths = LiveChildren.leftovers.withLock { paths in defer { paths = [] }; return paths }
                for path in paths { try? FileManager.default.removeItem(atPath: path) }
                signal(number, SIG_DFL)
                kill(getpid(), number)
            }
            source.resume()
            let kept = LiveChildren.SignalSource(source)
            LiveChildren.sources.withLock { $0.append(kept) }
        }
    }
}
