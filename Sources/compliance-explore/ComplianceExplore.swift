import ArgumentParser
import ComplianceCore
import Explorer
import Foundation

/// `compliance-explore`: breadth-first over the composed compliance machine in a small
/// universe, checking every invariant after every transition.
@main
struct ComplianceExplore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliance-explore",
        abstract: "Explore every reachable state of the composed compliance machine and check its invariants.",
        discussion: """
            The universe: alice (CA-targeted), josé under two canonically equivalent spellings, dave outside the \
            allowed list; scripts of sign-ins, tokens, deregistrations, data, admin wipes, allowed-list and policy \
            changes; every answer class of every I/O step, timers at 8 h and 24 h, a crash (restart from the \
            committed records) and a failed commit at every point. The last line is \
            `explored N states, T transitions to depth D: 0 violations`, or the violation and the shortest trace \
            to it (exit 1).
            """)

    @Option(help: "Explore transitions to this depth at most.")
    var depth: Int = 40

    @Option(name: .customLong("emit-flow"), help: ArgumentHelp("Write the shortest violating trace as a flow to this file.", valueName: "file"))
    var emitFlow: String?

    @Flag(help: "Print the number of states after each depth.")
    var verbose = false

    @Option(name: .customLong("run"), help: ArgumentHelp("Instead of exploring, run script N (1-based; --list shows them) with normal answers and print what happens.", valueName: "n"))
    var script: Int?

    @Flag(help: "List the universe's scripts.")
    var list = false

    @Flag(name: .customLong("no-mam-service"), help: "Explore the app without a MAM service (an OpenID Connect issuer without --mam-url).")
    var noMAMService = false

    @Flag(name: .customLong("policy-required"), help: "Explore an app whose profile sets MAMPolicyRequired (and AutoEnrollOnLaunch), with its own scripts.")
    var policyRequired = false

    @Flag(name: .customLong("multi-identity"), help: "Explore a MultiIdentity app that switches its UI identity and reads managed data, with its own scripts.")
    var multiIdentity = false

    @Flag(name: .customLong("restart-hook"), help: "Explore an app with a restart hook (restartApplication YES or NO, and the app's report of a restart it owes), with its own scripts.")
    var restartHook = false

    @Flag(name: .customLong("identity-hook"), help: "Explore a MultiIdentity app with an identity hook (identitySwitchRequired and addIdentity answered Success or Failed), with its own scripts.")
    var identityHook = false

    @Flag(name: .customLong("second-issuer"), help: "Explore an app that moves its authority to a second issuer (aadAuthorityUriOverride) and back, with its own scripts.")
    var secondIssuer = false

    func validate() throws {
        guard (1...1000).contains(depth) else { throw ValidationError("--depth must be 1 to 1000, got \(depth).") }
        if [noMAMService, policyRequired, multiIdentity, restartHook, identityHook, secondIssuer].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --no-mam-service, --policy-required, --multi-identity, --restart-hook, --identity-hook, --second-issuer.")
        }
    }

    func run() throws {
        let universe =
            noMAMService ? Universe.withoutMAMService
            : policyRequired ? Universe.withPolicyRequired
            : multiIdentity ? Universe.withMultiIdentity
            : restartHook ? Universe.withRestartHook
            : identityHook ? Universe.withIdentityHook
            : secondIssuer ? Universe.withSecondIssuer : Universe.standard
        if list {
            for (index, script) in universe.scripts.enumerated() {
                print("\(index + 1). \(script.name): \(script.steps.map(\.description).joined(separator: ", "))")
            }
            return
        }
        if let run = script {
            guard (1...universe.scripts.count).contains(run) else { throw ValidationError("--run takes 1 to \(universe.scripts.count).") }
            let log = ScriptRun(universe: universe).run(run - 1)
            for line in log.lines { print(line) }
            for violation in log.violations { print("VIOLATION \(violation)") }
            if !log.violations.isEmpty { throw ExitCode(1) }
            return
        }
        let explorer = Explorer(universe: universe, maxDepth: depth)
        let report = explorer.run { depth, states in
            if verbose { FileHandle.standardError.write(Data("depth \(depth): \(states) states\n".utf8)) }
        }
        if let violation = report.violation {
            print("VIOLATION after \(report.trace(violation.trace).count) events:")
            for item in violation.violations { print("  \(item)") }
            print("trace:")
            for (index, event) in violation.trace.enumerated() { print("  \(index + 1). \(event)") }
            if let emitFlow {
                let flow = FlowEmitter(universe: explorer.universe).flow(for: violation.trace, violations: violation.violations)
                try flow.write(toFile: emitFlow, atomically: true, encoding: .utf8)
                print("wrote the trace as a flow to \(emitFlow)")
            }
            print("explored \(report.states) states, \(report.transitions) transitions to depth \(report.depth): \(violation.violations.count) violations")
            throw ExitCode(1)
        }
        for (name, states) in report.statesPerScript.sorted(by: { $0.key < $1.key }) { print("  \(states) states: \(name)") }
        print("explored \(report.states) states, \(report.transitions) transitions to depth \(report.depth)\(report.exhausted ? " (exhausted)" : ""): 0 violations")
    }
}

extension Explorer.Report {
    func trace(_ events: [ExploreEvent]) -> [ExploreEvent] { events }
}
