import ComplianceCore

/// What the Engine keeps besides the machine: its callers, the real clock's wake-up, its test
/// hooks and where its start stands. Each is execution state (who waits, when to wake, what
/// to fail on purpose); what happens next is the machine's.
extension Engine {
    /// The callers: one ticket per command, the continuation its reply resumes, and who
    /// answers its sign-in pages (memory only, never stored).
    struct Callers {
        var waiting: [ComplianceMachine.Ticket: CheckedContinuation<ComplianceMachine.Reply, Never>] = [:]
        var users: [ComplianceMachine.Ticket: InteractiveUser] = [:]
        var nextTicket: UInt64 = 1

        /// A new ticket, with `user` answering its sign-in pages.
        mutating func newTicket(user: InteractiveUser?) -> ComplianceMachine.Ticket {
            let ticket = ComplianceMachine.Ticket(nextTicket)
            nextTicket += 1
            if let user { users[ticket] = user }
            return ticket
        }
    }

    /// What moves the clock: the real clock's next wake-up (its generation lets an earlier one
    /// replace it), and whether a virtual advance is under way (one at a time).
    struct WakeSchedule {
        var next: (at: EpochMillis, generation: Int)?
        var generation = 0
        var advancing = false
    }

    /// Test hooks: an armed crash point, commits per `machine:state` point, storage faults.
    struct TestHooks {
        var crashPoint: CrashPoint?
        var commitCounts: [String: Int] = [:]
        var storageFaults = StorageFaults()
    }

    /// Where ``start()`` stands.
    ///
    /// Transitions: `created` → `resuming` (``start()`` begins: the I/O of resumed work is
    /// kept for ``start()`` to run itself) → `serving` (resumed work done: I/O goes to
    /// ``run()``, the real clock's wake-ups are armed).
    enum Phase {
        case created
        case resuming([Job])
        case serving
    }
}
