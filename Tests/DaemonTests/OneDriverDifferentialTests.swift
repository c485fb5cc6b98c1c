@testable import ComplianceCore
import Explorer
import JSON
import Testing
@testable import Orchestrator

/// The Engine and the explorer run the one driver (``ComplianceHost/drain()``); this test
/// holds them to the same behaviour on the explorer's universes (all but the second issuer's,
/// which needs a second mock issuer): scripts run through
/// the explorer's world (every answer normal) and through the Engine (in-process mockauth,
/// real store, vault and hooks, the app's profile set to the universe's launch settings,
/// MultiIdentity, restart hook and MAM service), step by step, and each step must commit the
/// same events (kind and account) and leave the same machine (managed account, each
/// account's enrollment, sign-in and wipe state, the allowed accounts, the identities, the
/// policy in force, the restart the app owes).
/// The mock knows alice and dave, not josé: the scripts with josé stay the explorer's.
@Suite struct OneDriverDifferentialTests {
    /// The explorer's universes (`compliance-explore --help`), but the second issuer's (the
    /// mock is one issuer).
    static let universes: [String: Universe] = [
        "standard": .standard, "multi-identity": .withMultiIdentity, "restart-hook": .withRestartHook,
        "policy-required": .withPolicyRequired, "no-mam-service": .withoutMAMService,
    ]

    /// One step both sides take.
    enum Play: Sendable, CustomStringConvertible {
        case command(Command)
        /// The app reports the restart it owes (its restart hook answered YES).
        case appReportsRestart
        /// The daemon stops and starts again on its state directory (the explorer: a crash
        /// between commands, nothing in flight).
        case daemonRestarts

        var description: String {
            switch self {
            case .command(let command): command.description
            case .appReportsRestart: "the app reports its restart"
            case .daemonRestarts: "the daemon restarts"
            }
        }
    }

    /// What both sides play: a universe's script (its commands), or steps of this test's own.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var universe: String
        var name: String
        var plays: [Play]
        /// What the restart hook answers, in a universe with one: YES (exit 0) or NO (exit 1).
        var restartHookSaysYes = false
        /// The restart hook runs beside other I/O of its step (an exclusion's unenroll and
        /// wipe): where its answer falls among their events is the race's (the explorer
        /// explores both orders), so its event is compared at the end of the step.
        var hookRacesOtherIO = false

        var testDescription: String { "\(universe)\(restartHookSaysYes ? " (hook YES)" : ""): \(name)" }

        /// The commands of the universe's script `name`.
        static func script(_ universe: String, _ name: String) -> Scenario {
            let steps = OneDriverDifferentialTests.universes[universe]?.scripts.first { $0.name == name }?.steps ?? []
            let plays = steps.compactMap { step -> Play? in
                if case .command(let command) = step { return .command(command) }
                return nil
            }
            return Scenario(universe: universe, name: name, plays: plays)
        }

        init(universe: String, name: String, plays: [Play], restartHookSaysYes: Bool = false, hookRacesOtherIO: Bool = false) {
            self.universe = universe
            self.name = name
            self.plays = plays
            self.restartHookSaysYes = restartHookSaysYes
            self.hookRacesOtherIO = hookRacesOtherIO
        }

        /// A step as compared: with ``hookRacesOtherIO``, the hook's answer last.
        func compared(_ step: Step) -> Step {
            guard hookRacesOtherIO else { return step }
            var step = step
            let hook = step.events.filter { $0.hasPrefix("restartApplication ") }
            step.events = step.events.filter { !$0.hasPrefix("restartApplication ") } + hook
            return step
        }

