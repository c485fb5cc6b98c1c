import JSON
import PropertyBased
import Testing
@testable import ComplianceCore

/// Drives the enrollment lifecycle through random outcomes, timer firings, deregistration
/// and crashes, checking the 24 h retry and 8 h check-in spacing.
struct EnrollmentDriver {
    /// What the driver knows that the machine's stored state implies.
    struct Book: Equatable {
        /// When the last enrollment failed (retries may not start before +24 h).
        var failedAt: Instant?
        /// When the check-in schedule was last set (check-ins may not start before +8 h).
        var scheduledFrom: Instant?
    }

    var machine = EnrollmentStateMachine(account: alice)
    var stored: (JSONValue, Book)?
    var book = Book()
    var now = t0
    var outstanding: EnrollmentStateMachine.Action?
    var choices: Choices
    var violations = Violations(EnrollmentStateMachine.documentedTransitions)
    var enrollments = 0
    var checkIns = 0

    init(_ list: [Int]) { choices = Choices(list) }

    /// One event; when it changed the snapshot, the step's commit stores it (the process may
    /// die before or after the store) before the action runs.
    mutating func event(_ body: (inout EnrollmentStateMachine) -> EnrollmentStateMachine.Action) {
        let before = machine.stateName
        let snapshot = machine.snapshot
        let action = body(&machine)
        violations.transition(before, machine.stateName)
        if machine.snapshot != snapshot {
            switch choices.next(10) {
            case 1:
                crash()
                return
            case 2:
                stored = (machine.snapshot.json, book)
                crash()
                return
            default:
                stored = (machine.snapshot.json, book)
            }
        }
        handle(action)
    }

    mutating func handle(_ action: EnrollmentStateMachine.Action) {
        switch action {
        case .enroll:
            enrollments += 1
            if let failedAt = book.failedAt {
                violations.check(now >= failedAt.advanced(by: .hours(24)), "retry at \(now) less than 24 h after the failure at \(failedAt)")
            }
            outstanding = action
        case .checkIn:
            checkIns += 1
            if let from = book.scheduledFrom {
                violations.check(now >= from.advanced(by: .hours(8)), "check-in at \(now) less than 8 h after \(from)")
            } else {
                violations.check(false, "check-in without a schedule")
            }
            outstanding = action
        case .none:
            break
        default:
            outstanding = action
        }
    }

    mutating func crash() {
        outstanding = nil
        if let (json, storedBook) = stored {
            machine = EnrollmentStateMachine(restoring: try! .init(json: try! JSONValue.parse(json.encoded())))
            book = storedBook
        } else {
            machine = EnrollmentStateMachine(account: alice)
            book = Book()
        }
        let before = machine.stateName
        let action = machine.resumed()
        violations.transition(before, machine.stateName)
        handle(action)
    }

    mutating func answer(_ action: EnrollmentStateMachine.Action) {
        outstanding = nil
        switch action {
        case .enroll:
            if choices.next(3) == 1 {
                book.failedAt = now
                event { [now] in $0.enrollmentFailed(.enrollmentEndPointNetworkFailure, now: now) }
            } else {
                book.failedAt = nil
                book.scheduledFrom = now
                event { [now] in $0.enrollmentSucceeded(.newPoliciesReceived, now: now) }
            }
        case .checkIn:
            switch choices.next(6) {
            case 1: event { [now] in $0.checkInCompleted(.newPoliciesReceived(policy("v2")), now: now) }
            case 2:
                event { [now] in $0.checkInCompleted(.wipeReceived, now: now) }
            case 3:
                book.scheduledFrom = now
                event { [now] in $0.checkInFailed(.policyEndPointNetworkFailure, now: now) }
            default:
                book.scheduledFrom = now
                event { [now] in $0.checkInCompleted(.policiesHaveNotChanged, now: now) }
            }
        case .applyPolicy:
            book.scheduledFrom = now
            event { [now] in $0.policyApplied(now: now) }
        case .acquireMAMToken:
            if choices.next(4) == 1 { event { $0.mamTokenFailed() } } else { event { $0.mamTokenAcquired() } }
        case .unenroll:
            if choices.next(4) == 1 { event { $0.unenrollmentFailed(.enrollmentEndPointNetworkFailure) } } else { event { $0.unenrollmentSucceeded() } }
        case .startWipe:
            event { $0.wipeCompleted() }
        default:
            violations.check(false, "not an outstanding step: \(action)")
        }
    }

    mutating func run() {
        event { [now] in $0.register(now: now) }
        for _ in 0..<300 {
            switch choices.next(14) {
            case 1, 2:  // time passes and the due timer fires (sometimes early: it stays due)
                guard let (timer, at) = machine.dueTimer else { continue }
                let early = choices.next(4) == 1
                now = max(now, early ? at.advanced(by: .hours(-1)) : at)
                event { [now] in $0.timerFired(timer, now: now) }
            case 3:
                now = now.advanced(by: .hours(Int64(choices.next(30))))
            case 4:
                if choices.next(4) == 1 {
                    let wipe = choices.next(2) == 0
                    event { $0.deregister(wipe: wipe) }
                } else if machine.stateName == "removed" {
                    book = Book()
                    event { [now] in $0.register(now: now) }
                }
            case 5:
                crash()
            default:
                if let outstanding { answer(outstanding) }
            }
        }
    }
}

@Suite struct EnrollmentProperties {
    @Test func retriesAreSpaced24HoursAndCheckIns8Hours() async {
        var enrollments = 0, checkIns = 0
        await propertyCheck(count: 200, input: choiceLists) { list in
            var driver = EnrollmentDriver(list)
            driver.run()
            #expect(driver.violations.messages.isEmpty, "\(driver.violations.messages)")
            enrollments += driver.enrollments
            checkIns += driver.checkIns
        }
        #expect(enrollments > 200 && checkIns > 0, "enrollments \(enrollments), check-ins \(checkIns)")
    }
}
