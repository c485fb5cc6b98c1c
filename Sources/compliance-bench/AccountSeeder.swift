import ComplianceCore
import Foundation
import JSON
import MockAuth
import Orchestrator

/// Many enrolled accounts for the scaling and footprint benchmarks: directory users at the
/// mock, their enrollments there, and on the engine's side accounts, enrollment machines,
/// MAM registrations, check-in timers and cached MAM tokens, written through the
/// Orchestrator store API.
enum AccountSeeder {
    /// One seeded account.
    struct Seed: Sendable {
        var upn: String
        var enrollmentID: String
        var mamToken: String
    }

    static func upn(_ index: Int) -> String { "user\(index)@contoso.com" }

    /// Adds `count` users like bob (MAM policy assigned, not CA-targeted) to the fixtures.
    static func addUsers(_ count: Int, to fixtures: inout Fixtures) {
        guard let template = fixtures.users.first(where: { $0.upn == "bob@contoso.com" }) else { return }
        fixtures.users += (0..<count).map { index in
            var user = template
            user.upn = upn(index)
            user.displayName = "User \(index)"
            user.objectId = String(format: "00000000-0000-4000-8000-%012d", index)
            return user
        }
    }

    /// Enrolls the first `count` seeded users at the mock and mints each a MAM token with the
    /// mock's key (on every core).
    static func enroll(_ count: Int, mock: BenchMock.Running, tenantID: String) async throws -> [Seed] {
        var ids: [String] = []
        for index in 0..<count {
            ids.append(mock.state.seedEnrollment(AccountApp(upn: upn(index), appId: BenchEngine.clientID)))
        }
        let issued = Int64(Date().timeIntervalSince1970)
        let tokens = try await BlockingQueue.run { [ids] in
            let slots = TokenSlots(count: count)
            DispatchQueue.concurrentPerform(iterations: ProcessInfo.processInfo.activeProcessorCount) { worker in
                for index in stride(from: worker, to: count, by: ProcessInfo.processInfo.activeProcessorCount) {
                    let claims: JSONValue = [
                        "aud": "https://msmamservice.api.application", "iss": .string("\(mock.url)/\(tenantID)/v2.0"),
                        "iat": .int(issued), "nbf": .int(issued), "exp": .int(issued + 30 * 86_400),
                        "azp": .string(BenchEngine.clientID), "upn": .string(upn(index)), "tid": .string(tenantID),
                        "ver": "2.0", "uti": .string(ids[index]),
                    ]
                    slots.set(index, try? JWT.sign(claims, with: mock.key))
                }
            }
            return try slots.all()
        }
        return (0..<count).map { Seed(upn: upn($0), enrollmentID: ids[$0], mamToken: tokens[$0]) }
    }

    /// Writes `seeds` into the store at `directory` in one transaction; every check-in is due
    /// at `now + 8 h` (the engine's virtual clock starts at the wall clock).
    static func seedStore(directory: String, seeds: ArraySlice<Seed>, policy: JSONValue) throws {
        let store = try OrchestratorStore(stateDirectory: directory, logger: BenchEngine.quiet)
        let now = Instant(millisecondsSinceEpoch: OrchestratorStore.wallClock())
        try store.writeSync { transaction in
            for seed in seeds {
                let account = try AccountID(seed.upn)
                var machine = EnrollmentStateMachine(account: account)
                guard case .persist(let snapshot) = machine.remediationEnrolled(now: now),
                      case .scheduleTimer(let timer, let dueAt) = machine.persisted(), timer == .policyCheckIn
                else { throw BenchError("the enrollment machine did not ask to persist, then to schedule a check-in") }
                try transaction.upsertAccount(account, signedIn: true, managed: true)
                _ = try transaction.saveEnrollment(for: account, state: snapshot.json, lastStatus: 100, nextDueAt: dueAt.millisecondsSinceEpoch)
                try transaction.saveRegistration(MAMRegistration(account: account, enrollmentID: seed.enrollmentID, policy: policy))
                _ = try transaction.schedule(.checkIn, account: account, at: dueAt.millisecondsSinceEpoch)
                try transaction.saveTokens(CachedTokens(
                    account: account, clientID: BenchEngine.clientID, scopes: ScopeSet([MAMClient.scope]),
                    accessToken: seed.mamToken, expiresAt: now.millisecondsSinceEpoch + 30 * 86_400_000))
            }
        }
    }
}

/// Results written by concurrent workers, one slot each.
private final class TokenSlots: @unchecked Sendable {  // each index is written by one worker, under the lock
    private var tokens: [String?]
    private let lock = NSLock()
    init(count: Int) { tokens = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ token: String?) { lock.withLock { tokens[index] = token } }
    func all() throws -> [String] {
        try lock.withLock { try tokens.map { guard let token = $0 else { throw BenchError("a MAM token could not be signed") }; return token } }
    }
}

extension AccountSeeder {
    /// Seeds for a store that no mock answers for (the footprint benchmark only loads them):
    /// same rows and sizes, placeholder enrollment ids and token-sized placeholder tokens.
    static func offline(_ count: Int) -> [Seed] {
        let token = String(repeating: "t", count: 900)
        return (0..<count).map { Seed(upn: upn($0), enrollmentID: UUID().uuidString.lowercased(), mamToken: token) }
    }
}
