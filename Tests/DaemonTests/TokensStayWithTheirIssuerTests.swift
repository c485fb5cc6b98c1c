import ComplianceCore
import LocalServers
import MockAuth
@testable import Orchestrator
import Testing

/// Tokens are cached per issuer and client, as MSAL keys its cache by environment: after the
/// app moves its authority to another issuer (`aadAuthorityUriOverride`), no token of the first
/// issuer is answered or sent there, and clearing the override finds the first issuer's
/// session intact (issue 36, point 2).
@Suite struct TokensStayWithTheirIssuerTests {
    static let alice = "alice@contoso.com"

    @Test func anOverriddenAuthorityNeverSeesTheFirstIssuersTokens() async throws {
        try await DaemonHarness.run { harness in
            let first = try await harness.signIn(Self.alice)
            #expect(first.token.status == .compliant)
            let firstAccess = try #require(first.token.tokens?.accessToken)
            try await InProcessMockAuth.run { second in
                second.state.clearRequestLog()
                _ = try await harness.engine.updateSettingsOverrides(authority: .set(second.authority), clientID: .keep, redirectURI: .keep)
                let there = try await harness.engine.acquireToken(Self.alice, scopes: DaemonHarness.chatRead, silent: true, remediate: false, user: nil)
                #expect(there.tokens == nil, "the first issuer's access token was answered for the second issuer")
                #expect(there.status == .interactionRequired)
                let grants = second.state.requestLogEntries().filter { $0.grantType == "refresh_token" }
                #expect(grants.isEmpty, "the first issuer's refresh token was sent to the second: \(grants)")
            }
            _ = try await harness.engine.updateSettingsOverrides(authority: .clear, clientID: .keep, redirectURI: .keep)
            let back = try await harness.engine.acquireToken(Self.alice, scopes: DaemonHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(back.tokens?.accessToken == firstAccess, "the first issuer's cached token is still there")
            // Past the access token's life the first issuer's refresh token still works.
            try await harness.advance(hours: 2)
            harness.mock.state.clearRequestLog()
            let refreshed = try await harness.engine.acquireToken(Self.alice, scopes: DaemonHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(refreshed.tokens != nil && refreshed.tokens?.accessToken != firstAccess)
            #expect(harness.mock.state.requestLogEntries().contains { $0.grantType == "refresh_token" })
        }
    }

    /// The second issuer refuses a refresh token it never issued; the first issuer's refresh
    /// token is not dropped for it.
    @Test func aRefusalAtTheSecondIssuerKeepsTheFirstIssuersRefreshToken() async throws {
        try await DaemonHarness.run { harness in
            #expect(try await harness.signIn(Self.alice).token.status == .compliant)
            // The second issuer does not target alice for app-protection CA (its CA would not
            // know the first issuer's MAM service).
            let untargeted: (inout Fixtures) -> Void = { fixtures in
                fixtures.users = fixtures.users.map { user in
                    var user = user
                    user.caTargeted = false
                    return user
                }
            }
            try await InProcessMockAuth.run(prepare: untargeted) { second in
                _ = try await harness.engine.updateSettingsOverrides(authority: .set(second.authority), clientID: .keep, redirectURI: .keep)
                let there = try await harness.signIn(Self.alice)
                #expect(there.signedIn, "a sign-in at the second issuer: \(there.token.status) \(String(describing: there.token.failure))")
                _ = second.state.revokeRefreshTokens(upn: Self.alice)
                try await harness.advance(hours: 2)
                let refused = try await harness.engine.acquireToken(Self.alice, scopes: DaemonHarness.chatRead, silent: true, remediate: false, user: nil)
                #expect(refused.tokens == nil)
            }
            _ = try await harness.engine.updateSettingsOverrides(authority: .clear, clientID: .keep, redirectURI: .keep)
            let back = try await harness.engine.acquireToken(Self.alice, scopes: DaemonHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(back.tokens != nil, "the first issuer's refresh token survived the second issuer's refusal")
        }
    }

    /// A MAM URL derived from the authority follows an authority override: the overriding
    /// issuer's MAM token goes to that issuer's MAM service, never to the first one's, and
    /// the first service is used again once the override is cleared.
    @Test func theMAMServiceFollowsAnOverriddenAuthority() async throws {
        try await DaemonHarness.run(mamURLFromAuthority: true) { harness in
            #expect(harness.configuration.mamURLFollowsAuthority)
            try await InProcessMockAuth.run { second in
                _ = try await harness.engine.updateSettingsOverrides(authority: .set(second.authority), clientID: .keep, redirectURI: .keep)
                harness.mock.state.clearRequestLog()
                let there = try await harness.signIn(Self.alice)
                #expect(there.token.status == .compliant, "remediated at the second issuer's MAM service: \(there.token.status)")
                let secondMAM = second.state.requestLogEntries().compactMap(\.route).filter { $0.hasPrefix("mam.") }
                #expect(secondMAM.contains("mam.enroll") && secondMAM.contains("mam.report-compliance"), "\(secondMAM)")
                let firstMAM = harness.mock.state.requestLogEntries().compactMap(\.route).filter { $0.hasPrefix("mam.") }
                #expect(firstMAM.isEmpty, "the second issuer's MAM token went to the first MAM service: \(firstMAM)")
            }
        }
    }

    /// An explicit --mam-url stays the one MAM service whatever the authority.
    @Test func anExplicitMAMURLDoesNotFollow() async throws {
        try await DaemonHarness.run { harness in
            #expect(!harness.configuration.mamURLFollowsAuthority)
            let override = TokenEnvironment(authority: "http://127.0.0.1:9/contoso.com")
            #expect(harness.engine.mamClient(for: override)?.baseURL == harness.mock.mamURL)
            #expect(harness.engine.mamClient(for: .app)?.baseURL == harness.mock.mamURL)
        }
    }
}
