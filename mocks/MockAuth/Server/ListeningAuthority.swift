import Synchronization

/// The `host:port` the server listens on, for URLs in answers to a request that names no
/// authority (an HTTP/1.0 request without a `Host` header); every other request's URLs use
/// the authority the client addressed.
///
/// Set once the server is bound (port 0 picks the port then); until then `127.0.0.1`.
public final class ListeningAuthority: Sendable {
    private let value = Mutex("127.0.0.1")

    public init() {}

    /// The current authority, e.g. `127.0.0.1:52731` or `[::1]:8443`.
    public var authority: String { value.withLock { $0 } }

    /// Records the bound address. A wildcard host (`0.0.0.0`, `::`) is shown as `127.0.0.1`,
    /// where a client on this machine reaches it.
    public func set(host: String, port: Int) {
        let shown = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : Self.urlHost(host)
        value.withLock { $0 = "\(shown):\(port)" }
    }

    /// `host` as a URL writes it: an IPv6 address in brackets.
    static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
