import Foundation
import Glibc

/// A `NOTIFY_SOCKET` as systemd holds it: an `AF_UNIX` datagram socket at a path, whose
/// messages (`READY=1`, …) the test reads.
final class NotifySocket: @unchecked Sendable {  // the descriptor is only read
    let path: String
    private let descriptor: Int32

    init() throws {
        path = NSTemporaryDirectory() + "notify-" + UUID().uuidString.prefix(8) + ".sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw HarnessError("bind \(path): errno \(errno)") }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next message, or nil when none comes within `timeout` (polled, off the cooperative pool).
    func receive(timeout: Duration) async -> String? {
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, milliseconds) == 1 else { return continuation.resume(returning: nil) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &buffer, buffer.count, 0)
                continuation.resume(returning: count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil)
            }
        }
    }

    /// Messages until one contains `needle` (returned), or nil after `timeout` in all.
    func waitFor(_ needle: String, timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let message = await receive(timeout: deadline - ContinuousClock.now) else { return nil }
            if message.split(separator: "\n").contains(where: { $0 == needle }) { return message }
        }
        return nil
    }
}
