import ComplianceCore
import Foundation
import JSON
import MockAuth
import Orchestrator

/// Many enrolled accounts for the scaling and footprint benchmarks: directory users at the
/// mock, their enrollments there, and on the engine's side each account's machine record and
/// cached MAM token, written through the store API.
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

    /// Writes `seeds` into the store at `directory` in one transaction, as the engine keeps
    /// them today: each account's composed-machine record (signed in, enrolled with
    /// `policy`, its check-in due at `now + 8 h`; the engine's virtual clock starts at the wall
    /// clock) and its cached MAM token. The records are read back through
    /// `ComplianceMachine(restoring:)` first, so a seed the machine cannot load fails here.
    static func seedStore(directory: String, seeds: ArraySlice<Seed>, policy: JSONValue) throws {
        let store = try OrchestratorStore(stateDirectory: directory, logger: BenchEngine.quiet)
        let now = Instant(millisecondsSinceEpoch: OrchestratorStore.wallClock())
        let records = try seeds.map { seed in try record(AccountID(seed.upn), enrollmentID: seed.enrollmentID, policy: policy, now: now) }
        let machine = try ComplianceMachine(restoring: .init(app: nil, accounts: records), configuration: .init())
        let restored = machine.stored.accounts
        guard restored.count == seeds.count else { throw BenchError("\(seeds.count) accounts seeded, \(restored.count) restored") }
        try store.writeSync { transaction in
            for record in restored {
                guard let account = ComplianceMachine.summary(ofRecord: record)?.account else { throw BenchError("a seeded record names no account") }
                try transaction.saveMachineRecord(account, record: record)
            }
            for seed in seeds {
                try transaction.saveTokens(CachedTokens(
                    account: try AccountID(seed.upn), clientID: BenchEngine.clientID, scopes: ScopeSet([MAMClient.scope]),
                    accessToken: seed.mamToken, expiresAt: now.millisecondsSinceEpoch + 30 * 86_400_000))
            }
        }
    }

    /// The account record of an account a remediation enrolled at `now` under `policy`.
    static func record(_ account: AccountID, enrollmentID: String, policy: JSONValue, now: Instant) -> JSONValue {
        var enrollment = EnrollmentStateMachine(account: account)
        _ = enrollment.remediationEnrolled(now: now)
        return [
            "machine": "account", "version": 1, "account": ["upn": .string(account.upn), "home": .null],
            "signedIn": true, "holdsTokens": true, "compliance": .null, "lastEnrollmentStatus": .int(Int64(EnrollmentStatus.newPoliciesReceived.rawValue)),
            "retryScopes": .null, "enrollmentId": .string(enrollmentID), "offeredPolicy": .null, "policy": policy,
            "enrollment": enrollment.snapshot.json, "wipe": SelectiveWipeStateMachine(account: account).snapshot.json,
        ]
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
