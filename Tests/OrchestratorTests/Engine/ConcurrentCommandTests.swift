import ComplianceCore
import Foundation
import Orchestrator
import Testing

/// Conflicting commands for one account at once, many times: deregister with wipe, sign-in,
/// vault writes and token requests for alice. Every call ends with a result or a client error
/// (never `internal`), bob's data and state stay exactly as they were, the store stays sound,
/// and afterwards alice works normally again.
@Suite struct ConcurrentCommandTests {
    static let rounds = 12

    @Test func conflictingCommandsForOneAccountLeaveTheOthersIntactAndTheStoreConsistent() async throws {
        try await EngineHarness.run { harness in
            let engine = harness.engine
            #expect(try await harness.signIn("alice@contoso.com").token.status == .compliant)
            #expect(try await harness.signIn("bob@contoso.com").signedIn)
            let bobFiles = ["a.txt": Array("bob's a".utf8), "b.bin": [UInt8](repeating: 7, count: 4096)]
            for (name, bytes) in bobFiles { _ = try await engine.putData("bob@contoso.com", name: name, bytes: bytes) }
            let bobBefore = try await engine.account("bob@contoso.com")

            var outcomes: [String] = []
            for round in 0..<Self.rounds {
                // Each round starts with alice signed in (the last one may have wiped her).
                _ = try? await harness.signIn("alice@contoso.com")
                outcomes += await Self.storm(engine, round: round)
                try await Self.expectConsistent(harness, "alice@contoso.com")
            }
            let tally = Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key }
            print("concurrent commands for alice, \(Self.rounds) rounds: " + tally.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            #expect(!outcomes.contains { $0.hasSuffix("internal") }, "calls that failed with an internal error: \(tally)")
            #expect(outcomes.contains("deregister ok") && outcomes.contains("sign-in ok") && outcomes.contains("put ok"), "the commands really raced: \(tally)")

            // bob: untouched.
            // Registered while alice was managed (227): its retries pause while she holds the
            // slot and begin again whenever she leaves, so only that may change.
            let bobAfter = try await engine.account("bob@contoso.com")
            #expect(bobAfter.signedIn == bobBefore.signedIn)
            #expect([.waitingForSlot, .awaitingRetry].contains(bobAfter.enrollmentState), "bob's registration: \(bobAfter.enrollmentState)")
            #expect(bobAfter.compliance == bobBefore.compliance && bobAfter.wipe == bobBefore.wipe)
            #expect(Set(try await engine.listData("bob@contoso.com").map(\.name)) == Set(bobFiles.keys))
            for (name, bytes) in bobFiles { #expect(try await engine.getData("bob@contoso.com", name: name) == bytes) }

            // alice and the store: consistent.
            try await Self.expectConsistent(harness, "alice@contoso.com")
            #expect(try harness.parts.store.integrityProblems().isEmpty)

            // And alice works again from whatever state the storm left.
            let again = try await harness.signIn("alice@contoso.com")
            #expect(again.signedIn && again.token.status == .compliant, "\(again.token.status) \(String(describing: again.token.report))")
            _ = try await engine.putData("alice@contoso.com", name: "after.txt", bytes: [1, 2, 3])
            let deregistered = try await engine.deregister("alice@contoso.com", wipe: true)
            #expect(deregistered.wiped && deregistered.enrollmentStatus == .unenrollmentSuccess)
            #expect(try await engine.listData("alice@contoso.com").isEmpty)
            try await Self.expectConsistent(harness, "alice@contoso.com")
            #expect(Set(try await engine.listData("bob@contoso.com").map(\.name)) == Set(bobFiles.keys))
        }
    }

    /// One round: the four commands for alice at once, twice over; returns each call's outcome
    /// (`put ok`, `put conflict`, `token internal`, …).
    /// The commands start in another order each round (the engine takes them in the order
    /// they reach it), so each kind also runs first.
    static func storm(_ engine: Engine, round: Int) async -> [String] {
        await withTaskGroup(of: String.self) { group in
            for copy in 0..<2 {
                let commands: [@Sendable () async -> String] = [
                    { await failure("deregister") { _ = try await engine.deregister("alice@contoso.com", wipe: true) } },
                    {
                        await failure("sign-in") {
                            _ = try await engine.signIn("alice@contoso.com", scopes: EngineHarness.chatRead, silent: false, user: EngineHarness.password)
                        }
                    },
                    { await failure("put") { _ = try await engine.putData("alice@contoso.com", name: "r\(round)-\(copy).txt", bytes: Array("x".utf8)) } },
                    {
                        await failure("token") {
                            _ = try await engine.acquireToken("alice@contoso.com", scopes: EngineHarness.chatRead, silent: true, remediate: true, user: nil)
                        }
                    },
                ]
                for index in commands.indices {
                    let command = commands[(index + round + copy) % commands.count]
                    group.addTask { await command() }
                }
            }
            var outcomes: [String] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// `NAME ok`, or `NAME CODE` for an engine error (`NAME internal` for anything else).
    static func failure(_ name: String, _ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "\(name) ok"
        } catch let error as EngineError {
            return "\(name) \(error.code)"
        } catch {
            return "\(name) internal"
        }
    }

    /// No wipe or remediation left half-way; signed out means no files and
    /// no tokens; files only while signed in.
    static func expectConsistent(_ harness: EngineHarness, _ upn: String) async throws {
        let summary = try await harness.engine.account(upn)
        #expect(summary.wipe == "idle" || summary.wipe == "done", "wipe left at \(summary.wipe)")
        #expect(summary.remediation == "idle", "remediation left at \(summary.remediation)")
        let files = try await harness.engine.listData(upn)
        if !summary.signedIn {
            #expect(files.isEmpty, "\(upn) is signed out but holds \(files.map(\.name))")
            let silent = try await harness.engine.acquireToken(upn, scopes: EngineHarness.chatRead, silent: true, remediate: false, user: nil)
            #expect(silent.tokens == nil, "\(upn) is signed out but a silent token came back")
        }
    }
}
