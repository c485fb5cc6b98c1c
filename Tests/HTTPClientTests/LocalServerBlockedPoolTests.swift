import Foundation
import LocalServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The echo server the client tests use answers while every thread of Swift's cooperative
/// pool is blocked (it serves from NIO's event loops, ``LocalServer``).
///
/// Why it matters: the test process runs every suite at once on one cooperative pool (as many
/// threads as cores: 2 here), and some of them block its threads for a while (a child's
/// `deinit` waits up to 2 s for its exit, reading a child's output waits up to 2 s for the
/// pipe to close, mockauth's own blocked-pool test holds them all). An unpinned Hummingbird
/// server needs a pool thread to accept a connection and to run its handler, so a request that
/// arrives then waits for the pool however long it stays blocked: the lost echo request of
/// issue 50 (`concurrentRequestsFromManyTasks`, no byte in 30 s). The client is not the cause:
/// each transfer is a blocking `curl_easy_perform` on a thread of its own (``TransferWorker``),
/// so a transfer cannot be added and never driven, and curl's "0 bytes received" after its
/// total timeout means the connection was made (the kernel's backlog) and nothing came back.
@Suite("LocalServer under a blocked cooperative pool")
struct LocalServerBlockedPoolTests {
    @Test("a new connection is accepted and answered while every cooperative thread is blocked")
    func answersWhileThePoolIsBlocked() async throws {
        try await LocalServer.run { base in
            let port = try #require(base.split(separator: ":").last.flatMap { Int($0) })
            // No pool thread is free during the exchange. Its bound only ends it: an unpinned
            // server cannot answer before the pool is released, which happens after it.
            let received = try await BlockedCooperativePool.whileBlocked {
                try Self.exchange(
                    port: port, request: "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nn7",
                    timeout: .seconds(10))
            }
            // The echo streams the body back: one chunk, then the last one.
            #expect(received.hasPrefix("HTTP/1.1 200") && received.hasSuffix("\r\n\r\n2\r\nn7\r\n0\r\n\r\n"), "while the pool was blocked: \(received.debugDescription)")
        }
    }

    /// Connects to 127.0.0.1:`port`, sends `request` and reads until the server closes the
    /// connection or `timeout` has passed; returns what arrived (blocking).
    static func exchange(port: Int, request: String, timeout: Duration) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BlockedPoolFailure("socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BlockedPoolFailure("connect: errno \(errno)") }
        let bytes = Array(request.utf8)
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw BlockedPoolFailure("send: errno \(errno)") }
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

struct BlockedPoolFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
