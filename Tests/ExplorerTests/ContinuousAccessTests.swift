import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// An app declaring `cp1` whose MAM calls the service refuses with a continuous-access-evaluation
/// claims challenge: the call is sent again with a token the issuer grants for the challenge's
/// claims, once; when the issuer then needs the user, the caller hears InteractionRequired. An
/// app without `cp1` takes the challenge as 203. Explored to exhaustion (invariant 24), and the
/// invariant, broken on purpose, names itself.
@Suite struct ContinuousAccessTests {
    static let universe = Universe.withContinuousAccess
    static let challenge = Answer.failure(.claimsChallenge)
    /// alice's sign-in up to the remediation's enroll: her 53005 grant, the remediation's MAM
    /// token (cache reads are answered at once, not by these).
    static let toEnroll: [Answer] = [.normal, .normal]

    static func run(_ answers: [Answer], in universe: Universe = universe) -> ScriptRun.Log {
        ScriptRun(universe: universe).run(0, timers: 0, answers: answers)
    }

    /// The grants the run sent after its first claims challenge, with their claims.
    static func grantsAfterChallenge(_ log: ScriptRun.Log) -> [(grant: String, claims: String?)] {
        guard let index = log.transitions.firstIndex(where: { $0.facts.claimsChallenge != nil }) else { return [] }
        return log.transitions[index...].flatMap(\.transition.takenActions).compactMap { action in
            guard case .requestToken(_, let grant, _, _, let claims, _, _) = action else { return nil }
            return (grant.name, claims)
        }
    }

    @Test func theWholeSpaceWithClaimsChallengesBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 12).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.states > 2_000, "\(report.states) states")
    }

    @Test func aChallengedEnrollIsSentAgainWithATokenGrantedForTheClaims() throws {
        let log = Self.run(Self.toEnroll + [Self.challenge])
        #expect(log.violations.isEmpty, "\(log.violations)")
        let grants = Self.grantsAfterChallenge(log)
        let first = try #require(grants.first, "\(log.lines)")
        #expect(first.grant == "refreshToken")
        let claims = try JSONValue.parse(try #require(first.claims))
        #expect(claims["access_token"]?["nbf"]?["value"]?.stringValue == "1800000000", "\(claims)")
        #expect(claims["access_token"]?["xms_cc"]?["values"] == ["cp1", "protapp"], "the capabilities stay: \(claims)")
        #expect(log.lines.contains("reply: signIn(alice@contoso.com signedIn true Compliant(0))"), "\(log.lines)")
        let enrollments = log.lines.filter { $0.hasPrefix("event: enrollment alice") }
        #expect(enrollments.count == 1, "one enrollment notification, for the call sent again: \(enrollments)")
    }

    @Test func whenTheIssuerNeedsTheUserTheCallerHearsInteractionRequired() {
        // The refresh with the claims is refused (the sessions were revoked): invalid_grant.
        let log = Self.run(Self.toEnroll + [Self.challenge, .failure(.interactionRequired)])
        #expect(log.violations.isEmpty, "\(log.violations)")
        #expect(log.lines.contains { $0.hasPrefix("reply: signIn(alice@contoso.com signedIn false InteractionRequired(4))") }, "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("event: enrollment alice@contoso.com: AuthRequired(203)") }, "\(log.lines)")
    }

    @Test func aSecondChallengeIsNotRetried() {
        let log = Self.run(Self.toEnroll + [Self.challenge, .normal, Self.challenge])
        #expect(log.violations.isEmpty, "\(log.violations)")
        let withClaims = Self.grantsAfterChallenge(log).filter { $0.claims?.contains("nbf") == true }
        #expect(withClaims.count == 1, "one grant with the challenge's claims: \(withClaims)")
        #expect(log.lines.contains { $0.hasPrefix("event: enrollment alice@contoso.com: AuthRequired(203)") }, "\(log.lines)")
        #expect(log.lines.contains { $0.hasPrefix("reply: signIn(alice@contoso.com signedIn false InteractionRequired(4))") }, "\(log.lines)")
    }

    @Test func anAppWithoutCP1TakesTheChallengeAsAuthRequired() {
        var universe = Self.universe
        universe.capabilities = [ComplianceCore.protectionCapability]
        let log = Self.run(Self.toEnroll + [Self.challenge], in: universe)
        #expect(log.violations.isEmpty, "\(log.violations)")
        #expect(Self.grantsAfterChallenge(log).allSatisfy { $0.claims?.contains("nbf") != true })
        #expect(log.lines.contains { $0.hasPrefix("event: enrollment alice@contoso.com: AuthRequired(203)") }, "\(log.lines)")
    }

    @Test func invariant24NamesAGrantWithoutTheClaimsAndTheRefusedTokenSentAgain() throws {
        let log = Self.run(Self.toEnroll + [Self.challenge])
        let entry = try firstCleanTransition(in: log) { transition in
            transition.takenActions.contains { if case .requestToken = $0 { true } else { false } }
                && log.transitions.contains { $0.transition.actions == transition.actions && $0.facts.claimsChallenge != nil }
        }
        let challenged = try #require(entry.facts.claimsChallenge)
        var withoutClaims = entry.transition
        withoutClaims.actions = withoutClaims.actions.map { action in
            guard case .requestToken(let step, let grant, let account, let scopes, _, let interaction, let environment) = action else { return action }
            return .requestToken(step, grant, account, scopes: scopes, claims: #"{"access_token":{"xms_cc":{"values":["cp1","protapp"]}}}"#, interaction: interaction, environment: environment)
        }
        #expect(broken(withoutClaims, entry.facts).contains(24))

        var sentAgain = entry.transition
        sentAgain.actions.append(.callMAM(.init(999), .enroll(alice, token: challenged.refusedToken), environment: .app))
        #expect(broken(sentAgain, entry.facts).contains(24))
    }
}
