/// Two questions asked after every step that a visit of every account answered, which made a
/// check-in sweep of 10,000 accounts quadratic: are all accounts settled (a fired timer's caller
/// waits for that), and which timer is due first (the engine's next wake-up). Both are kept
/// from the accounts a step touched or marked: only the sub-machines' calls change what they
/// read (an account's enrollment and wipe), and every such call marks its account touched.
struct AccountIndexes: Sendable, Equatable, Codable {
    /// Built by the first step's visit of all accounts; until then the machine visits.
    private(set) var isBuilt = false
    /// The accounts whose enrollment is under way or whose wipe runs.
    private(set) var unsettled: Set<AccountID> = []
    /// Each account's due timer (none while its wipe runs).
    private var dueAt: [AccountID: Instant] = [:]
    /// A min-heap of (due, account) entries; an entry whose due no longer matches `dueAt` is
    /// stale and dropped when it reaches the top, so the top is always current after a refresh.
    private var heap: [Entry] = []

    private struct Entry: Sendable, Comparable, Codable {
        var at: Instant
        var account: AccountID
        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.at, lhs.account) < (rhs.at, rhs.account) }
    }

    /// The account whose timer is due first.
    var earliestTimer: AccountID? { heap.first?.account }

    /// Brings both up to date for `changed` accounts (all of `accounts` the first time).
    mutating func refresh(_ changed: Set<AccountID>, in accounts: [AccountID: ComplianceMachine.AccountState]) {
        if !isBuilt {
            isBuilt = true
            for (account, state) in accounts { update(account, state) }
        } else {
            for account in changed { update(account, accounts[account]) }
        }
        while let top = heap.first, dueAt[top.account] != top.at { popTop() }
        if heap.count > 2 * dueAt.count + 64 {
            heap = dueAt.map { Entry(at: $0.value, account: $0.key) }.sorted()  // a sorted array is a heap
        }
    }

    private mutating func update(_ account: AccountID, _ state: ComplianceMachine.AccountState?) {
        if let state, !state.enrollment.isSettled || state.wipe.isRunning {
            unsettled.insert(account)
        } else {
            unsettled.remove(account)
        }
        let due = state.flatMap { $0.wipe.isRunning ? nil : $0.enrollment.dueTimer?.at }
        guard dueAt[account] != due else { return }
        dueAt[account] = due
        if let due { push(Entry(at: due, account: account)) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left] < heap[smallest] { smallest = left }
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension ComplianceMachine {
    /// Brings ``Volatile/indexes`` up to date with the accounts this step touched or marked;
    /// debug builds (the explorer among them) check both against a visit of all accounts.
    mutating func refreshIndexes() {
        volatile.indexes.refresh(volatile.touched.union(volatile.dirtyAccounts), in: accounts)
        assert(
            volatile.indexes.unsettled == Set(accounts.compactMap { !$0.value.enrollment.isSettled || $0.value.wipe.isRunning ? $0.key : nil }),
            "unsettled accounts out of date")
        assert(nextDueTimer().map { [$0.account.key, "\($0.at)"] } == nextDueTimerByVisit().map { [$0.account.key, "\($0.at)"] }, "timer queue out of date")
    }
}
