import ComplianceCore
import JSON
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A frontier state collapsed, as SPIN's COLLAPSE compression holds one: each part of the
/// state (each field of the machine, ``ComplianceMachine/Parts``, of the world and of the
/// exploration) is the index of its value in a table of the values met so far
/// (``FrontierTables``), the few counters and flags are kept as they are. A universe has few
/// distinct values of each part and many states combining them (the standard universe:
/// 53,386 parts in all for 2,176,655 states), so a state takes 192 bytes here instead of some
/// kilobytes of collections, and is put back together by array look-ups (no parsing).
struct CollapsedState: Sendable {
    // The machine's parts.
    var configuration: UInt32 = 0
    var remediation: UInt32 = 0
    var remediationSnapshot: UInt32 = 0
    var allowed: UInt32 = 0
    var allowedSnapshot: UInt32 = 0
    var restartPending: UInt32 = 0
    var restartOwedByApp: UInt32 = 0
    var machineRestartAsked: UInt32 = 0
    var accounts: UInt32 = 0
    var settingsOverrides: UInt32 = 0
    var identities: UInt32 = 0
    var volatile: UInt32 = 0
    // The world's parts.
    var caTargeted: UInt32 = 0
    var compliant: UInt32 = 0
    var allowedAccounts: UInt32 = 0
    var enrolled: UInt32 = 0
    var wipeQueued: UInt32 = 0
    var durableApp: UInt32 = 0
    var durableAccounts: UInt32 = 0
    var tokens: UInt32 = 0
    var vault: UInt32 = 0
    var plainFiles: UInt32 = 0
    var facts: UInt32 = 0
    var policyVersion = 0
    var nextEnrollment = 0
    var issued = 0
    var now = Instant(millisecondsSinceEpoch: 0)
    var policyAssigned = false
    var pinRequired = false
    // The exploration's own.
    var failNextPersist = false
    var launching = false
    var pending: UInt32 = 0
    var openTickets: UInt32 = 0
    var budget: UInt32 = 0
    var restartAsked: UInt32 = 0
    var drainLog: UInt32 = 0
    var script: Int?
    var nextTicket: UInt64 = 0
    var scriptPosition = 0
    var launchResumed = 0

    /// No part's index (a state collapsed without a parent: every part is looked up).
    static let unknownIndex = UInt32.max
    static let unknown = CollapsedState(
        configuration: unknownIndex, remediation: unknownIndex, remediationSnapshot: unknownIndex, allowed: unknownIndex,
        allowedSnapshot: unknownIndex, restartPending: unknownIndex, restartOwedByApp: unknownIndex, machineRestartAsked: unknownIndex,
        accounts: unknownIndex, settingsOverrides: unknownIndex, identities: unknownIndex, volatile: unknownIndex, caTargeted: unknownIndex,
        compliant: unknownIndex, allowedAccounts: unknownIndex, enrolled: unknownIndex, wipeQueued: unknownIndex, durableApp: unknownIndex,
        durableAccounts: unknownIndex, tokens: unknownIndex, vault: unknownIndex, plainFiles: unknownIndex, facts: unknownIndex,
        pending: unknownIndex, openTickets: unknownIndex, budget: unknownIndex, restartAsked: unknownIndex, drainLog: unknownIndex)
}

