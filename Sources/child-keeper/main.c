// child-keeper: runs one program so that nothing it starts outlives the process that started it.
//
//   child-keeper OWNER FD PROGRAM [ARGUMENT...]
//
// OWNER is the pid of the process that started the keeper (its parent); FD the write end of a
// pipe whose read end the owner holds for the start only. The keeper
//   1. becomes a child subreaper (PR_SET_CHILD_SUBREAPER): every process below it that loses
//      its parent, a daemonising `setsid` child included, becomes its child instead of init's;
//   2. watches its owner through a pidfd (pidfd_open; without one, by its parent pid every
//      100 ms): no descriptor of the owner's stands for its life, so nothing the owner does to
//      its own descriptors (a library closing one twice) can be taken for its death;
//   3. starts PROGRAM (fork, then exec with an empty signal mask, default dispositions, and
//      SIGKILL as its parent-death signal), writes PROGRAM's pid on FD ("pid N\n") and closes it;
//   4. waits for PROGRAM to end or for its owner to die, however it dies (SIGKILL included);
//      either way it kills every process left below it (SIGKILL, until none is left) and reaps
//      them;
//   5. ends as PROGRAM ended: the same exit status, or killed by the same signal (SIGKILL when
//      the owner went first).
// SIGTERM sent to the keeper is passed on to PROGRAM; every other signal that would end it is
// ignored (a terminal sends SIGINT, SIGQUIT and SIGHUP to the whole process group, PROGRAM
// included); only SIGKILL ends it early, and then PROGRAM dies with it (its parent-death
// signal) but what PROGRAM started does not (a cgroup would be needed).
// It is plain C because everything between fork and exec must be async-signal-safe.
// Exit status 127: PROGRAM could not be started (said on stderr); 64: usage.

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <limits.h>
#include <unistd.h>

// The pid's parent and state, from /proc/PID/stat (fields 3 and 4, after the command name in
// parentheses); -1 if gone.
static pid_t parent_of(pid_t pid, char *state) {
    char path[64], buffer[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    size_t count = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[count] = 0;
    char *close = strrchr(buffer, ')');
    int parent;
    if (!close || sscanf(close + 1, " %c %d", state, &parent) != 2) return -1;
    return (pid_t)parent;
}

// Stops, then kills (SIGKILL), every live process below this one (by parent links in /proc;
// zombies are passed through, not counted); returns how many were live. Stopped first, a
// process cannot fork between this scan and its kill.
static int kill_descendants(void) {
    enum { limit = 65536 };
    static pid_t pids[limit], parents[limit];
    static char states[limit], below[limit];
    int count = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    struct dirent *entry;
    while ((entry = readdir(proc)) && count < limit) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        pid_t parent = parent_of((pid_t)pid, &states[count]);
        if (parent < 0) continue;
        pids[count] = (pid_t)pid;
        parents[count] = parent;
        count++;
    }
    closedir(proc);
    // Mark descendants: repeat until no new one is found (parents may be listed after children).
    memset(below, 0, sizeof below);
    pid_t self = getpid();
    int changed = 1, live = 0;
    while (changed) {
        changed = 0;
        for (int i = 0; i < count; i++) {
            if (below[i]) continue;
            int is_below = parents[i] == self;
            for (int j = 0; !is_below && j < count; j++) is_below = below[j] && pids[j] == parents[i];
            if (is_below) below[i] = changed = 1;
        }
    }
    for (int i = 0; i < count; i++) {
        if (below[i] && states[i] != 'Z' && kill(pids[i], SIGSTOP) == 0) live++;
    }
    for (int i = 0; i < count; i++) {
        if (below[i] && states[i] != 'Z') kill(pids[i], SIGKILL);
    }
    return live;
}

// Reaps every child that has ended; records the program's end when it is among them.
static void reap(pid_t program, int *program_status, int *program_ended) {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == program) {
            *program_status = status;
            *program_ended = 1;
        }
    }
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

// Kills everything below this process until nothing below is alive, then reaps (reaping only
// then: a zombie holds its process slot, so a fork bomb cannot refill what was freed); bounded
// at 10 s.
static void sweep(pid_t program, int *program_status, int *program_ended) {
    double deadline = seconds_now() + 10;
    while (kill_descendants() > 0 && seconds_now() < deadline) usleep(1000);
    while (seconds_now() < deadline) {
        reap(program, program_status, program_ended);
        errno = 0;
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD) return;
        kill_descendants();  // orphans reparented here meanwhile
        usleep(1000);
    }
    fprintf(stderr, "child-keeper: processes below pid %d survived SIGKILL for 10 s\n", (int)getpid());
}

