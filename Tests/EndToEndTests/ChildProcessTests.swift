import ChildProcess
import Foundation
import Testing

/// The child-process module on its own, with /bin/sh as the child: the ready line, the whole
/// output, and the ways a child can fail to print one.
@Suite struct ChildProcessTests {
    @Test func theFirstLineArrivesWhileTheChildRunsOnAndItsTimeIsNoted() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "printf 'listening on x'; sleep 0.05; echo; echo more; exec sleep 600"])
        let line = await child.firstLine(timeout: .seconds(10))
        #expect(line == "listening on x")  // a line written in two pieces is one line
        let at = try #require(child.firstLineAt)
        #expect(at > child.startedAt)
        #expect(child.isRunning)
        #expect(await child.stop() == .signalled(SIGKILL))
        #expect(child.standardOutput == "listening on x\nmore\n")
    }

    @Test func aChildThatWritesMoreThanAPipeHoldsIsNeverBlocked() async throws {
        // 1 MiB, far beyond a pipe's 64 KiB: the draining thread keeps it flowing into the file.
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo ready; head -c 1048576 /dev/zero | tr '\\0' x; echo; echo done"])
        #expect(await child.firstLine(timeout: .seconds(10)) == "ready")
        #expect(await child.waitForExit(timeout: .seconds(20)))
        #expect(child.exitStatus == .exited(0))
        // Read at once: standardOutput waits for the draining thread to copy the last bytes.
        let output = child.standardOutput
        #expect(output.utf8.count == "ready\n".utf8.count + 1_048_576 + "\ndone\n".utf8.count)
        #expect(output.hasSuffix("x\ndone\n"))
    }

    @Test func aChildThatExitsWithoutALineGivesNilAtOnce() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "printf 'no newline'; echo oops >&2; exit 3"])
        // Nil when it exits, not at the (long) timeout; the bound is loose (the suite runs in
        // parallel, and the explorer's tests can hold both cores for a minute).
        let start = ContinuousClock.now
        #expect(await child.firstLine(timeout: .seconds(900)) == nil)
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(child.firstLineAt == nil)
        #expect(await child.waitForExit(timeout: .seconds(10)))
        #expect(child.exitStatus == .exited(3))
        #expect(child.standardError == "oops\n")
    }

    @Test func aChildWhoseGrandchildKeepsItsStdoutOpenStillEndsTheWait() async throws {
        // The shell exits at once; a background sleep inherits stdout and holds the pipe open
        // far longer than the wait may take (its pid goes to stderr, to be killed after).
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 1000 & echo $! >&2; exit 0"])
        let start = ContinuousClock.now
        #expect(await child.firstLine(timeout: .seconds(900)) == nil)
        #expect(ContinuousClock.now - start < .seconds(600))
        #expect(child.exitStatus == .exited(0))
        if let grandchild = Int32(child.standardError.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(grandchild, SIGKILL) }
    }

    @Test func aSilentChildTimesOut() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec sleep 600"])
        #expect(await child.firstLine(timeout: .milliseconds(200)) == nil)
        #expect(child.isRunning)
        await child.stop()
        #expect(!child.isRunning)
    }

    @Test func aMissingExecutableIsNamed() {
        #expect(throws: ChildProcessError.self) { try ChildProcess(executable: "/nonexistent/daemon", arguments: []) }
        do {
            _ = try ChildProcess(executable: "/nonexistent/daemon", arguments: [])
        } catch {
            #expect(error.code == .notFound && error.message.contains("/nonexistent/daemon"))
        }
    }
}