/// The tables of the parts the frontier's states are made of (``CollapsedState``), shared by
/// the worker threads (a lock per table) and growing as the exploration meets new values
/// (none is removed: SPIN's tables grow the same way; what they hold is reported as
/// ``interned``).
///
/// A table keys a value by its `==` and hash, which are cheap (synthesized), but `==` can
/// take two values for one that the exploration must keep apart, so a value found equal
/// must also be identical where `==` does not look:
/// - the volatile part's caches and the details of the token writes it holds
///   (``ComplianceMachine/Volatile/isIdentical(to:)``);
/// - the spelling of strings (Swift's `==` is canonical equivalence: `josé` written with
///   U+00E9 equals `jose` + U+0301): the world's names and the committed records are
///   compared by their bytes (`FrontierTables.exactly`). The machine's strings
///   need no such care: an ``AccountID`` is stored in NFC, and the rest are the universe's
///   literals and what the world issues (ASCII);
/// - an ``AccountID``'s `==` compares its key only, not the UPN's case nor the home account
///   ID: no universe spells one account in two cases, and the explorer's issuer sends no
///   `client_info` (FrontierCollapseTests checks every state of the small universes, field
///   for field, after a round trip, and would find either).
/// A value whose bytes are those of the value already held (the same storage: a part the
/// transition left as it was) is that value, without comparing.
final class FrontierTables: Sendable {
    let configurations = PartTable<ComplianceMachine.Configuration>()
    let remediations = PartTable<RemediationStateMachine>()
    let remediationSnapshots = PartTable<RemediationStateMachine.Snapshot>()
    let alloweds = PartTable<AllowedAccountsStateMachine>()
    let allowedSnapshots = PartTable<AllowedAccountsStateMachine.Snapshot>()
    let accountIDs = PartTable<AccountID?>()
    let accounts = PartTable<[AccountID: ComplianceMachine.AccountState]>()
    let settingsOverrides = PartTable<SettingsOverrides>()
    let identities = PartTable<AppIdentities>()
    let volatiles = PartTable<ComplianceMachine.Volatile> { $0.isIdentical(to: $1) }
    let names = PartTable<Set<String>> { FrontierTables.exactly($0, $1) }
    let allowedAccounts = PartTable<[String]?> { FrontierTables.exactly($0 ?? [], $1 ?? []) }
    let enrolled = PartTable<[String: Int]> { lhs, rhs in lhs.keys.allSatisfy { key in FrontierTables.sameKey(key, in: rhs) } }
    let records = PartTable<JSONValue?> { FrontierTables.exactly($0 ?? .null, $1 ?? .null) }
    let accountRecords = PartTable<[String: JSONValue]> { lhs, rhs in
        lhs.allSatisfy { FrontierTables.sameKey($0.key, in: rhs) && FrontierTables.exactly($0.value, rhs[$0.key] ?? .null) }
    }
    let tokens = PartTable<[World.TokenKey: World.TokenRecord]>()
    let keys = PartTable<Set<[UInt8]>>()
    let facts = PartTable<ComplianceInvariants.Facts>()
    let pending = PartTable<[ComplianceMachine.Action]>()
    let openTickets = PartTable<[ComplianceMachine.Ticket: Command]>()
    let budgets = PartTable<Universe.Budget>()
    let drainLogs = PartTable<ExploreState.DrainLog>()

    /// The values the tables hold.
    var interned: Int {
        configurations.count + remediations.count + remediationSnapshots.count + alloweds.count + allowedSnapshots.count + accountIDs.count
            + accounts.count + settingsOverrides.count + identities.count + volatiles.count + names.count + allowedAccounts.count + enrolled.count
            + records.count + accountRecords.count + tokens.count + keys.count + facts.count + pending.count + openTickets.count + budgets.count
            + drainLogs.count
    }

