import Foundation
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
            // The pool stays blocked for the whole exchange.
            let received = try await BlockedCooperativePool.whileBlocked {
                let descriptor = try RawHTTPClient.connected(
                    port: port, sending: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                    timeout: .seconds(10))
                defer { close(descriptor) }
                return try RawHTTPClient.receiveToEnd(from: descriptor)
            }
            #expect(MalformedRequestTests.answers(received).map(\.status) == [200], "\(received.prefix(200).debugDescription)")
        }
    }
}
