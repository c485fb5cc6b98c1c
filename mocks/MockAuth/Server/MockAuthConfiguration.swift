import NIOSSL

/// How to run a mockauth server.
public struct MockAuthConfiguration: Sendable {
    /// TLS material for https.
    public enum TLS: Sendable {
        /// PEM files on disk.
        case pemFiles(certificate: String, privateKey: String)
        /// An in-memory certificate (e.g. ``SelfSignedCertificate``).
        case selfSigned(SelfSignedCertificate)
    }

    /// Bind address; loopback by default.
    public var host: String
    /// 0 picks a free port (the chosen one is reported to `onListening`).
    public var port: Int
    public var fixtures: Fixtures
    /// `nil` serves plain http.
    public var tls: TLS?
    /// The token signing key; generated at start when `nil`.
    public var signingKey: SigningKey?
    /// The URL clients use (`--public-url`, e.g. behind a proxy): URLs in answers and `iss`
    /// use it whatever the `Host`; without it only a `Host` naming this server is followed.
    public var publicURL: String?

    /// Loopback, free port, plain http and a fresh signing key unless told otherwise.
    public init(
        host: String = "127.0.0.1", port: Int = 0, fixtures: Fixtures, tls: TLS? = nil, signingKey: SigningKey? = nil, publicURL: String? = nil
    ) {
        self.publicURL = publicURL
        self.host = host
        self.port = port
        self.fixtures = fixtures
        self.tls = tls
        self.signingKey = signingKey
    }

    /// `http` or `https`.
    public var scheme: String { tls == nil ? "http" : "https" }

    func tlsConfiguration() throws -> TLSConfiguration? {
        switch tls {
        case .none:
            return nil
        case .pemFiles(let certificate, let privateKey):
            return TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKey, format: .pem)))
        case .selfSigned(let generated):
            return TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(generated.certificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(generated.privateKeyPEM.utf8), format: .pem)))
        }
    }
}
