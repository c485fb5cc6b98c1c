import ComplianceCore
import Dispatch

/// Breadth-first exploration of the composed machine in a ``Universe``: every event of every
/// reachable state, each transition checked against ``ComplianceInvariants``. Stops at the
/// first depth with a violation and reports the shortest path to it.
///
/// Visited states are remembered by a 64-bit fingerprint (the state's hash), as TLC does:
/// 8 bytes a state in an open-addressing table, plus 6 for the way back (the index of the
/// state it was first reached from and which of that state's events led to it), from which a
/// violation's trace is replayed. The frontier holds each state collapsed (``CollapsedState``:
/// the indexes of its parts in tables of the values met so far, SPIN's COLLAPSE compression;
/// 192 bytes instead of some kilobytes of Swift collections), put back together when it
/// is expanded; a replay takes its states through the same tables, so each lists its events
/// in the order the exploration saw. Two states with
/// one fingerprint would hide the second (never invent a violation); ``Report/collisionProbability``
/// says how likely that was. ``Visited/exact`` keeps every full state instead, for comparison.
///
/// Each depth's frontier is expanded in chunks by ``threads`` workers that take the next chunk
/// when done (a work-sharing frontier); the chunks' successors are then taken in frontier
/// order, so states, transitions, traces and violations are those of the single-threaded run.
public struct Explorer: Sendable {
    public let universe: Universe
    /// Transitions are explored to this depth at most.
    public var maxDepth: Int
    /// The properties checked after every transition (``ComplianceInvariants/check(_:facts:)``).
    public var check: @Sendable (ComplianceInvariants.Transition, ComplianceInvariants.Facts) -> [ComplianceInvariants.Violation]
    /// How visited states are remembered.
    public var visited: Visited = .fingerprints
    /// Worker threads expanding each depth's frontier (1: this thread alone).
    public var threads = 1
    /// States the frontier holds as they are before it collapses the next ones (0, the
    /// default: every state is collapsed, which costs no more CPU than full states; `Int.max`:
    /// none is, at some 13 KB a state).
    public var fullStatesHeld = 0

    /// How visited states are remembered.
    public enum Visited: Sendable {
        /// A 64-bit fingerprint per state (a collision could hide a state, with the reported probability).
        case fingerprints
        /// Every full state (exact, and some hundred times the memory).
        case exact
    }

    public init(
        universe: Universe = .standard, maxDepth: Int, visited: Visited = .fingerprints, threads: Int = 1, fullStatesHeld: Int = 0,
        check: @escaping @Sendable (ComplianceInvariants.Transition, ComplianceInvariants.Facts) -> [ComplianceInvariants.Violation] = ComplianceInvariants.check
    ) {
        self.universe = universe
        self.maxDepth = maxDepth
        self.visited = visited
        self.threads = max(1, threads)
        self.fullStatesHeld = fullStatesHeld
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
        /// Bytes held by the visited set and the way back to each state (the exact set's full
        /// states are counted by their inline size only: their heap storage comes on top).
        public var visitedBytes: Int
        /// The probability that two distinct states shared a fingerprint (one was then never
        /// explored), as TLC calculates it: n·(m − n) / 2⁶⁴ for n distinct states among m
        /// generated. Nil for an exact run.
        public var collisionProbability: Double?
        /// The most states held on the frontier at once.
        public var peakFrontier: Int
        /// The bytes of collapsed states the frontier held at its peak (``peakFrontier``).
        public var peakFrontierBytes: Int
        /// The distinct values of the states' parts the tables hold at the end (``FrontierTables``).
        public var interned: Int
    }

    /// TLC's "calculated" fingerprint collision probability for `distinct` states among `generated`.
    public static func collisionProbability(distinct: Int, generated: Int) -> Double {
        Double(distinct) * Double(max(0, generated - distinct)) / 18_446_744_073_709_551_616.0
    }

    /// A frontier state and its index in the way back.
    typealias Entry = (state: Held, index: UInt32)