    /// The state collapsed. `parent` (a state this one was reached from, and its collapsed
    /// form): a part whose bytes are the parent's is the parent's index, without a look-up.
    func collapse(_ state: ExploreState, parent: (collapsed: CollapsedState, state: ExploreState)? = nil) -> CollapsedState {
        // Without a parent, the state is its own, with no indexes: every part is looked up.
        let old = parent?.collapsed ?? CollapsedState.unknown
        let was = parent?.state ?? state
        let machine = state.machine.parts
        let wasMachine = was.machine.parts
        var collapsed = CollapsedState()
        collapsed.configuration = configurations.index(of: machine.configuration, was: wasMachine.configuration, at: old.configuration)
        collapsed.remediation = remediations.index(of: machine.remediation, was: wasMachine.remediation, at: old.remediation)
        collapsed.remediationSnapshot = remediationSnapshots.index(
            of: machine.remediationSnapshot, was: wasMachine.remediationSnapshot, at: old.remediationSnapshot)
        collapsed.allowed = alloweds.index(of: machine.allowed, was: wasMachine.allowed, at: old.allowed)
        collapsed.allowedSnapshot = allowedSnapshots.index(of: machine.allowedSnapshot, was: wasMachine.allowedSnapshot, at: old.allowedSnapshot)
        collapsed.restartPending = accountIDs.index(of: machine.restartPending, was: wasMachine.restartPending, at: old.restartPending)
        collapsed.restartOwedByApp = accountIDs.index(of: machine.restartOwedByApp, was: wasMachine.restartOwedByApp, at: old.restartOwedByApp)
        collapsed.machineRestartAsked = accountIDs.index(of: machine.restartAsked, was: wasMachine.restartAsked, at: old.machineRestartAsked)
        collapsed.accounts = accounts.index(of: machine.accounts, was: wasMachine.accounts, at: old.accounts)
        collapsed.settingsOverrides = settingsOverrides.index(of: machine.settingsOverrides, was: wasMachine.settingsOverrides, at: old.settingsOverrides)
        collapsed.identities = identities.index(of: machine.identities, was: wasMachine.identities, at: old.identities)
        collapsed.volatile = volatiles.index(of: machine.volatile, was: wasMachine.volatile, at: old.volatile)

        collapsed.caTargeted = names.index(of: state.world.caTargeted, was: was.world.caTargeted, at: old.caTargeted)
        collapsed.compliant = names.index(of: state.world.compliant, was: was.world.compliant, at: old.compliant)
        collapsed.allowedAccounts = allowedAccounts.index(of: state.world.allowedAccounts, was: was.world.allowedAccounts, at: old.allowedAccounts)
        collapsed.enrolled = enrolled.index(of: state.world.enrolled, was: was.world.enrolled, at: old.enrolled)
        collapsed.wipeQueued = names.index(of: state.world.wipeQueued, was: was.world.wipeQueued, at: old.wipeQueued)
        collapsed.durableApp = records.index(of: state.world.durableApp, was: was.world.durableApp, at: old.durableApp)
        collapsed.durableAccounts = accountRecords.index(of: state.world.durableAccounts, was: was.world.durableAccounts, at: old.durableAccounts)
        collapsed.tokens = tokens.index(of: state.world.tokens, was: was.world.tokens, at: old.tokens)
        collapsed.vault = keys.index(of: state.world.vault, was: was.world.vault, at: old.vault)
        collapsed.plainFiles = keys.index(of: state.world.plainFiles, was: was.world.plainFiles, at: old.plainFiles)
        collapsed.facts = facts.index(of: state.world.facts, was: was.world.facts, at: old.facts)
        collapsed.policyVersion = state.world.policyVersion
        collapsed.nextEnrollment = state.world.nextEnrollment
        collapsed.issued = state.world.issued
        collapsed.now = state.world.now
        collapsed.policyAssigned = state.world.policyAssigned
        collapsed.pinRequired = state.world.pinRequired

        collapsed.pending = pending.index(of: state.pending, was: was.pending, at: old.pending)
        collapsed.openTickets = openTickets.index(of: state.openTickets, was: was.openTickets, at: old.openTickets)
        collapsed.budget = budgets.index(of: state.budget, was: was.budget, at: old.budget)
        collapsed.restartAsked = accountIDs.index(of: state.restartAsked, was: was.restartAsked, at: old.restartAsked)
        collapsed.drainLog = drainLogs.index(of: state.drainLog, was: was.drainLog, at: old.drainLog)
        collapsed.nextTicket = state.nextTicket
        collapsed.failNextPersist = state.failNextPersist
        collapsed.script = state.script
        collapsed.scriptPosition = state.scriptPosition
        collapsed.launching = state.launching
        collapsed.launchResumed = state.launchResumed
        return collapsed
    }

