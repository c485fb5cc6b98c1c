import MockAuth
import LocalServers

/// The benchmarks' in-process mockauth (issuer + MAM service) on 127.0.0.1, port 0: the
/// tests' ``InProcessMockAuth``, whose signing key is the issuance floor's key.
typealias BenchMock = InProcessMockAuth

extension InProcessMockAuth.Running {
    var tokenURL: String { "\(url)/contoso.com/oauth2/v2.0/token" }
    /// The key every token of this mock is signed with.
    var key: SigningKey { InProcessMockAuth.signingKey }
}