    /// A frontier state as it is, or collapsed (``CollapsedState``: the indexes of its parts
    /// in ``FrontierTables``, 192 bytes instead of some kilobytes of collections) once
    /// the frontier holds ``fullStatesHeld``.
    enum Held {
        case full(ExploreState)
        case collapsed(CollapsedState)

        func state(_ tables: FrontierTables) -> ExploreState {
            switch self {
            case .full(let state): state
            case .collapsed(let collapsed): tables.expand(collapsed)
            }
        }

        var bytes: Int {
            if case .collapsed = self { MemoryLayout<CollapsedState>.stride } else { 0 }
        }
    }

    /// A successor a worker found new (as far as the visited set knew when the chunk began).
    struct Successor {
        var fingerprint: UInt64
        var parent: UInt32
        var ordinal: UInt16
        /// The script the state's path follows.
        var script: Int?
        /// The state, as the frontier will hold it.
        var held: Held
        /// The state itself, for an exact visited set only.
        var state: ExploreState?
    }

    /// What a worker found expanding one chunk of the frontier, in frontier order.
    struct Chunk {
        var successors: [Successor] = []
        var transitions = 0
        /// The first violating transition: the state it left and the event.
        var violation: (parent: UInt32, event: ExploreEvent, violations: [ComplianceInvariants.Violation])?
    }

    /// States expanded per chunk, and chunks a batch is cut into per thread (the batch's
    /// successors are held until they are taken in order).
    static let chunkSize = 64
    static let chunksPerThread = 16

    /// Explores; `progress` is called after each depth with (depth, states so far).
    public func run(progress: (Int, Int) -> Void = { _, _ in }) -> Report {
        let start = ExploreState(universe: universe)
        var store = VisitedStore(exact: visited == .exact)
        _ = store.insert(Self.fingerprint(start), start)
        var way = WayBack()
        let tables = FrontierTables()
        way.append(parent: 0, ordinal: 0, collapsed: fullStatesHeld == 0)
        // The frontier in batches: a batch is freed once expanded, while the next depth grows.
        var frontier: [[Entry]] = [[(fullStatesHeld > 0 ? .full(start) : .collapsed(tables.collapse(start)), 0)]]
        var transitions = 0
        var depth = 0
        var perScript: [String: Int] = [:]
        var peakFrontier = 1
        var peakFrontierBytes = frontier[0][0].state.bytes
        func report(exhausted: Bool, violation: (violations: [ComplianceInvariants.Violation], trace: [ExploreEvent])?) -> Report {
            Report(
                states: store.count, transitions: transitions, depth: depth, exhausted: exhausted, violation: violation, statesPerScript: perScript,
                visitedBytes: store.bytes + way.bytes,
                collisionProbability: visited == .exact ? nil : Self.collisionProbability(distinct: store.count, generated: transitions + 1),
                peakFrontier: peakFrontier, peakFrontierBytes: peakFrontierBytes, interned: tables.interned)
        }
        let batchSize = Self.chunkSize * Self.chunksPerThread * threads
        while !frontier.isEmpty, depth < maxDepth {
            var next: [[Entry]] = []
            var current: [Entry] = []
            var held = frontier.reduce(0) { $0 + $1.count }
            var heldBytes = frontier.reduce(0) { $0 + Self.bytes($1) }
            var nextBytes = 0
            for batchIndex in frontier.indices {
                let batch = frontier[batchIndex]
                frontier[batchIndex] = []
                held -= batch.count
                heldBytes -= Self.bytes(batch)
                let holding = held + next.count * batchSize + current.count
                for chunk in expand(batch, visited: store, tables: tables, collapsing: holding >= fullStatesHeld) {
                    for successor in chunk.successors {
                        guard store.insert(successor.fingerprint, successor.state) else { continue }
                        let index = UInt32(way.count)
                        way.append(parent: successor.parent, ordinal: successor.ordinal, collapsed: successor.held.bytes > 0)
                        if let script = successor.script { perScript[universe.scripts[script].name, default: 0] += 1 }
                        current.append((successor.held, index))
                        nextBytes += successor.held.bytes
                        if current.count == batchSize {
                            next.append(current)
                            current = []
                        }
                    }
                    transitions += chunk.transitions
                    if let found = chunk.violation {
                        depth += 1
                        return report(exhausted: false, violation: (found.violations, replay(to: found.parent, in: way, tables: tables) + [found.event]))
                    }
                }
                let holdingAfter = held + next.count * batchSize + current.count
                if holdingAfter > peakFrontier { (peakFrontier, peakFrontierBytes) = (holdingAfter, heldBytes + nextBytes) }
            }
            if !current.isEmpty { next.append(current) }
            depth += 1
            frontier = next
            progress(depth, store.count)
        }
        return report(exhausted: frontier.isEmpty, violation: nil)
    }

