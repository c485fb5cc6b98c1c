import ChildProcess

#if canImport(Glibc)
import Glibc
#endif

/// Whether a daemon that stopped while a crash point was armed stopped *at that point*.
///
/// A daemon started with `--test-hooks` writes the point's name to ``markerName`` in its
/// state directory and then kills itself with SIGKILL (Sources/complianced/README.md, test
/// hooks). Any other death while armed (a crash of its own, a signal from elsewhere, an exit)
/// leaves no such marker, or dies another way, and is a failure: a real crash must not hide
/// behind the armed one.
enum CrashVerdict: Sendable, Hashable {
    /// It died by SIGKILL after writing the armed point's marker.
    case reachedArmedPoint
    /// It stopped some other way; the text says how.
    case otherDeath(String)

    /// The marker file's name (the daemon's `Engine.crashMarkerName`).
    static let markerName = "crash-point-reached"

    /// - Parameters:
    ///   - armed: the point the flow armed and the step that armed it.
    ///   - exit: how the daemon ended.
    ///   - marker: the marker file's content, nil when there is none.
    static func judge(armed: (point: String, step: Int), exit: ExitStatus, marker: String?) -> CrashVerdict {
        let reached = marker.map { $0.split(separator: "\n").first.map(String.init) ?? "" }
        let what = "the crash point \(armed.point) armed in step \(armed.step)"
        switch (reached, exit) {
        case (armed.point?, .signalled(SIGKILL)):
            return .reachedArmedPoint
        case (armed.point?, _):
            return .otherDeath("complianced reached \(what) but then \(exit) instead of killing itself (SIGKILL)")
        case (let other?, _):
            return .otherDeath("complianced stopped at the crash point \(other), not at \(what) (\(exit))")
        case (nil, _):
            return .otherDeath("complianced \(exit) while \(what) was armed, without reaching it: something else stopped it")
        }
    }
}
