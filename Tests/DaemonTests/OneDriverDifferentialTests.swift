@testable import ComplianceCore
import Explorer
import JSON
import Testing
@testable import Orchestrator

/// The Engine and the explorer run the one driver (``ComplianceHost/drain()``); this test
/// holds them to the same behaviour: scripts of the explorer's standard and MultiIdentity universes run through
/// the explorer's world (every answer normal) and through the Engine (in-process mockauth,
/// real store, vault and wipe hook), command by command, and each command must commit the
/// same events (kind and account) and leave the same machine (managed account, each
/// account's enrollment, sign-in and wipe state, the allowed accounts, the identities).
/// The mock knows alice and dave, not josé: the scripts with josé stay the explorer's.
@Suite struct OneDriverDifferentialTests {
    /// The universes whose scripts the Engine can play against the mock (which knows alice
    /// and dave, and runs a MultiIdentity app).
    static let universes: [String: Universe] = ["standard": .standard, "multi-identity": .withMultiIdentity]

    /// What one command left: the events it committed and the machine's observable state.
    struct Step: Equatable, CustomStringConvertible {
        var command: String
        var events: [String]
        var state: String
        var description: String { "\(command)\n    events: \(events.joined(separator: ", "))\n    state: \(state)" }
    }

    /// The machine's state as both sides can tell it.
    static func summary(_ machine: ComplianceMachine) -> String {
        let accounts = machine.knownAccounts.map { account in
            let summary = ComplianceMachine.summary(ofRecord: machine.stored.accounts.first { ComplianceMachine.summary(ofRecord: $0)?.account == account } ?? .null)
            return "\(account.key)[\(summary.map { "\($0)" } ?? "?")]"
        }
        return "managed \(machine.managedAccount?.key ?? "-"); allowed \(machine.allowedAccounts); identities \(machine.identities); \(accounts.joined(separator: " "))"
    }

    /// An event as both sides spell it: kind, account, and a token's scopes.
    static func line(_ kind: String, _ account: AccountID?, _ payload: JSONValue) -> String {
        let scopes = payload["scopes"]?.arrayValue.map { " " + $0.compactMap(\.stringValue).joined(separator: "+") } ?? ""
        return "\(kind) \(account?.key ?? "-")\(scopes)"
    }

    static func kinds(_ events: [ComplianceEvent]) -> [String] {
        events.map { event in
            let entry = EngineJSON.event(event)
            return line(entry.kind, entry.account, entry.payload)
        }
    }

    /// The explorer's run of script `index`, every I/O answered normally (the wipe hook: YES).
    static func explored(_ universe: Universe, _ index: Int) -> [Step] {
        var state = ExploreState(universe: universe)
        // The daemon's sign-in scopes (a remediation's retry without a request asks for them).
        state.machine.configuration.signInScopes = ["openid", "profile", "offline_access"]
        let script = universe.scripts[index]
        _ = state.apply(.choose(index, script.name), in: universe)
        var steps: [Step] = []
        for step in script.steps {
            guard case .command(let command) = step else { continue }
            var events: [ComplianceEvent] = []
            func take(_ event: ExploreEvent) {
                let (transition, _) = state.apply(event, in: universe)
                for case .persist(let changes) in transition.actions { events += changes.events }
            }
            take(.command(command))
            while let action = state.pending.first, let id = ExploreState.step(of: action) {
                if case .runAppHook = action { take(.complete(id, .hook(removedData: true))) } else { take(.complete(id, .normal)) }
            }
            steps.append(Step(command: command.description, events: kinds(events), state: summary(state.machine)))
        }
        return steps
    }

    /// The Engine's run of script `index` against mockauth.
    static func engineRun(_ universe: Universe, _ index: Int) async throws -> [Step] {
        let hook = WipeHook(command: "exit 0", timeout: .seconds(60))
        return try await DaemonHarness.run(wipeHook: hook) { harness in
            let engine = harness.engine
            // The world's allowed list (the mock's fixture lists other people).
            try await harness.admin(.put, "policy/allowed-accounts", ["allowedAccounts": .array(universe.allowedAccounts.map { .string($0) })])
            // The start and the clock's moves are the daemon's, which the explorer's scripts do not play.
            let own: Set<String> = [ComplianceEvent.Kind.daemonStarted.rawValue, ComplianceEvent.Kind.clockAdvanced.rawValue]
            var seen = try await engine.events(since: 0, limit: 1000, wait: .zero).lastSeq
            var steps: [Step] = []
            for step in universe.scripts[index].steps {
                guard case .command(let command) = step else { continue }
                let upn = universe.spelling(named: command.spelling)?.upn ?? ""
                switch command {
                case .signIn:
                    _ = try? await engine.signIn(upn, scopes: nil, silent: false, user: DaemonHarness.password)  // as the explorer: the app's sign-in scopes
                case .token:
                    _ = try? await engine.acquireToken(upn, scopes: [universe.apiScope], silent: true, remediate: true, user: nil)
                case .remediate:
                    _ = try? await engine.remediate(upn, silent: false, user: DaemonHarness.password)
                case .deregister(_, let wipe):
                    _ = try? await engine.deregister(upn, wipe: wipe)
                case .putData:
                    _ = try? await engine.putData(upn, name: "notes.txt", bytes: Array("notes".utf8))
                case .readData:
                    _ = try? await engine.getData(upn, name: "notes.txt")
                case .switchUI(let name):
                    _ = try? await engine.setUIPolicyIdentity(name.flatMap { universe.spelling(named: $0)?.upn } ?? "", userCancels: false)
                case .switchProcess(let name):
                    try? await engine.setProcessIdentity(name.flatMap { universe.spelling(named: $0)?.upn } ?? "")
                case .overrideAuthority:
                    Issue.record("the differential test does not play \(command)")
                }
                let (stored, last) = try await engine.events(since: seen, limit: 1000, wait: .zero)
                seen = last
                let events = stored.filter { !own.contains($0.kind) }.map { line($0.kind, $0.account, $0.payload) }
                steps.append(Step(command: command.description, events: events, state: summary(await engine.machine)))
            }
            return steps
        }
    }

    @Test(arguments: [
        ("standard", "alice remediates, then deregisters with wipe"),
        ("standard", "dave is excluded by the policy his own sign-in brings; alice then enrolls"),
        ("standard", "deregister, then deregister with wipe"),
        ("standard", "deregister, then remediate again"),
        ("multi-identity", "the UI shows alice, the process runs as no user, and reads alice's data; then the other way round"),
        ("multi-identity", "the process runs as alice, she deregisters with wipe, then signs in again"),
    ])
    func theEngineAndTheExplorerTakeTheSameSteps(_ universeName: String, _ name: String) async throws {
        let universe = try #require(Self.universes[universeName])
        let index = try #require(universe.scripts.firstIndex { $0.name == name })
        let explored = Self.explored(universe, index)
        let engine = try await Self.engineRun(universe, index)
        #expect(explored.count == engine.count)
        for (model, real) in zip(explored, engine) {
            #expect(model == real, "the explorer:\n\(model)\nthe Engine:\n\(real)")
        }
    }
}