    /// The state put back together: every part the table's value (sharing its storage).
    func expand(_ collapsed: CollapsedState) -> ExploreState {
        let machine = ComplianceMachine(
            parts: .init(
                configuration: configurations[collapsed.configuration], remediation: remediations[collapsed.remediation],
                remediationSnapshot: remediationSnapshots[collapsed.remediationSnapshot], allowed: alloweds[collapsed.allowed],
                allowedSnapshot: allowedSnapshots[collapsed.allowedSnapshot], restartPending: accountIDs[collapsed.restartPending],
                restartOwedByApp: accountIDs[collapsed.restartOwedByApp], restartAsked: accountIDs[collapsed.machineRestartAsked],
                accounts: accounts[collapsed.accounts], settingsOverrides: settingsOverrides[collapsed.settingsOverrides],
                identities: identities[collapsed.identities], volatile: volatiles[collapsed.volatile]))
        let world = World(
            caTargeted: names[collapsed.caTargeted], compliant: names[collapsed.compliant], policyAssigned: collapsed.policyAssigned,
            allowedAccounts: allowedAccounts[collapsed.allowedAccounts], policyVersion: collapsed.policyVersion, enrolled: enrolled[collapsed.enrolled],
            nextEnrollment: collapsed.nextEnrollment, wipeQueued: names[collapsed.wipeQueued], durableApp: records[collapsed.durableApp],
            durableAccounts: accountRecords[collapsed.durableAccounts], tokens: tokens[collapsed.tokens], vault: keys[collapsed.vault],
            plainFiles: keys[collapsed.plainFiles], now: collapsed.now, issued: collapsed.issued, facts: facts[collapsed.facts],
            pinRequired: collapsed.pinRequired)
        return ExploreState(
            machine: machine, world: world, pending: pending[collapsed.pending], openTickets: openTickets[collapsed.openTickets],
            nextTicket: collapsed.nextTicket, budget: budgets[collapsed.budget], failNextPersist: collapsed.failNextPersist, script: collapsed.script,
            scriptPosition: collapsed.scriptPosition, restartAsked: accountIDs[collapsed.restartAsked], drainLog: drainLogs[collapsed.drainLog],
            launching: collapsed.launching, launchResumed: collapsed.launchResumed)
    }

    /// Strings by their bytes (`==` is canonical equivalence): sets `==` takes for one.
    static func exactly(_ lhs: Set<String>, _ rhs: Set<String>) -> Bool {
        lhs.allSatisfy { name in rhs.firstIndex(of: name).map { rhs[$0].utf8.elementsEqual(name.utf8) } ?? false }
    }

    /// True when `dictionary` holds `key` spelt with the same bytes.
    static func sameKey<Member>(_ key: String, in dictionary: [String: Member]) -> Bool {
        dictionary.index(forKey: key).map { dictionary[$0].key.utf8.elementsEqual(key.utf8) } ?? false
    }

    static func exactly(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// JSON values by their strings' bytes (keys and values).
    static func exactly(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if identical(lhs, rhs) { return true }
        return switch (lhs, rhs) {
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        case (.array(let left), .array(let right)): left.count == right.count && zip(left, right).allSatisfy { exactly($0, $1) }
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && exactly($0.value, $1.value) }
        default: lhs == rhs
        }
    }
}

/// The values of one part met so far, each with its index (see ``FrontierTables``): a chain
/// per hash through the values, under a lock.
final class PartTable<Value: Hashable & Sendable>: Sendable {
    /// True when two values `==` takes for one are the same where `==` does not look.
    private let exact: @Sendable (Value, Value) -> Bool
    private let storage = Mutex<Storage>(Storage())

    private struct Storage: Sendable {
        var values: [Value] = []
        /// Per value, the next with the same hash (`none` ends the chain).
        var next: [UInt32] = []
        var first: [Int: UInt32] = [:]
    }

    private static var none: UInt32 { .max }

