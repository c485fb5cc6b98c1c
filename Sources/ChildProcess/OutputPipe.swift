import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child's stdout as a pipe, drained by a thread of its own into a file.
///
/// The thread notes when the first complete line arrived, so a caller waiting for a ready line
/// learns of it at once (and a benchmark gets the exact moment), and the child never blocks on
/// a full pipe: everything it writes lands in the file, which ``ChildProcess/standardOutput``
/// reads. The thread ends at end of file (the child and whatever inherited its stdout closed it).
final class OutputPipe: @unchecked Sendable {  // `state` is behind `lock`; the descriptors are the thread's after `start`
    /// The write end, for the child's descriptor 1 (closed here once the child has it).
    let writeEnd: Int32
    private let readEnd: Int32
    private let lock = NSCondition()  // signalled when the pipe closes
    private var state = State()

    struct State {
        var first: (line: String, at: ContinuousClock.Instant)?
        var pending: [UInt8] = []
        var closed = false
    }

    init() throws(ChildProcessError) {
        (readEnd, writeEnd) = try Self.closeOnExecPipe(for: "stdout")
    }

    /// A pipe (read end, write end), both close-on-exec at once (glibc's pipe2 is not visible
    /// to Swift), so other children started meanwhile do not inherit it and hold it open.
    static func closeOnExecPipe(for purpose: String) throws(ChildProcessError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ChildProcessError(.spawnFailed, "cannot create a pipe for \(purpose): \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Closes this process's write end (the child has its copy) and starts draining into `path`.
    func start(copyingTo path: String) {
        close(writeEnd)
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let thread = Thread { [self] in drain(into: file) }
        thread.name = "child-stdout"
        thread.start()
    }

    /// Closes both ends when the child could not be started.
    func abandon() {
        close(writeEnd)
        close(readEnd)
    }

    /// The first complete line and when it arrived, once it did.
    var firstLine: (line: String, at: ContinuousClock.Instant)? {
        lock.lock()
        defer { lock.unlock() }
        return state.first
    }

    /// True once the pipe reached end of file (and everything read is in the file).
    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.closed
    }

    /// Blocks until the pipe reached end of file and everything is in the file, or `timeout`
    /// passed (a process the child started may hold its stdout open); true when it closed.
    @discardableResult
    func waitUntilClosed(timeout: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        lock.lock()
        defer { lock.unlock() }
        while !state.closed {
            if !lock.wait(until: deadline) { return state.closed }
        }
        return true
    }

    private func drain(into file: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            let now = ContinuousClock.now
            if file >= 0 { writeAll(file, buffer[0..<count]) }
            noteFirstLine(buffer[0..<count], at: now)
        }
        close(readEnd)
        if file >= 0 { close(file) }
        lock.lock()
        state.closed = true
        state.pending = []
        lock.broadcast()
        lock.unlock()
    }

    private func noteFirstLine(_ bytes: ArraySlice<UInt8>, at now: ContinuousClock.Instant) {
        lock.lock()
        defer { lock.unlock() }
        guard state.first == nil else { return }
        if let newline = bytes.firstIndex(of: 0x0A) {
            state.first = (String(decoding: state.pending + bytes[bytes.startIndex..<newline], as: UTF8.self), now)
            state.pending = []
        } else {
            state.pending.append(contentsOf: bytes)
        }
    }

    private func writeAll(_ file: Int32, _ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(file, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }  // disk full or the file is gone: the output is lost, the child is not blocked
                offset += written
            }
        }
    }
}
