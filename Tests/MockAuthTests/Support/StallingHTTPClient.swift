import Foundation
import LocalServers

#if canImport(Glibc)
import Glibc
#endif

/// A loopback client that pipelines many requests and does not read the answers until told
/// to: for testing that a server stops reading when its answers cannot leave.
///
/// Its receive buffer is small (4 KiB, so the kernel holds few answers for it), its socket
/// non-blocking; every call is blocking work to run off the cooperative pool.
final class StallingHTTPClient {
    private let descriptor: Int32
    private let requests: [UInt8]
    private var sent = 0

    /// Connects to 127.0.0.1:`port`, to send `requests` (every request, back to back).
    init(port: Int, requests: [UInt8]) throws {
        let descriptor = try RawHTTPClient.connect(port: port, receiveBufferBytes: 4096)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.requests = requests
    }

    deinit { close(descriptor) }

    /// Sends without reading until `isSettled` has held for `quiet` (the server neither takes
    /// more bytes nor, as `isSettled` judges, makes progress), or `limit` passes.
    func sendUntilStalled(quiet: Duration, limit: Duration, isSettled: () -> Bool) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var quietSince = clock.now
        while clock.now < deadline {
            let progressed = try sendSome()
            if progressed || !isSettled() { quietSince = clock.now }
            if clock.now - quietSince >= quiet { return }
            usleep(20_000)
        }
    }

    /// Sends the rest and reads until the server closes the connection (or `limit`); returns
    /// how many times `marker` occurs in what was read.
    func drain(counting marker: String, limit: Duration) throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        let pattern = Array(marker.utf8)
        var count = 0
        var carry: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while clock.now < deadline {
            _ = try sendSome()
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) >= 0 else { throw TestFailure("poll failed: errno \(errno)") }
            let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received == 0 { return count }
            if received < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK else { throw TestFailure("recv failed: errno \(errno)") }
                continue
            }
            // Count matches across chunk boundaries: the bytes after the last match, fewer
            // than the pattern's, may start the next one.
            let window = carry + chunk[0..<received]
            var next = 0
            window.withUnsafeBytes { bytes in
                pattern.withUnsafeBytes { needle in
                    while next + pattern.count <= bytes.count,
                        let found = memchr(bytes.baseAddress! + next, Int32(pattern[0]), bytes.count - next - pattern.count + 1)
                    {
                        let at = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
                        if memcmp(found, needle.baseAddress!, pattern.count) == 0 {
                            count += 1
                            next = at + pattern.count
                        } else {
                            next = at + 1
                        }
                    }
                }
            }
            carry = Array(window[max(next, window.count - (pattern.count - 1))...])
        }
        throw TestFailure("the server did not close the connection within \(limit); \(count) answers read")
    }

    /// Writes what the socket takes now; true when it took anything.
    private func sendSome() throws -> Bool {
        guard sent < requests.count else { return false }
        let written = requests[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        if written > 0 {
            sent += written
            return true
        }
        guard written < 0, errno == EAGAIN || errno == EWOULDBLOCK else { throw TestFailure("send failed: errno \(errno)") }
        return false
    }
}
