import ArgumentParser
import ComplianceCore
import Explorer
import FileOutput
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
            to it (exit 1). Before it: the memory the visited states took (a 64-bit fingerprint each, or \
            every full state with --exact), the probability of a fingerprint collision as TLC calculates it \
            (n·(m−n)/2^64 for n distinct states among m generated), the peak memory, the time and the rate. \
            `--universe wide` explores the edges together: three people, both hooks answering YES, NO, timing \
            out and crashing, a second issuer, wrong passwords, a crash and a failed commit at any point.
            """)

    @Option(help: "Explore transitions to this depth at most.")
    var depth: Int = 40

    @Option(name: .customLong("emit-flow"), help: ArgumentHelp("Write the shortest violating trace as a flow to this file.", valueName: "file"))
    var emitFlow: String?

    @Option(help: ArgumentHelp("The universe to explore: standard or wide (the other universes have their flags).", valueName: "name"))
    var universe: String = "standard"

    @Flag(help: "Remember every full visited state instead of its 64-bit fingerprint (exact, and far more memory).")
    var exact = false

    @Option(name: .customLong("frontier-full-states"), help: ArgumentHelp(
        "States the frontier holds as they are (some 13 KB each) before it collapses the next ones (the indexes of their parts in tables of the values met so far, 192 bytes each, at no more CPU than whole ones), checked per batch of 1024 states per thread, so the frontier may exceed it by a batch's successors. Default: 0 (every state collapsed).",
        valueName: "n"))
    var frontierFullStates: Int?

    @Option(help: ArgumentHelp("Worker threads expanding each depth (default: the machine's cores; the result is the same).", valueName: "n"))
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

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

    @Flag(name: .customLong("continuous-access"), help: "Explore an app declaring cp1 whose MAM calls the service may refuse with a claims challenge (continuous access evaluation), with its own scripts.")
    var continuousAccess = false

    func validate() throws {
        guard (1...1000).contains(depth) else { throw ValidationError("--depth must be 1 to 1000, got \(depth).") }
        if let frontierFullStates, frontierFullStates < 0 { throw ValidationError("--frontier-full-states must be 0 or more, got \(frontierFullStates).") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be 1 to 256, got \(threads).") }
        guard ["standard", "wide"].contains(universe) else { throw ValidationError("--universe must be standard or wide, got \"\(universe)\".") }
        if let emitFlow, let reason = FileOutput.cannotWrite(emitFlow) {
            // Checked now, not after a long run that found a violation.
            throw ValidationError("--emit-flow \(emitFlow): \(reason).")
        }
        if [noMAMService, policyRequired, multiIdentity, restartHook, identityHook, secondIssuer, continuousAccess, universe != "standard"].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --universe wide, --no-mam-service, --policy-required, --multi-identity, --restart-hook, --identity-hook, --second-issuer, --continuous-access.")
        }
    }

    func run() throws {
        let universe =
            noMAMService ? Universe.withoutMAMService
            : policyRequired ? Universe.withPolicyRequired
            : multiIdentity ? Universe.withMultiIdentity
            : restartHook ? Universe.withRestartHook
            : identityHook ? Universe.withIdentityHook
            : secondIssuer ? Universe.withSecondIssuer
            : continuousAccess ? Universe.withContinuousAccess
            : self.universe == "wide" ? Universe.wide : Universe.standard
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
        let explorer = Explorer(
            universe: universe, maxDepth: depth, visited: exact ? .exact : .fingerprints, threads: threads, fullStatesHeld: frontierFullStates ?? 0)
        let started = ContinuousClock.now
        let report = explorer.run { depth, states in
            if verbose { FileHandle.standardError.write(Data("depth \(depth): \(states) states\n".utf8)) }
        }
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let states = max(report.states, 1)
        print(exact
            ? "visited set: \(report.visitedBytes) bytes of full states, \(report.visitedBytes / states) bytes per state inline (their heap storage on top)"
            : "visited set: \(report.visitedBytes) bytes, \(report.visitedBytes / states) bytes per state (64-bit fingerprints and the way back)")
        if let probability = report.collisionProbability {
            print("fingerprint collision probability: \(String(format: "%.2g", probability)) (as TLC calculates it: n*(m-n)/2^64, n = \(report.states) distinct, m = \(report.transitions + 1) generated)")
        }
        let alike = universe.interchangeablePeople
        print(alike.isEmpty
            ? "symmetry: no two of the \(universe.people.count) people are treated alike (the scripts give each a part of their own): canonicalising would merge no state"
            : "symmetry: treated alike and not canonicalised: \(alike.map { "\($0.0) and \($0.1)" }.joined(separator: ", "))")
        let peak = Self.peakMemoryKB()
        print("peak frontier \(report.peakFrontier) states, \(report.peakFrontierBytes) bytes collapsed (\(report.peakFrontierBytes / max(1, report.peakFrontier)) a state; \(report.interned) distinct parts in the tables); peak memory \(peak.map { "\($0) kB, \($0 * 1024 / states) bytes per state" } ?? "unknown"); \(threads) threads")
        print("\(String(format: "%.1f", seconds)) s, \(Int(Double(report.states) / max(seconds, 0.001))) states/s")
        if let violation = report.violation {
            print("VIOLATION after \(report.trace(violation.trace).count) events:")
            for item in violation.violations { print("  \(item)") }
            print("trace:")
            for (index, event) in violation.trace.enumerated() { print("  \(index + 1). \(event)") }
            if let emitFlow {
                let flow = FlowEmitter(universe: explorer.universe).flow(for: violation.trace, violations: violation.violations)
                if let reason = FileOutput.write(Array(flow.utf8), to: emitFlow) {
                    FileHandle.standardError.write(Data("compliance-explore: cannot write \(emitFlow): \(reason)\n".utf8))
                    throw ExitCode(74)
                }
                print("wrote the trace as a flow to \(emitFlow)")
            }
            print("explored \(report.states) states, \(report.transitions) transitions to depth \(report.depth): \(violation.violations.count) violations")
            throw ExitCode(1)
        }
        for (name, states) in report.statesPerScript.sorted(by: { $0.key < $1.key }) { print("  \(states) states: \(name)") }
        print("explored \(report.states) states, \(report.transitions) transitions to depth \(report.depth)\(report.exhausted ? " (exhausted)" : ""): 0 violations")
    }
}

extension ComplianceExplore {
    /// The process's peak resident memory (VmHWM), in kB.
    static func peakMemoryKB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}

extension Explorer.Report {
    func trace(_ events: [ExploreEvent]) -> [ExploreEvent] { events }
}
