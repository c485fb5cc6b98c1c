import Foundation
import JSON
import Testing
@testable import ComplianceCore
@testable import Explorer

/// The frontier holds states as bytes (``FrontierCoding``): every state decodes to itself,
/// field for field, including what `==` leaves out (the committed records, the machine's caches).
@Suite struct FrontierCodingTests {
    /// Every state of the universe without a MAM service (exhausted) and of the wide one to depth 5
    /// (as many as the explorer explores).
    @Test func everyStateOfASmallUniverseDecodesToItself() async {
        for (universe, depth) in [(Universe.withoutMAMService, 100), (.wide, 5)] {
            let (states, failures) = await offThePool { Self.roundTrips(universe, depth: depth) }
            // The explorer, whose frontier holds states as bytes, reaches the states this
            // search over full states reaches.
            let explored = await offThePool { Explorer(universe: universe, maxDepth: depth, fullStatesHeld: 0).run() }
            #expect(explored.states == states, "\(explored.states) explored ≠ \(states) reached")
            #expect(states > 200, "\(states) states")
            #expect(failures.isEmpty, "\(failures.count) of \(states) states differ after decoding, e.g. \(failures.first ?? "")")
        }
    }

    @Test func scalarsAndCollectionsKeepTheirValues() throws {
        struct Sample: Codable, Equatable {
            var counts: [String: Int]
            var numbered: [Int: String]
            var maybe: Int?
            var nested: [String?]
            var values: [Double]
            var small: Int8
            var big: UInt64
            var negative: Int64
        }
        let sample = Sample(
            counts: ["a": 1, "": -2, "é": Int.min], numbered: [3: "x", -1: ""], maybe: nil, nested: [nil, "b", nil], values: [0.5, -.infinity],
            small: -128, big: .max, negative: .min)
        #expect(FrontierCoding.decode(Sample.self, from: FrontierCoding.encode(sample)) == sample)
        var other = sample
        other.maybe = 7
        other.counts = [:]
        #expect(FrontierCoding.decode(Sample.self, from: FrontierCoding.encode(other)) == other)
        // Canonically equivalent spellings (Swift's `==` takes them for one) keep their bytes,
        // in a string, a record and an account's ID.
        let spellings = ["jos\u{E9}", "jose\u{301}"]
        let decoded = FrontierCoding.decode([String].self, from: FrontierCoding.encode(spellings))
        #expect(decoded.map { Array($0.utf8) } == spellings.map { Array($0.utf8) })
        let records = spellings.map { JSONValue.string($0) }
        let decodedRecords = FrontierCoding.decode([JSONValue].self, from: FrontierCoding.encode(records))
        #expect(decodedRecords.map { Array(($0.stringValue ?? "").utf8) } == spellings.map { Array($0.utf8) })
        let ids = try spellings.map { try AccountID("\($0)@contoso.com") }
        let decodedIDs = FrontierCoding.decode([AccountID].self, from: FrontierCoding.encode(ids))
        #expect(decodedIDs.map { Array($0.upn.utf8) } == ids.map { Array($0.upn.utf8) })
    }

    /// A token encodes its value for the frontier, and for nothing else (a JSON encoder fails).
    @Test func aTokenEncodesOnlyForTheFrontier() throws {
        let token = SecretToken("eyJ.secret.token")
        #expect(FrontierCoding.decode(SecretToken.self, from: FrontierCoding.encode(token)).reveal() == "eyJ.secret.token")
        #expect(throws: EncodingError.self) { try JSONEncoder().encode([token]) }
    }

    /// Breadth-first over the universe: each state against its decoded copy.
    static func roundTrips(_ universe: Universe, depth: Int) -> (states: Int, failures: [String]) {
        var seen: Set<ExploreState> = []
        var level = [ExploreState(universe: universe)]
        var failures: [String] = []
        for _ in 0...depth where !level.isEmpty {
            var next: [ExploreState] = []
            for state in level where seen.insert(state).inserted {
                let decoded = FrontierCoding.decode(ExploreState.self, from: FrontierCoding.encode(state))
                // By bytes: `!=` on strings would take canonically equivalent spellings for one.
                if decoded != state || !canonical(decoded).utf8.elementsEqual(canonical(state).utf8) {
                    failures.append(firstDifference(canonical(state), canonical(decoded)))
                }
                for event in state.events(in: universe) {
                    var successor = state
                    _ = successor.apply(event, in: universe)
                    next.append(successor)
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

    static func firstDifference(_ original: String, _ decoded: String) -> String {
        let common = zip(original, decoded).prefix { $0 == $1 }.count
        return "at \(common): …\(original.dropFirst(max(0, common - 80)).prefix(160)) became …\(decoded.dropFirst(max(0, common - 80)).prefix(160))"
    }
}
