import Foundation

/// Ends the process as soon as the reader of its piped stdout goes away
/// (`compliancectl events --follow | head -1`), instead of at the next event's write, which
/// may be hours later.
///
/// Only for a pipe on stdout (a terminal, a file or a socket has no reader to lose this way).
/// A thread of its own blocks in `poll` on fd 1: Linux reports POLLERR on a pipe's write end
/// once its last reader closed. The process then ends by SIGPIPE (status 128 + 13 in a shell),
/// as a write would have ended it with SIGPIPE's default action; it does so even when it
/// inherited SIGPIPE ignored or blocked (then a write would only fail), since nobody is left to
/// read what it prints.
enum ReaderGoneWatch {
    static func start() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        let thread = Thread {
            var entry = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let ready = poll(&entry, 1, -1)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0, entry.revents & Int16(POLLERR | POLLHUP) != 0 else { return }
                signal(SIGPIPE, SIG_DFL)
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_UNBLOCK, &pipeSignal, nil)
                raise(SIGPIPE)  // to this thread, which does not block it
                _exit(128 + SIGPIPE)  // not reached
            }
        }
        thread.name = "stdout-reader-watch"
        thread.start()
    }
}
