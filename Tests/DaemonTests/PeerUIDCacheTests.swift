import Foundation
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import Daemon

/// The control API asks the kernel for a connection's peer once; these pin what the cache
/// may and may not remember.
@Suite struct PeerUIDCacheTests {
    /// Counts lookups and answers `uid` for every channel.
    final class Lookup: Sendable {
        let calls = Mutex(0)
        let uid: uid_t?
        init(uid: uid_t?) { self.uid = uid }
        func callAsFunction(_ channel: any Channel) async -> uid_t? {
            calls.withLock { $0 += 1 }
            return uid
        }
    }

    @Test func oneConnectionIsAskedOnceAndAnotherIsAskedAgain() async {
        let cache = PeerUIDCache()
        let lookup = Lookup(uid: 1000)
        let first = EmbeddedChannel()
        let second = EmbeddedChannel()
        for _ in 0..<3 { #expect(await cache.uid(of: first, lookup: lookup.callAsFunction) == 1000) }
        #expect(lookup.calls.withLock { $0 } == 1)
        #expect(await cache.uid(of: second, lookup: lookup.callAsFunction) == 1000)
        #expect(lookup.calls.withLock { $0 } == 2)
    }

    @Test func anUnknownPeerIsNotRemembered() async {
        let cache = PeerUIDCache()
        let lookup = Lookup(uid: nil)
        let channel = EmbeddedChannel()
        #expect(await cache.uid(of: channel, lookup: lookup.callAsFunction) == nil)
        #expect(await cache.uid(of: channel, lookup: lookup.callAsFunction) == nil)
        #expect(lookup.calls.withLock { $0 } == 2)
        #expect(cache.count == 0)
    }

    @Test func aClosedConnectionsAnswerNeverServesANewOneAndDeadEntriesAreSwept() async {
        let cache = PeerUIDCache(sweepThreshold: 4)
        for uid in uid_t(1000)..<1010 {
            let lookup = Lookup(uid: uid)
            let channel = EmbeddedChannel()
            // A new channel often reuses a freed one's address (its ObjectIdentifier): the
            // dead entry must not answer for it.
            #expect(await cache.uid(of: channel, lookup: lookup.callAsFunction) == uid)
            #expect(await cache.uid(of: channel, lookup: lookup.callAsFunction) == uid)
            #expect(lookup.calls.withLock { $0 } == 1)
            _ = try? channel.finish()  // the connection closes; NIO frees a closed channel
        }
        #expect(cache.count <= 4)
    }
}
