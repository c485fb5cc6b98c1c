import Foundation

/// Ends the process as a write to a closed pipe would, as soon as the reader of stdout goes
/// away (`compliancectl events --follow | head -1`), instead of at the next event's write,
/// which may be hours later.
///
/// Only for a pipe or socket on stdout (a terminal or a file has no reader to lose). A thread
/// of its own blocks in `poll` for POLLERR/POLLHUP on fd 1, which Linux reports on a pipe's
/// write end once its last reader closed; then SIGPIPE, with its default action, ends the
/// process with the same status a failed write gives (128 + 13 in a shell).
enum ReaderGoneWatch {
    static func start() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        let thread = Thread {
            var entry = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let ready = poll(&entry, 1, -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, entry.revents & Int16(POLLERR | POLLHUP) != 0 else { return }
                signal(SIGPIPE, SIG_DFL)
                kill(getpid(), SIGPIPE)
                return
            }
        }
        thread.name = "stdout-reader-watch"
        thread.start()
    }
}
