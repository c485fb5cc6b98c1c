import Foundation
import LocalServers

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes over one loopback TCP connection and reads until the server closes it:
/// for what curl cannot do, such as several pipelined requests in one write.
enum RawHTTPClient {
    /// Writes `bytes` to 127.0.0.1:`port` and returns everything read until the server
    /// closes the connection (end the last request with `Connection: close`), or `timeout`.
    /// The blocking socket calls run on a thread of their own, never on the cooperative pool
    /// (two tests blocked there would stall every in-process server of the run).
    static func exchange(port: Int, bytes: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await onThread { try blockingExchange(port: port, bytes: bytes, timeout: timeout) }
    }

    /// Runs blocking socket work on a thread of its own, never on the cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Reads from `descriptor` until what was read ends with `marker` (then returns it all);
    /// throws when the server closes first or the socket's read timeout passes.
    static func receive(from descriptor: Int32, through marker: String) throws -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.ends(with: marker.utf8) {
            let count = Glibc.read(descriptor, &byte, 1)
            guard count == 1 else {
                throw TestFailure("read ended (\(count), errno \(errno)) before \(marker.debugDescription); read so far: \(String(decoding: received, as: UTF8.self).debugDescription)")
            }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port` that has written `bytes`; the
    /// caller closes it. Reads and writes on it give up after `timeout` (a server that stops
    /// reading fails the write, never hangs the test). Throws (with nothing left open) when
    /// it cannot connect or write.
    static func connected(port: Int, sending bytes: String, timeout: Duration = .seconds(20)) throws -> Int32 {
        let descriptor = try connect(port: port)
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &wait, socklen_t(MemoryLayout<timeval>.size))
        }
        do {
            try send(bytes, to: descriptor)
        } catch {
            close(descriptor)
            throw TestFailure("cannot write to 127.0.0.1:\(port): \(error)")
        }
        return descriptor
    }

    /// Writes all of `bytes` to `descriptor` in one blocking write; throws when the socket
    /// took less (its write timeout passed, or the server closed the connection).
    static func send(_ bytes: String, to descriptor: Int32) throws {
        let request = Array(bytes.utf8)
        let written = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == request.count else {
            throw TestFailure("\(written) of \(request.count) bytes written, errno \(errno)")
        }
    }

    /// Reads from `descriptor` until the server closes the connection; throws when a read
    /// fails (its timeout passed) first.
    static func receiveToEnd(from descriptor: Int32) throws -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else { throw TestFailure("read failed (errno \(errno)) after \(received.count) bytes") }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`, with a receive buffer of
    /// `receiveBufferBytes` when given (set before connecting, so the kernel keeps it); the
    /// caller closes it. Throws (with nothing left open) when it cannot connect.
    static func connect(port: Int, receiveBufferBytes: Int32? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        if var size = receiveBufferBytes {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let isConnected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard isConnected else {
            close(descriptor)
            throw TestFailure("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return descriptor
    }

    private static func blockingExchange(port: Int, bytes: String, timeout: Duration) throws -> String {
        let descriptor = try connected(port: port, sending: bytes, timeout: timeout)
        defer { close(descriptor) }
        return try receiveToEnd(from: descriptor)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: String.UTF8View) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
