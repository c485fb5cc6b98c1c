import ComplianceCore

/// Breadth-first exploration of the composed machine in a ``Universe``: every event of every
/// reachable state, each transition checked against ``ComplianceInvariants``. States are
/// told apart by their hash (a bitstate search, as SPIN does: a 64-bit collision could hide a
/// state, never invent a violation). Stops at the first depth with a violation and reports
/// the shortest path to it.
public struct Explorer: Sendable {
    public let universe: Universe
    /// Transitions are explored to this depth at most.
    public var maxDepth: Int
    /// The properties checked after every transition (``ComplianceInvariants/check(_:facts:)``).
    public var check: @Sendable (ComplianceInvariants.Transition, ComplianceInvariants.Facts) -> [ComplianceInvariants.Violation]

    public init(
        universe: Universe = .standard, maxDepth: Int,
        check: @escaping @Sendable (ComplianceInvariants.Transition, ComplianceInvariants.Facts) -> [ComplianceInvariants.Violation] = ComplianceInvariants.check
    ) {
        self.universe = universe
        self.maxDepth = maxDepth
        self.check = check
    }

    /// What an exploration found.
    public struct Report: Sendable {
        public var states: Int
        public var transitions: Int
        /// The deepest level explored (transitions from the start).
        public var depth: Int
        /// True when no state was left unexplored below ``maxDepth`` (the space is exhausted).
        public var exhausted: Bool
        /// The first violation found, with the shortest path to it.
        public var violation: (violations: [ComplianceInvariants.Violation], trace: [ExploreEvent])?
        /// How many states each script's paths reached.
        public var statesPerScript: [String: Int]
    }

    /// Explores; `progress` is called after each depth with (depth, states so far).
    public func run(progress: (Int, Int) -> Void = { _, _ in }) -> Report {
        let start = ExploreState(universe: universe)
        var visited: [Int: (parent: Int, event: ExploreEvent?)] = [start.hashValue: (0, nil)]
        var frontier: [ExploreState] = [start]
        var transitions = 0
        var depth = 0
        var perScript: [String: Int] = [:]
        while !frontier.isEmpty, depth < maxDepth {
            var next: [ExploreState] = []
            for state in frontier {
                let parentHash = state.hashValue
                for event in state.events(in: universe) {
                    var successor = state
                    let (transition, facts) = successor.apply(event, in: universe)
                    transitions += 1
                    let violations = check(transition, facts)
                    let hash = successor.hashValue
                    if !violations.isEmpty {
                        let trace = Self.trace(to: parentHash, in: visited) + [event]
                        return Report(
                            states: visited.count, transitions: transitions, depth: depth + 1, exhausted: false,
                            violation: (violations, trace), statesPerScript: perScript)
                    }
                    guard visited[hash] == nil else { continue }
                    visited[hash] = (parentHash, event)
                    if let script = successor.script { perScript[universe.scripts[script].name, default: 0] += 1 }
                    next.append(successor)
                }
            }
            depth += 1
            frontier = next
            progress(depth, visited.count)
        }
        return Report(
            states: visited.count, transitions: transitions, depth: depth, exhausted: frontier.isEmpty, violation: nil, statesPerScript: perScript)
    }

    /// The events from the start to the state with hash `hash`.
    static func trace(to hash: Int, in visited: [Int: (parent: Int, event: ExploreEvent?)]) -> [ExploreEvent] {
        var events: [ExploreEvent] = []
        var current = hash
        while let entry = visited[current], let event = entry.event {
            events.append(event)
            current = entry.parent
        }
        return events.reversed()
    }
}
