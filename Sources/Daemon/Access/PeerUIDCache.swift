import Foundation
import NIOCore
import Synchronization

/// The peer uid of each open control connection, asked of the kernel once per connection.
///
/// `SO_PEERCRED` reports the credentials the peer had when it connected, and the owner of a
/// loopback TCP socket is fixed the same way, so one answer holds for the connection's whole
/// life. Asking again on every request cost two thread hops (the socket option is read on
/// the channel's event loop). Entries hold the channel weakly: a closed connection's entry
/// is dead, and a new channel that happens to reuse its address never sees the old answer.
final class PeerUIDCache: Sendable {
    private struct Entry {
        weak var channel: (any Channel)?
        let uid: uid_t
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    /// Dead entries are swept when the table reaches this size.
    private let sweepThreshold: Int

    init(sweepThreshold: Int = 64) {
        self.sweepThreshold = sweepThreshold
    }

    /// The peer's uid: remembered for this channel, or asked with `lookup` and remembered
    /// when known (an unknown peer is asked again next time).
    func uid(of channel: any Channel, lookup: (any Channel) async -> uid_t?) async -> uid_t? {
        let key = ObjectIdentifier(channel)
        let known: uid_t? = entries.withLock { table in
            guard let entry = table[key], let cached = entry.channel, cached === channel else { return nil }
            return entry.uid
        }
        if let known { return known }
        guard let uid = await lookup(channel) else { return nil }
        entries.withLock { table in
            if table.count >= sweepThreshold { table = table.filter { $0.value.channel != nil } }
            table[key] = Entry(channel: channel, uid: uid)
        }
        return uid
    }

    /// Connections remembered (live or not yet swept); for tests.
    var count: Int { entries.withLock { $0.count } }
}
