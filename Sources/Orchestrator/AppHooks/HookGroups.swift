import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The process groups of running app hooks, recorded under `STATE/hooks/` (one file a hook:
/// its leader's pid and start time). A daemon killed while a hook ran leaves its group alive;
/// the next daemon on the state directory ends every recorded group at start, before it
/// resumes the work that runs the hook again: a hook never outlives its daemon past the next
/// start, and never runs twice at once for the same work.
enum HookGroups {
    static func directory(_ stateDirectory: String) -> String { stateDirectory + "/hooks" }

    /// Records the group led by `pid`; returns the record's path (nil when it cannot be
    /// written: the hook still runs, only a crash would leave it unrecorded).
    static func record(pid: Int32, label: String, stateDirectory: String) -> String? {
        let folder = directory(stateDirectory)
        try? FileSecurity.makeDirectory(folder)
        let path = folder + "/\(label)-\(pid)"
        let line = "\(pid) \(startTime(of: pid) ?? 0)\n"
        return FileManager.default.createFile(atPath: path, contents: Data(line.utf8), attributes: [.posixPermissions: 0o600]) ? path : nil
    }

    /// The hook ended (or was killed and reaped): its record goes.
    static func forget(_ path: String?) {
        if let path { unlink(path) }
    }

    /// Ends every group a previous daemon recorded and removes the records; returns how many
    /// groups were signalled. A leader still alive must have the recorded start time (its pid
    /// was not reused); a leader gone may have left members in its group, which are ended too.
    @discardableResult
    static func endLeftovers(stateDirectory: String) -> Int {
        let folder = directory(stateDirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var ended = 0
        for name in names {
            let path = folder + "/" + name
            defer { unlink(path) }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let fields = text.split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let pid = Int32(fields[0]), pid > 1, let started = UInt64(fields[1]) else { continue }
            if let now = startTime(of: pid), now != started { continue }  // another process has the pid now
            if kill(-pid, SIGKILL) == 0 { ended += 1 }
            kill(pid, SIGKILL)
        }
        return ended
    }

    /// Field 22 of `/proc/PID/stat` (the start time in clock ticks since boot); nil when gone.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name in parentheses: field 3 onwards; the start time is field 22.
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        return rest.count > 19 ? UInt64(rest[19]) : nil
    }
}