    init(exact: @escaping @Sendable (Value, Value) -> Bool = { _, _ in true }) {
        self.exact = exact
    }

    var count: Int { storage.withLock { $0.values.count } }

    subscript(index: UInt32) -> Value { storage.withLock { $0.values[Int(index)] } }

    /// The index of `value`: `oldIndex` (the index of `old`) when `value` is `old` byte for
    /// byte (the same storage) or equal to it in every field, else looked up (also when
    /// `oldIndex` is ``CollapsedState/unknownIndex``).
    func index(of value: Value, was old: Value, at oldIndex: UInt32) -> UInt32 {
        if oldIndex != CollapsedState.unknownIndex, identical(old, value) || (old == value && exact(old, value)) { return oldIndex }
        return index(of: value)
    }

    /// The index of `value`, added when no value held is it.
    func index(of value: Value) -> UInt32 {
        let hash = value.hashValue
        return storage.withLock { storage in
            var candidate = storage.first[hash] ?? Self.none
            var last = Self.none
            while candidate != Self.none {
                let held = storage.values[Int(candidate)]
                if identical(held, value) || (held == value && exact(held, value)) { return candidate }
                last = candidate
                candidate = storage.next[Int(candidate)]
            }
            let index = UInt32(storage.values.count)
            precondition(index < Self.none, "more than 4,294,967,294 values of one part")
            storage.values.append(value)
            storage.next.append(Self.none)
            if last == Self.none { storage.first[hash] = index } else { storage.next[Int(last)] = index }
            return index
        }
    }
}

/// True when the two values are the same bytes: the same inline fields and the same storage
/// (a table keeps what it holds alive, so storage it holds is never reused for another value).
@inline(__always)
func identical<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    withUnsafeBytes(of: lhs) { left in
        withUnsafeBytes(of: rhs) { right in
            left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
        }
    }
}

extension World {
    /// A world of these parts (``FrontierTables/expand(_:)``).
    init(
        caTargeted: Set<String>, compliant: Set<String>, policyAssigned: Bool, allowedAccounts: [String]?, policyVersion: Int, enrolled: [String: Int],
        nextEnrollment: Int, wipeQueued: Set<String>, durableApp: JSONValue?, durableAccounts: [String: JSONValue], tokens: [TokenKey: TokenRecord],
        vault: Set<[UInt8]>, plainFiles: Set<[UInt8]>, now: Instant, issued: Int, facts: ComplianceInvariants.Facts, pinRequired: Bool
    ) {
        self.caTargeted = caTargeted
        self.compliant = compliant
        self.policyAssigned = policyAssigned
        self.allowedAccounts = allowedAccounts
        self.policyVersion = policyVersion
        self.enrolled = enrolled
        self.nextEnrollment = nextEnrollment
        self.wipeQueued = wipeQueued
        self.durableApp = durableApp
        self.durableAccounts = durableAccounts
        self.tokens = tokens
        self.vault = vault
        self.plainFiles = plainFiles
        self.now = now
        self.issued = issued
        self.facts = facts
        self.pinRequired = pinRequired
    }
}

extension ExploreState {
    /// A state of these parts (``FrontierTables/expand(_:)``).
    init(
        machine: ComplianceMachine, world: World, pending: [ComplianceMachine.Action], openTickets: [ComplianceMachine.Ticket: Command],
        nextTicket: UInt64, budget: Universe.Budget, failNextPersist: Bool, script: Int?, scriptPosition: Int, restartAsked: AccountID?,
        drainLog: DrainLog, launching: Bool, launchResumed: Int
    ) {
        self.machine = machine
        self.world = world
        self.pending = pending
        self.openTickets = openTickets
        self.nextTicket = nextTicket
        self.budget = budget
        self.failNextPersist = failNextPersist
        self.script = script
        self.scriptPosition = scriptPosition
        self.restartAsked = restartAsked
        self.drainLog = drainLog
        self.launching = launching
        self.launchResumed = launchResumed
    }
}
