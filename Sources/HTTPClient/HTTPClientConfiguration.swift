/// How an ``HTTPClient`` connects.
public struct HTTPClientConfiguration: Sendable {
    /// Longest time to establish a connection (TCP + TLS).
    public var connectTimeout: Duration = .seconds(10)
    /// Longest time for a whole request, unless the request sets its own.
    public var totalTimeout: Duration = .seconds(30)
    /// Largest accepted response body; a larger one fails with `.responseTooLarge`.
    public var maxResponseBytes: Int = 4 << 20
    /// Send every request over this unix-domain socket instead of TCP (the URL's host then
    /// only fills the `Host` header).
    public var unixSocketPath: String?
    /// PEM bundle of CAs to trust instead of the system's.
    public var caFile: String?
    /// Follow 3xx redirects (at most 5). Off by default: OAuth's authorize step reads `Location` itself.
    public var followRedirects: Bool = false
    /// Explicit proxy URL; nil means no proxy at all (environment proxy variables are ignored,
    /// so a stray `http_proxy` cannot divert loopback traffic).
    public var proxy: String?
    /// Idle easy handles (each keeping its connections alive) kept for reuse.
    public var maxIdleHandles: Int = 16

    /// Certificate and host-name verification is always on; trust a private CA with ``caFile``.
    public init() {}
}