    /// The collapsed states' bytes in a batch.
    static func bytes(_ batch: [Entry]) -> Int { batch.reduce(0) { $0 + $1.state.bytes } }

    /// Expands `batch` in chunks over ``threads`` workers; the chunks come back in order, their
    /// successors collapsed when `collapsing`.
    func expand(_ batch: [Entry], visited: VisitedStore, tables: FrontierTables, collapsing: Bool) -> [Chunk] {
        let chunkCount = (batch.count + Self.chunkSize - 1) / Self.chunkSize
        let ranges = (0..<chunkCount).map { $0 * Self.chunkSize..<min(batch.count, ($0 + 1) * Self.chunkSize) }
        guard threads > 1, chunkCount > 1 else { return ranges.map { expand(batch[$0], visited: visited, tables: tables, collapsing: collapsing) } }
        let results = Results(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            results.set(chunk, expand(batch[ranges[chunk]], visited: visited, tables: tables, collapsing: collapsing))
        }
        return results.taken()
    }

    /// One worker's chunk: every event of every state, checked; successors the visited set
    /// does not hold are kept (a violation ends the chunk).
    func expand(_ entries: ArraySlice<Entry>, visited: VisitedStore, tables: FrontierTables, collapsing: Bool) -> Chunk {
        var chunk = Chunk()
        for (held, index) in entries {
            let state = held.state(tables)
            // A collapsed parent: its successors' parts that the transition left as they were keep its indexes.
            var parent: (collapsed: CollapsedState, state: ExploreState)?
            if case .collapsed(let collapsed) = held { parent = (collapsed, state) }
            for (ordinal, event) in state.events(in: universe).enumerated() {
                var successor = state
                let (transition, facts) = successor.apply(event, in: universe)
                chunk.transitions += 1
                let violations = check(transition, facts)
                if !violations.isEmpty {
                    chunk.violation = (index, event, violations)
                    return chunk
                }
                let fingerprint = Self.fingerprint(successor)
                guard !visited.contains(fingerprint, successor) else { continue }
                chunk.successors.append(
                    Successor(
                        fingerprint: fingerprint, parent: index, ordinal: UInt16(ordinal), script: successor.script,
                        held: collapsing ? .collapsed(tables.collapse(successor, parent: parent)) : .full(successor),
                        state: visited.states == nil ? nil : successor))
            }
        }
        return chunk
    }

    /// A state's 64-bit fingerprint: its hash (SipHash over everything but the committed
    /// records, which follow from the rest).
    static func fingerprint(_ state: ExploreState) -> UInt64 {
        UInt64(bitPattern: Int64(state.hashValue))
    }

