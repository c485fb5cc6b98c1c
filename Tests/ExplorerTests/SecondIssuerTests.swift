import Testing
@testable import ComplianceCore
@testable import Explorer

/// The app moves its authority to a second issuer and back (`aadAuthorityUriOverride`): tokens
/// stay with the issuer that issued them (invariant 17), explored to exhaustion with its own
/// scripts; and the invariant, broken on purpose, names itself.
@Suite struct SecondIssuerTests {
    static let universe = Universe.withSecondIssuer
    static let second = TokenEnvironment(authority: Universe.secondAuthority)

    @Test func theWholeSpaceWithASecondIssuerBreaksNothing() async {
        let report = await offThePool { Explorer(universe: Self.universe, maxDepth: 11).run() }
        #expect(report.violation == nil, "\(report.violation.map { "\($0.violations) after \($0.trace)" } ?? "")")
        #expect(report.states > 5_000, "\(report.states) states")
    }

    @Test func aTokenRequestAfterTheMoveReadsOnlyTheSecondIssuersCache() {
        let log = ScriptRun(universe: Self.universe).run(0)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let reads = log.transitions.flatMap(\.transition.takenActions).compactMap { action -> TokenEnvironment? in
            if case .readTokenCache(_, _, _, let environment) = action { environment } else { nil }
        }
        #expect(reads.contains(Self.second) && reads.last == .app, "\(reads)")
        #expect(log.final.world.tokens.keys.contains { $0.environment == .app && $0.key == ComplianceInvariants.storeKey(alice) },
                "the first issuer's session is intact")
    }

    /// A grant's tokens filed under another issuer than the one that issued them, and a cache
    /// read of an issuer not in force, are both reported as invariant 17.
    @Test func invariant17NamesTokensFiledUnderAnotherIssuer() throws {
        let log = ScriptRun(universe: Self.universe).run(0)
        let entry = try #require(log.transitions.first { entry in
            entry.transition.actions.contains { if case .readTokenCache(_, _, _, let environment) = $0 { environment == Self.second } else { false } }
        })
        var misread = entry.transition
        misread.actions = misread.actions.map { action in
            guard case .readTokenCache(let step, let account, let scopes, _) = action else { return action }
            return .readTokenCache(step, account, scopes: scopes, environment: .app)
        }
        #expect(broken(misread, entry.facts).contains(17))

        var world = World(universe: Self.universe)
        guard case .success(let tokens) = world.grantAnswer(josé, scopes: ["openid"], environment: Self.second) else {
            Issue.record("the world grants josé a token")
            return
        }
        var changes = ComplianceMachine.Changes()
        changes.tokens = [ComplianceMachine.TokenWrite(josé, ["openid"], tokens, .app)]
        world.commit(changes, machine: log.final.machine)
        var facts = world.facts
        facts.tokenKeys = world.tokenKeys
        #expect(broken(entry.transition, facts).contains(17))
    }
}
