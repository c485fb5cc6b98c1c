import Foundation
import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// The frontier holds states collapsed (``CollapsedState``: the indexes of their parts in
/// ``FrontierTables``): every state comes back as it was, field for field, including what `==`
/// leaves out (the committed records, the machine's caches) and the bytes of every spelling.
@Suite struct FrontierCollapseTests {
    /// Every state of the universe without a MAM service (exhausted) and of the wide one to depth 5
    /// (as many as the explorer explores).
    @Test func everyStateOfASmallUniverseComesBackWhole() async {
        for (universe, depth) in [(Universe.withoutMAMService, 100), (.wide, 5)] {
            let (states, failures) = await offThePool { Self.roundTrips(universe, depth: depth) }
            // The explorer, whose frontier holds every state collapsed, reaches the states this
            // search over full states reaches.
            let explored = await offThePool { Explorer(universe: universe, maxDepth: depth, fullStatesHeld: 0).run() }
            #expect(explored.states == states, "\(explored.states) explored ≠ \(states) reached")
            #expect(states > 200, "\(states) states")
            #expect(failures.isEmpty, "\(failures.count) of \(states) states differ after the round trip, e.g. \(failures.first ?? "")")
        }
    }

    /// Two spellings of josé that differ only by normalization (Swift's `==` takes them for one)
    /// reach the world's names on different paths: each state keeps its own bytes.
    @Test func twoNormalizationFormsStayTwo() async {
        var spellings = Universe.standard
        spellings.scripts = [
            .init("the NFD spelling", [.command(.signIn("josé-nfc")), .admin(.queueWipe("josé-nfd")), .admin(.targetCA("josé-nfd"))]),
            .init("the NFC spelling", [.command(.signIn("josé-nfc")), .admin(.queueWipe("josé-nfc")), .admin(.targetCA("josé-nfc"))]),
        ]
        let universe = spellings
        let (states, failures) = await offThePool { Self.roundTrips(universe, depth: 7) }
        #expect(states > 100, "\(states) states")
        #expect(failures.isEmpty, "\(failures.count) of \(states) states differ after the round trip, e.g. \(failures.first ?? "")")

        // The tables themselves: one index per spelling, the same index for the same value.
        let tables = FrontierTables()
        let (nfc, nfd) = ("jos\u{E9}@contoso.com", "jose\u{301}@contoso.com")
        #expect(nfc == nfd)
        let names = [nfc, nfd, nfc].map { tables.names.index(of: [$0, "alice@contoso.com"]) }
        #expect(names[0] != names[1] && names[0] == names[2], "\(names)")
        #expect(Array(tables.names[names[1]].first { $0.hasPrefix("jos") }!.utf8) == Array(nfd.utf8))
        let records = [nfc, nfd].map { tables.records.index(of: .object(JSONObject([("upn", .string($0))]))) }
        #expect(records[0] != records[1])
        let accountRecords = [nfc, nfd].map { tables.accountRecords.index(of: [$0: .null]) }
        #expect(accountRecords[0] != accountRecords[1])
        let enrolled = [nfc, nfd].map { tables.enrolled.index(of: [$0: 1]) }
        #expect(enrolled[0] != enrolled[1])
    }

    /// A part whose caches differ (left out of `==`) is a part of its own.
    @Test func volatilePartsThatDifferOnlyInTheirCachesStayTwo() {
        var machine = ComplianceMachine(configuration: universe.configuration)
        var cached = machine.parts.volatile
        cached.reconcileEverything.toggle()
        #expect(cached == machine.parts.volatile && !cached.isIdentical(to: machine.parts.volatile))
        let tables = FrontierTables()
        let first = tables.volatiles.index(of: machine.parts.volatile)
        machine.volatile = cached
        #expect(tables.volatiles.index(of: machine.parts.volatile) != first)
    }

    /// Every stored field of a state is a part of the collapsed form: a field added to the
    /// state, the world or the machine without a place there fails here.
    @Test func theCollapsedFormHasAPlaceForEveryField() {
        let state = ExploreState(universe: universe)
        #expect(Mirror(reflecting: state).children.count == 13, "ExploreState's fields: give a new one its place in CollapsedState")
        #expect(Mirror(reflecting: state.world).children.count == 17, "World's fields: give a new one its place in CollapsedState")
        #expect(Mirror(reflecting: state.machine).children.count == Mirror(reflecting: state.machine.parts).children.count)
        #expect(Mirror(reflecting: state.machine).children.map(\.label) == Mirror(reflecting: state.machine.parts).children.map(\.label))
    }

    /// A token is held in the tables as it is: no encoder writes its value (a JSON one fails).
    @Test func aTokenIsNeverEncoded() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([SecretToken("eyJ.secret.token")]) }
    }

    /// Breadth-first over the universe: each state against its round trip through the tables,
    /// collapsed as the explorer collapses it (its parent's indexes for the parts the
    /// transition left as they were).
    static func roundTrips(_ universe: Universe, depth: Int) -> (states: Int, failures: [String]) {
        let tables = FrontierTables()
        var seen: Set<ExploreState> = []
        let start = ExploreState(universe: universe)
        var level = [(state: start, collapsed: tables.collapse(start))]
        var failures: [String] = []
        for _ in 0...depth where !level.isEmpty {
            var next: [(state: ExploreState, collapsed: CollapsedState)] = []
            for (state, collapsed) in level where seen.insert(state).inserted {
                let expanded = tables.expand(collapsed)
                // By bytes: `!=` on strings would take canonically equivalent spellings for one.
                if expanded != state || !canonical(expanded).utf8.elementsEqual(canonical(state).utf8) {
                    failures.append(firstDifference(canonical(state), canonical(expanded)))
                }
                for event in state.events(in: universe) {
                    var successor = state
                    _ = successor.apply(event, in: universe)
                    next.append((successor, tables.collapse(successor, parent: (collapsed, state))))
                }
            }
            level = next
        }
        return (seen.count, failures)
    }

    /// Every stored field, read by reflection (so also those `==` leaves out); the members of
    /// sets and dictionaries sorted (their order is their storage's, not their value's).
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty { return "\(value)" }
        var parts = mirror.children.map { "\($0.label ?? ""): \(canonical($0.value))" }
        if mirror.displayStyle == .set || mirror.displayStyle == .dictionary { parts.sort() }
        return "\(mirror.subjectType)(\(parts.joined(separator: ", ")))"
    }

    static func firstDifference(_ original: String, _ expanded: String) -> String {
        let common = zip(original.utf8, expanded.utf8).prefix { $0 == $1 }.count
        let (left, right) = (Array(original.utf8), Array(expanded.utf8))
        func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, common - 80)..<min(bytes.count, common + 80)], as: UTF8.self) }
        return "at byte \(common): …\(around(left)) became …\(around(right))"
    }
}