    /// The events from the start to the state with index `index`: the way back read off,
    /// then replayed from the start (each step is the event with that ordinal, in the state
    /// as the frontier held it: a state put back together from the tables lists its events in
    /// the order it did).
    func replay(to index: UInt32, in way: WayBack, tables: FrontierTables) -> [ExploreEvent] {
        var steps: [(ordinal: UInt16, parentCollapsed: Bool)] = []
        var current = index
        while current != 0 {
            let parent = way.parents[Int(current)]
            steps.append((way.ordinal(Int(current)), way.collapsed(Int(parent))))
            current = parent
        }
        var state = ExploreState(universe: universe)
        var events: [ExploreEvent] = []
        for (ordinal, parentCollapsed) in steps.reversed() {
            if parentCollapsed { state = tables.expand(tables.collapse(state)) }
            let event = state.events(in: universe)[Int(ordinal)]
            _ = state.apply(event, in: universe)
            events.append(event)
        }
        return events
    }
}

/// Per visited state, the state it was first reached from, which of that state's events led
/// to it, and whether the frontier held it collapsed (the ordinal's top bit): 6 bytes a state.
struct WayBack {
    var parents: [UInt32] = []
    var ordinals: [UInt16] = []
    var count: Int { parents.count }

    func ordinal(_ index: Int) -> UInt16 { ordinals[index] & 0x7FFF }
    func collapsed(_ index: Int) -> Bool { ordinals[index] & 0x8000 != 0 }
    var bytes: Int { parents.capacity * 4 + ordinals.capacity * 2 }

    mutating func append(parent: UInt32, ordinal: UInt16, collapsed: Bool) {
        precondition(ordinal < 0x8000, "a state with more than 32,767 events")
        parents.append(parent)
        ordinals.append(ordinal | (collapsed ? 0x8000 : 0))
    }
}

/// The visited states: fingerprints, or (exact) full states.
struct VisitedStore: Sendable {
    var fingerprints = FingerprintSet()
    var states: Set<ExploreState>?

    init(exact: Bool) {
        if exact { states = [] }
    }

    var count: Int { states?.count ?? fingerprints.count }
    var bytes: Int { states.map { $0.capacity * MemoryLayout<ExploreState>.stride } ?? fingerprints.bytes }

    func contains(_ fingerprint: UInt64, _ state: ExploreState) -> Bool {
        states.map { $0.contains(state) } ?? fingerprints.contains(fingerprint)
    }

    /// Adds the state; false when it was there.
    mutating func insert(_ fingerprint: UInt64, _ state: ExploreState?) -> Bool {
        if states != nil { return states!.insert(state!).inserted }
        return fingerprints.insert(fingerprint)
    }
}

/// A set of 64-bit fingerprints: open addressing with linear probing in one array of 8-byte
/// slots, at most three quarters full (0 marks an empty slot; fingerprint 0 is stored as 1).
struct FingerprintSet: Sendable {
    private var slots = [UInt64](repeating: 0, count: 1 << 10)
    private(set) var count = 0

    var bytes: Int { slots.count * MemoryLayout<UInt64>.stride }

    func contains(_ fingerprint: UInt64) -> Bool {
        let fingerprint = Swift.max(fingerprint, 1)
        return slots[slot(of: fingerprint)] == fingerprint
    }

    /// Adds the fingerprint; false when it was there.
    mutating func insert(_ fingerprint: UInt64) -> Bool {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let fingerprint = Swift.max(fingerprint, 1)
        let slot = slot(of: fingerprint)
        guard slots[slot] != fingerprint else { return false }
        slots[slot] = fingerprint
        count += 1
        return true
    }

    /// The slot that holds `fingerprint`, or the empty one it would go in.
    private func slot(of fingerprint: UInt64) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[slot] != 0, slots[slot] != fingerprint { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        count = 0
        for fingerprint in old where fingerprint != 0 { _ = insert(fingerprint) }
    }
}

/// The chunks' results, written by the workers (each its own slot) and taken once all are done.
private final class Results: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Explorer.Chunk?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func set(_ index: Int, _ chunk: Explorer.Chunk) { slots[index] = chunk }

    func taken() -> [Explorer.Chunk] { (0..<count).map { slots[$0].take()! } }
}
