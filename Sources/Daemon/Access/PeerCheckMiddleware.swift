import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Refuses every control request whose peer is not the daemon's own user (effective uid).
///
/// The socket file is 0600 in a 0700 directory, so another user cannot even connect; this
/// check holds when those permissions are loosened and covers `--listen` (loopback TCP),
/// which every local user can reach. Root is not special: a daemon running as root answers
/// root, one running as alice answers only alice.
struct PeerCheckMiddleware: RouterMiddleware {
    typealias Context = ControlRequestContext
    let ownUID: uid_t
    let logger: Logger
    /// Asks the kernel for a connection's peer uid (``PeerIdentity/uid(of:)``).
    let lookup: @Sendable (any Channel) async -> uid_t?
    /// One kernel question per connection, not per request.
    let peers = PeerUIDCache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let peer = await peers.uid(of: context.channel, lookup: lookup)
        if peer == ownUID { return try await next(request, context) }
        let who = peer.map { "uid \($0)" } ?? "an unknown user"
        logger.warning("control connection refused", metadata: ["peer.uid": "\(peer.map { "\($0)" } ?? "unknown")", "daemon.uid": "\(ownUID)"])
        throw ControlError(
            .forbidden, "forbidden_peer", "the control API answers only its own user (uid \(ownUID)); \(who) is refused", closesConnection: true)
    }
}