// Ends this process the way the program ended.
static void end_as(int status) {
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    int number = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);  // the program dumped its own core, if any
    signal(number, SIG_DFL);
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    raise(number);
    _exit(128 + number);
}

// A descriptor that becomes readable when `owner` ends, or -1 (no pidfd on this kernel, or the
// owner is already gone: the caller then checks the parent pid).
static int watch_owner(pid_t owner) {
#ifdef SYS_pidfd_open
    int fd = (int)syscall(SYS_pidfd_open, owner, 0);
    if (fd >= 0 && getppid() != owner) {  // the owner ended (and its pid was taken) before the open
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)owner;
    return -1;
#endif
}

int main(int argc, char **argv) {
    char *end_owner = "", *end_fd = "";
    long owner_number = argc >= 4 && argv[1][0] >= '1' && argv[1][0] <= '9' ? strtol(argv[1], &end_owner, 10) : -1;
    long fd = argc >= 4 && argv[2][0] >= '0' && argv[2][0] <= '9' ? strtol(argv[2], &end_fd, 10) : -1;
    if (argc < 4 || *end_owner || owner_number <= 0 || owner_number > INT_MAX || *end_fd || fd < 3 || fd > INT_MAX) {
        fprintf(stderr, "usage: child-keeper OWNER FD PROGRAM [ARGUMENT...]\n");
        return 64;
    }
    pid_t owner = (pid_t)owner_number;
    int report = (int)fd;
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int owner_fd = watch_owner(owner);

    sigset_t watched;
    sigemptyset(&watched);
    sigaddset(&watched, SIGCHLD);
    sigaddset(&watched, SIGTERM);
    sigprocmask(SIG_BLOCK, &watched, NULL);
    // Nothing but SIGKILL ends the keeper before its program: every other signal that would
    // end it is ignored (SIGTERM is passed on; faults and stops keep their defaults).
    for (int number = 1; number < NSIG; number++) {
        if (number == SIGKILL || number == SIGSTOP || number == SIGCHLD || number == SIGTERM || number == SIGSEGV || number == SIGBUS
            || number == SIGFPE || number == SIGILL || number == SIGTSTP || number == SIGTTIN || number == SIGTTOU || number == SIGCONT)
            continue;
        signal(number, SIG_IGN);
    }
    int signals = signalfd(-1, &watched, SFD_CLOEXEC);

    pid_t keeper = getpid();
    pid_t program = fork();
    if (program == 0) {
        sigset_t none;
        sigemptyset(&none);
        for (int number = 1; number < NSIG; number++) {
            if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
        }
        sigprocmask(SIG_SETMASK, &none, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        if (getppid() != keeper) _exit(127);  // the keeper died before the line above
        close(report);
        if (owner_fd >= 0) close(owner_fd);
        if (signals >= 0) close(signals);
        execv(argv[3], argv + 3);
        const char *reason = strerror(errno);
        (void)!write(2, "child-keeper: cannot start ", 27);
        (void)!write(2, argv[3], strlen(argv[3]));
        (void)!write(2, ": ", 2);
        (void)!write(2, reason, strlen(reason));
        (void)!write(2, "\n", 1);
        _exit(127);
    }
    if (program < 0 || signals < 0) {
        fprintf(stderr, "child-keeper: cannot start %s: %s\n", argv[3], strerror(errno));
        return 127;
    }
    char line[32];
    int length = snprintf(line, sizeof line, "pid %d\n", (int)program);
    (void)!write(report, line, (size_t)length);
    close(report);

    int status = 0, ended = 0;
    while (!ended && getppid() == owner) {
        struct pollfd waits[2] = {{.fd = signals, .events = POLLIN}, {.fd = owner_fd, .events = POLLIN}};
        int ready = poll(waits, owner_fd >= 0 ? 2 : 1, owner_fd >= 0 ? -1 : 100);
        if (ready < 0 && errno != EINTR) break;
        if (ready > 0 && (waits[0].revents & POLLIN)) {
            struct signalfd_siginfo info;
            if (read(signals, &info, sizeof info) == (ssize_t)sizeof info && info.ssi_signo == SIGTERM) kill(program, SIGTERM);
            reap(program, &status, &ended);
        }
        if (ready > 0 && owner_fd >= 0 && waits[1].revents) break;  // the owner ended
    }
    // The program ended, or its owner is gone: nothing below this process may stay.
    sweep(program, &status, &ended);
    end_as(ended ? status : SIGKILL);  // a raw wait status of 9: killed by SIGKILL
    return 0;
}
