import Testing
@testable import ComplianceCore
@testable import Explorer

/// Visited states by 64-bit fingerprint, and the frontier shared by worker threads: both give
/// the states, transitions and violations of the exact, single-threaded exploration.
@Suite struct FingerprintTests {
    /// Small universes, exhausted or cut at a depth, explored three ways.
    static let small: [(String, Universe, Int)] = [
        ("no MAM service", .withoutMAMService, 100), ("restart hook", .withRestartHook, 100), ("standard", .standard, 6), ("wide", .wide, 6),
    ]

    @Test func fingerprintsAndThreadsExploreWhatTheExactSingleThreadedRunExplores() async {
        for (name, universe, depth) in Self.small {
            let runs = await offThePool {
                [
                    // Every frontier state whole.
                    Explorer(universe: universe, maxDepth: depth, visited: .exact, threads: 1, fullStatesHeld: .max).run(),
                    Explorer(universe: universe, maxDepth: depth, visited: .fingerprints, threads: 1, fullStatesHeld: .max).run(),
                    Explorer(universe: universe, maxDepth: depth, visited: .fingerprints, threads: 3, fullStatesHeld: .max).run(),
                    // Every frontier state collapsed (the default), and the first 300 whole.
                    Explorer(universe: universe, maxDepth: depth, visited: .fingerprints, threads: 3).run(),
                    Explorer(universe: universe, maxDepth: depth, visited: .fingerprints, threads: 2, fullStatesHeld: 300).run(),
                ]
            }
            let exact = runs[0]
            #expect(exact.states > 500 && exact.violation == nil, "\(name): \(exact.states) states")
            for run in runs.dropFirst() {
                #expect(run.states == exact.states && run.transitions == exact.transitions, "\(name): \(run.states)/\(run.transitions) ≠ \(exact.states)/\(exact.transitions)")
                #expect(run.depth == exact.depth && run.exhausted == exact.exhausted && run.violation == nil, "\(name)")
                #expect(run.statesPerScript == exact.statesPerScript, "\(name)")
            }
            #expect(runs[1].collisionProbability != nil && exact.collisionProbability == nil)
            // 8-byte slots at most three quarters full, and 6 bytes of the way back.
            #expect(runs[1].visitedBytes / runs[1].states < 40, "\(name): \(runs[1].visitedBytes) bytes")
        }
    }

    /// A property the machine does not keep (nobody is told 227 at enrollment: it is told
    /// when a second account meets the managed slot) is found the same way by every mode, with
    /// the same shortest trace, and that trace replays to the violation.
    @Test func aBrokenPropertyIsFoundWithAReplayableTraceInEveryMode() async throws {
        let check: @Sendable (ComplianceInvariants.Transition, ComplianceInvariants.Facts) -> [ComplianceInvariants.Violation] = { transition, facts in
            let told227 = transition.actions.contains { action in
                guard case .persist(let changes) = action else { return false }
                return changes.events.contains { if case .enrollment(let report) = $0 { report.status == .singleManagedAccountMode } else { false } }
            }
            return told227 ? [ComplianceInvariants.Violation(.atMostOneManagedAccount, "told 227")] : ComplianceInvariants.check(transition, facts: facts)
        }
        let runs = await offThePool {
            [(Explorer.Visited.exact, 1, Int.max), (.fingerprints, 1, Int.max), (.fingerprints, 4, 20_000), (.fingerprints, 2, 0), (.exact, 1, 0)].map {
                visited, threads, fullStatesHeld in
                Explorer(maxDepth: 12, visited: visited, threads: threads, fullStatesHeld: fullStatesHeld, check: check).run()
            }
        }
        let exact = try #require(runs[0].violation)
        for run in runs {
            let violation = try #require(run.violation)
            #expect(violation.trace == exact.trace, "\(violation.trace)")
            #expect(run.states == runs[0].states && run.transitions == runs[0].transitions && run.depth == runs[0].depth)
            // Replayed from the start, the trace's last transition breaks the property.
            var state = ExploreState(universe: universe)
            var last: [ComplianceInvariants.Violation] = []
            for event in violation.trace {
                #expect(state.events(in: universe).contains(event), "\(event) is possible where the trace takes it")
                let (transition, facts) = state.apply(event, in: universe)
                last = check(transition, facts)
            }
            #expect(last.map { "\($0)" } == violation.violations.map { "\($0)" })
        }
    }

    @Test func theFingerprintSetHoldsEachFingerprintOnceAcrossGrowth() {
        var set = FingerprintSet()
        var inserted = 0
        for value in 0..<200_000 as Range<UInt64> where set.insert(value &* 0x9E37_79B9_7F4A_7C15) { inserted += 1 }
        #expect(inserted == 200_000 && set.count == 200_000)
        #expect(!set.insert(5 &* 0x9E37_79B9_7F4A_7C15) && set.contains(7 &* 0x9E37_79B9_7F4A_7C15) && !set.contains(3))
        // 0 and 1 are one slot (0 marks an empty one).
        var small = FingerprintSet()
        #expect(small.insert(0) && !small.insert(1) && small.contains(0))
    }

    /// TLC's "calculated" estimate: n·(m − n) / 2⁶⁴.
    @Test func theCollisionProbabilityIsTLCs() {
        #expect(Explorer.collisionProbability(distinct: 1 << 32, generated: 1 << 33) == 1.0)
        #expect(Explorer.collisionProbability(distinct: 10, generated: 10) == 0)
    }
}

/// Symmetry: no universe treats two people alike (each script gives each person a part of
/// their own), so canonicalising accounts would merge no state; the check finds people who are.
@Suite struct SymmetryTests {
    @Test func noUniverseTreatsTwoPeopleAlike() {
        for universe in [Universe.standard, .wide, .withoutMAMService, .withPolicyRequired, .withMultiIdentity, .withRestartHook, .withSecondIssuer] {
            #expect(universe.interchangeablePeople.isEmpty, "\(universe.interchangeablePeople)")
            #expect(universe.people.count == 3)
        }
    }

    @Test func twoPeopleWithMirroredScriptsAreAlike() {
        var mirrored = Universe.standard
        mirrored.allowedAccounts = ["alice@contoso.com", "dave@contoso.com"]
        mirrored.caTargeted = []
        mirrored.scripts = [
            .init("alice first", [.command(.signIn("alice")), .command(.signIn("dave"))]),
            .init("dave first", [.command(.signIn("dave")), .command(.signIn("alice"))]),
        ]
        #expect(mirrored.interchangeablePeople.map { [$0.0, $0.1] } == [["alice@contoso.com", "dave@contoso.com"]])
        mirrored.scripts.removeLast()
        #expect(mirrored.interchangeablePeople.isEmpty)
    }
}
