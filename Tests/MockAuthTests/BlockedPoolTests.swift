import Foundation
import Synchronization
import Testing
import LocalServers

@testable import MockAuth

/// mockauth serves from NIO's event loops alone (``LoopPinnedApplication``,
/// ``EventLoopPinnedChannel``): a caller that blocks every thread of Swift's cooperative pool
/// does not stop it from accepting and answering a new connection.
@Suite("A blocked cooperative pool")
struct BlockedPoolTests {
    @Test("a new connection is accepted and answered while every cooperative thread is blocked")
    func answersWhileThePoolIsBlocked() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try MalformedRequestTests.port(server)
            let width = ProcessInfo.processInfo.activeProcessorCount
            let running = RunningCount()
            let release = DispatchSemaphore(value: 0)
            // One blocker per cooperative thread; each holds its thread until the exchange
            // below has ended (or 60 s pass).
            let blockers = (0..<width).map { _ in
                Task.detached {
                    running.value.withLock { $0 += 1 }
                    _ = release.wait(timeout: .now() + 60)
                }
            }
            // The exchange runs on a thread of its own and releases the blockers when it ends,
            // so the pool is blocked for the whole exchange.
            let received = try await RawHTTPClient.onThread {
                defer { for _ in 0..<width { release.signal() } }
                let deadline = Date().addingTimeInterval(60)
                while running.value.withLock({ $0 }) < width, Date() < deadline { usleep(10_000) }
                guard running.value.withLock({ $0 }) == width else { throw TestFailure("the blockers never all ran") }
                let descriptor = try RawHTTPClient.connected(
                    port: port, sending: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                    timeout: .seconds(10))
                defer { close(descriptor) }
                return try RawHTTPClient.receiveToEnd(from: descriptor)
            }
            for blocker in blockers { await blocker.value }
            #expect(MalformedRequestTests.answers(received).map(\.status) == [200], "\(received.prefix(200).debugDescription)")
        }
    }
}

/// How many blockers hold a cooperative thread.
private final class RunningCount: Sendable {
    let value = Mutex(0)
}
