import AppProfile
import Glibc

/// An exclusive lock on `STATE_DIR/complianced.lock` (flock), held for the daemon's life:
/// two daemons never share a state directory. The kernel drops it when the process dies,
/// even by `kill -9`.
public final class StateDirectoryLock {
    private let descriptor: Int32
    public let path: String

    public init(stateDirectory: String) throws {
        path = stateDirectory + "/complianced.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AppSettingsError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw AppSettingsError("another complianced is using \(stateDirectory) (\(path) is locked); stop it or choose another --state-dir")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
