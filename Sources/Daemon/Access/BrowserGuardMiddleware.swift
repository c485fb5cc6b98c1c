import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Refuses what a web page can send, so a browser running as the daemon's own user (which
/// passes the peer check) cannot be used against the control API:
///
/// - a request with an `Origin` header: browsers add it to cross-site requests and to every
///   POST, PUT and DELETE; the CLI, curl and other programs do not (a page could otherwise
///   post `{"account": …, "wipe": true}` to `--listen`'s port);
/// - on loopback TCP, a `Host` other than `127.0.0.1`, `localhost` or `[::1]` (with any port):
///   a DNS-rebinding page reaches 127.0.0.1 under its own name, and could read answers.
///
/// The unix socket is out of a browser's reach, so there only the `Origin` rule applies.
struct BrowserGuardMiddleware: RouterMiddleware {
    typealias Context = ControlRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let origin = request.headers[.origin] {
            throw Self.refusal("forbidden_origin", "the control API does not answer web pages (this request came from origin '\(origin.prefix(100))')")
        }
        if context.channel.localAddress.map({ Self.isIP($0) }) == true, !Self.isLoopbackHost(request.head.authority) {
            throw Self.refusal("forbidden_host", "on loopback TCP the control API answers only Host 127.0.0.1, localhost or [::1], not '\(request.head.authority?.prefix(100) ?? "")'")
        }
        return try await next(request, context)
    }

    static func isIP(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4, .v6: true
        case .unixDomainSocket: false
        }
    }

    /// `127.0.0.1`, `localhost` or `[::1]`, each with an optional port.
    static func isLoopbackHost(_ authority: String?) -> Bool {
        guard var host = authority?.lowercased() else { return false }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
            return host[...close] == "[::1]"
        }
        if let colon = host.firstIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { return false }
            host = String(host[..<colon])
        }
        return host == "127.0.0.1" || host == "localhost"
    }

    static func refusal(_ code: String, _ message: String) -> ControlError {
        ControlError(.forbidden, code, message, closesConnection: true)
    }
}