        func hookSaysYes(_ yes: Bool) -> Scenario {
            var copy = self
            copy.restartHookSaysYes = yes
            return copy
        }
    }

    /// What one step left: the events it committed and the machine's observable state.
    struct Step: Equatable, CustomStringConvertible {
        var play: String
        var events: [String]
        var state: String
        var description: String { "\(play)\n    events: \(events.joined(separator: ", "))\n    state: \(state)" }
    }

    /// The machine's state as both sides can tell it.
    static func summary(_ machine: ComplianceMachine) -> String {
        let accounts = machine.knownAccounts.map { account in
            let summary = ComplianceMachine.summary(ofRecord: machine.stored.accounts.first { ComplianceMachine.summary(ofRecord: $0)?.account == account } ?? .null)
            return "\(account.key)[\(summary.map { "\($0)" } ?? "?")]"
        }
        return "managed \(machine.managedAccount?.key ?? "-"); allowed \(machine.allowedAccounts); identities \(machine.identities); "
            + "policy \(machine.appPolicy == nil ? "none" : "in force"); restart owed \(machine.restartOwed?.key ?? "-"); \(accounts.joined(separator: " "))"
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

    /// The machine's configuration in `universe` as the explorer runs it, with the daemon's
    /// sign-in scopes (a remediation's retry without a request asks for them).
    static func configuration(_ universe: Universe) -> ComplianceMachine.Configuration {
        var configuration = universe.configuration
        configuration.signInScopes = ["openid", "profile", "offline_access"]
        return configuration
    }

    /// The explorer's run of `scenario`: every I/O answered normally, the wipe hook YES, the
    /// restart hook as the scenario says.
    static func explored(_ scenario: Scenario) throws -> [Step] {
        let universe = try #require(universes[scenario.universe])
        var state = ExploreState(universe: universe)
        state.machine.configuration = configuration(universe)
        var steps: [Step] = []
        for play in scenario.plays {
            var events: [ComplianceEvent] = []
            func take(_ event: ExploreEvent) {
                let (transition, _) = state.apply(event, in: universe)
                for case .persist(let changes) in transition.actions { events += changes.events }
            }
            switch play {
            case .command(let command): take(.command(command))
            case .appReportsRestart: take(.appReportsRestart)
            case .daemonRestarts: take(.crash)
            }
            while true {
                if let action = state.pending.first, let id = ExploreState.step(of: action) {
                    if case .runAppHook = action { take(.complete(id, .hook(removedData: true))) } else { take(.complete(id, .normal)) }
                } else if state.restartAsked != nil {
                    take(.restartAnswered(appHandlesRestart: scenario.restartHookSaysYes))
                } else {
                    break
                }
            }
            steps.append(Step(play: play.description, events: kinds(events), state: summary(state.machine)))
        }
        return steps
    }

    /// The Engine's run of `scenario` against mockauth, with the universe's settings.
    static func engineRun(_ scenario: Scenario) async throws -> [Step] {
        let universe = try #require(universes[scenario.universe])
        let wipeHook = universe.hasWipeHook ? WipeHook(command: "exit 0", timeout: .seconds(60)) : nil
        let restartHook = universe.restartHook ? RestartHook(command: scenario.restartHookSaysYes ? "exit 0" : "exit 1", timeout: .seconds(60)) : nil
        return try await DaemonHarness.run(
            wipeHook: wipeHook, restartHook: restartHook, mamService: universe.mamService,
            settings: { profile in
                profile.launch = universe.launch
                profile.multiIdentity = universe.multiIdentity
            }
        ) { first in
            var harness = first
            #expect(await harness.engine.machine.configuration == configuration(universe), "the Engine runs the universe's app")
            if universe.mamService {
                // The world's allowed list (the mock's fixture lists other people).
                try await harness.admin(.put, "policy/allowed-accounts", ["allowedAccounts": .array(universe.allowedAccounts.map { .string($0) })])
            }
            // The clock's moves are the flow's, which the explorer's scripts do not play (its
            // timers fire at their due time).
            let own: Set<String> = [ComplianceEvent.Kind.clockAdvanced.rawValue]
            var seen = try await harness.engine.events(since: 0, limit: 1000, wait: .zero).lastSeq
            var steps: [Step] = []
            for play in scenario.plays {
                let engine = harness.engine
                switch play {
                case .command(let command):
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
                    case .switchUICancelled(let name):
                        _ = try? await engine.setUIPolicyIdentity(universe.spelling(named: name)?.upn ?? "", userCancels: true)
                    case .sdkEnrolls:
                        _ = try? await engine.sdkEnrolled(upn)
                    case .overrideAuthority:
                        Issue.record("the differential test does not play \(command)")
                    }
                case .appReportsRestart:
                    _ = try? await engine.appReportedRestart()
                case .daemonRestarts:
                    harness = try await harness.restarted()
                }
                let (stored, last) = try await harness.engine.events(since: seen, limit: 1000, wait: .zero)
                seen = last
                let events = stored.filter { !own.contains($0.kind) }.map { line($0.kind, $0.account, $0.payload) }
                steps.append(Step(play: play.description, events: events, state: summary(await harness.engine.machine)))
            }
            await harness.running.stop()
            return steps
        }
    }

    static let scenarios: [Scenario] = [
        .script("standard", "alice remediates, then deregisters with wipe"),
        .script("standard", "dave is excluded by the policy his own sign-in brings; alice then enrolls"),
        .script("standard", "deregister, then deregister with wipe"),
        .script("standard", "deregister, then remediate again"),
        .script("multi-identity", "the UI shows alice, the process runs as no user, and reads alice's data; then the other way round"),
        .script("multi-identity", "the process runs as alice, she deregisters with wipe, then signs in again"),
        // The restart hook: YES holds the app until it reports its restart (across a daemon
        // restart); NO lets the daemon restart the session after the notice.
        .script("restart-hook", "restart hook: alice remediates at sign-in, asks a token, leaves with wipe").hookSaysYes(false),
        .script("restart-hook", "restart hook: alice remediates at sign-in, asks a token, leaves with wipe").hookSaysYes(true),
        Scenario(
            universe: "restart-hook", name: "alice's first policy: the hook says YES, the daemon restarts, the app reports its restart, she asks a token",
            plays: [
                .command(.signIn("alice")), .command(.token("alice")), .daemonRestarts, .command(.token("alice")), .appReportsRestart,
                .command(.token("alice")), .appReportsRestart,
            ], restartHookSaysYes: true),
        Scenario(
            universe: "restart-hook", name: "dave's first policy excludes him: the hook is asked or not; alice signs in",
            plays: [.command(.signIn("dave")), .appReportsRestart, .command(.signIn("alice")), .appReportsRestart, .command(.token("dave"))],
            restartHookSaysYes: true, hookRacesOtherIO: true),
        // MAMPolicyRequired (and AutoEnrollOnLaunch): tokens and managed data wait for a policy.
        .script("policy-required", "MAMPolicyRequired: alice remediates through a token request, then leaves with wipe"),
        Scenario(
            universe: "policy-required", name: "dave asks before any policy, signs in (his policy excludes him); alice brings one; dave asks again",
            plays: [
                .command(.token("dave")), .command(.putData("dave")), .command(.signIn("dave")), .command(.token("dave")),
                .command(.signIn("alice")), .command(.token("dave")), .command(.putData("alice")), .command(.readData("alice")),
            ]),
        Scenario(
            universe: "policy-required", name: "alice's policy, her data, a daemon restart; she leaves and her data and tokens are refused",
            plays: [
                .command(.signIn("alice")), .command(.putData("alice")), .daemonRestarts, .command(.readData("alice")),
                .command(.deregister("alice", wipe: false)), .command(.readData("alice")), .command(.token("alice")), .daemonRestarts,
                .command(.token("alice")),
            ]),
        Scenario(
            universe: "policy-required", name: "no policy in force: dave is excluded by his own, the daemon restarts, dave asks a token",
            plays: [.command(.signIn("dave")), .daemonRestarts, .command(.token("dave")), .command(.signIn("alice")), .daemonRestarts]),
        // No MAM service (an OpenID Connect issuer alone): nothing registers, 53005 is not remediated.
        .script("no-mam-service", "alice remediates, then deregisters with wipe"),
        .script("no-mam-service", "dave is excluded by the policy his own sign-in brings; alice then enrolls"),
        .script("no-mam-service", "deregister, then remediate again"),
        Scenario(
            universe: "no-mam-service", name: "dave signs in, stores data, asks a token, remediates, restarts, leaves with wipe",
            plays: [
                .command(.signIn("dave")), .command(.putData("dave")), .command(.token("dave")), .command(.remediate("dave")),
                .daemonRestarts, .command(.token("alice")), .command(.deregister("dave", wipe: true)), .command(.readData("dave")),
            ]),
    ]

    @Test(arguments: scenarios)
    func theEngineAndTheExplorerTakeTheSameSteps(_ scenario: Scenario) async throws {
        #expect(!scenario.plays.isEmpty, "no script \(scenario.name) in \(scenario.universe)")
        let explored = try Self.explored(scenario)
        let engine = try await Self.engineRun(scenario)
        #expect(explored.count == engine.count)
        for (model, real) in zip(explored.map(scenario.compared), engine.map(scenario.compared)) {
            #expect(model == real, "the explorer:\n\(model)\nthe Engine:\n\(real)")
        }
    }

    /// Every universe the explorer has, but the second issuer's, is played here.
    @Test func everyUniverseIsPlayed() {
        #expect(Set(Self.scenarios.map(\.universe)) == Set(Self.universes.keys))
        #expect(Self.universes.count == 5)
    }
}
