import ControlClient
import Foundation
import JSON

/// Runs one flow: starts (or connects to) its mock and daemon, runs the steps in order,
/// stops at the first failed step, and stops what it started.
public struct FlowRunner: Sendable {
    public let flow: Flow
    public let options: RunOptions
    let progress: @Sendable (FlowProgress) -> Void

    public init(flow: Flow, options: RunOptions, progress: @escaping @Sendable (FlowProgress) -> Void) {
        self.flow = flow
        self.options = options
        self.progress = progress
    }

    public func run() async -> FlowResult {
        let started = ContinuousClock.now
        var result = FlowResult(name: flow.name, file: flow.file)
        progress(.flowStarted(name: flow.name, description: flow.description, steps: flow.steps.count))
        let stack = FlowStack(options: options, flow: flow)
        do {
            if flow.needsServers { try await stack.start() }
            let context = try await RunContext(stack: stack)
            await runSteps(context, into: &result)
            if options.explain, flow.needsServers { result.stories = await Self.stories(context) }
        } catch {
            result.setupError = error.message
            result.daemonLog = stack.daemonLogTail()
        }
        await stack.stop()
        if options.keepState { result.keptStateDirectory = stack.stateDirectory }
        result.milliseconds = started.duration(to: .now).milliseconds
        progress(.flowFinished(result))
        return result
    }

    private func runSteps(_ context: RunContext, into result: inout FlowResult) async {
        for step in flow.steps {
            if result.failedStep != nil {
                result.steps.append(StepResult(index: step.index, summary: step.action.summary, note: step.note, outcome: .skipped, detail: "", milliseconds: 0))
                continue
            }
            let started = ContinuousClock.now
            let check = await run(step, context)
            let stepResult = StepResult(
                index: step.index, summary: step.action.summary, note: step.note, outcome: check.passed ? .passed : .failed, detail: check.detail,
                mismatches: check.mismatches, answer: check.answer, milliseconds: started.duration(to: .now).milliseconds)
            result.steps.append(stepResult)
            progress(.stepFinished(flow: flow.name, total: flow.steps.count, stepResult))
            if !check.passed {
                result.lastEvents = Array(((try? await context.events()) ?? []).suffix(10))
                if !context.stack.daemonIsRunning || check.daemonProblem { result.daemonLog = context.stack.daemonLogTail() }
            }
        }
    }

    /// `compliancectl explain` of every account the flow's events name, read before the
    /// servers stop (nothing when the daemon no longer answers).
    static func stories(_ context: RunContext) async -> [ComplianceStory] {
        guard let events = try? await context.events() else { return [] }
        var accounts: [String] = []
        for event in events {
            if let account = event["account"]?.stringValue, !accounts.contains(account) { accounts.append(account) }
        }
        let requests = (try? await context.stack.admin?.requests()) ?? []
        return accounts.map { ComplianceStory(account: $0, events: events, requests: requests) }
    }

    private func run(_ step: FlowStep, _ context: RunContext) async -> StepCheck {
        switch step.action {
        case .signIn, .token, .remediate, .deregister, .putData, .removeData, .readData, .setUIIdentity, .setProcessIdentity, .overrideSettings,
             .sdkEnrolls, .advanceClock, .appRestarted:
            return await runDaemonAction(step, context)
        case .restartDaemon(let kill):
            return await restart(step, kill: kill, context)
        case .crashAfter(let point, let occurrence):
            guard context.stack.ownsDaemon else { return .failed("crashAfter needs a daemon started by compliancectl run (not --socket)") }
            do {
                _ = try await context.stack.client.crashAfter(point, occurrence: occurrence)
                context.armedCrash = (point, step.index)
                return .passed("armed: the daemon kills itself after committing \(point)")
            } catch {
                return .failed("cannot arm the crash point: \(error.message)")
            }
        case .failStorage(let operation, let count):
            guard context.stack.ownsDaemon else { return .failed("failStorage needs a daemon started by compliancectl run (not --socket)") }
            do {
                _ = try await context.stack.client.failStorage(operation, count: count)
                return .passed("the daemon's next \(count) \(operation) operation\(count == 1 ? "" : "s") fail as on a full disk")
            } catch {
                return .failed("cannot arm the storage fault: \(error.message)")
            }
        case .admin(let method, let path, let body, _):
            guard let admin = context.stack.admin else { return .failed("the issuer at \(context.stack.authority) has no admin API (step \(step.index))") }
            do {
                let answer = try await admin.call(method, path, body)
                var check = StepCheck.passed(answer == .null ? "ok" : AnswerText.brief(answer))
                check.answer = answer == .null ? nil : answer
                return check
            } catch {
                return .failed(error.message)
            }
        case .protect, .unprotect, .expectProtectionInfo:
            return await runProtection(step, context)
        case .expectAccount, .expectData, .expectEvents, .expectEnrollmentStatuses, .expectRequests, .expectDataProtection, .expectAppConfig, .expectApp,
             .expectIdentity, .expectSettings, .expectDecision:
            return await runCheck(step, context)
        case .web(let check):
            guard let app = flow.webApp else { return .failed("web checks need the flow's app profile, which was not read") }
            return check.evaluate(app)
        }
    }

    private func restart(_ step: FlowStep, kill: Bool, _ context: RunContext) async -> StepCheck {
        guard context.stack.ownsDaemon else { return .failed("restartDaemon needs a daemon started by compliancectl run (not --socket)") }
        var crashed = !context.stack.daemonIsRunning
        if !crashed, (try? await context.stack.client.health()) == nil {
            // Not answering: it may be dying (a crash right after its last answer).
            crashed = await context.stack.waitForDaemonExit()
        }
        if let armed = context.armedCrash, !crashed {
            return .failed("the crash point \(armed.point) armed in step \(armed.step) was never reached")
        }
        if crashed, !context.crashReached {
            // Stopped between steps: at the armed point, or of something else (a failure).
            guard context.armedCrash != nil else {
                return StepCheck(
                    passed: false, detail: "complianced had stopped before this step (\(context.stack.daemonExit ?? "?")) with no crash point armed",
                    daemonProblem: true)
            }
            let judged = context.judgeArmedCrash()
            guard judged.passed else { return judged }
        }
        do {
            try await context.stack.restartDaemon(kill: kill)
        } catch {
            return StepCheck(passed: false, detail: error.message, daemonProblem: true)
        }
        context.armedCrash = nil
        context.crashReached = false
        return .passed(crashed ? "started again after the crash" : (kill ? "killed (SIGKILL) and started again" : "stopped (SIGTERM) and started again"))
    }
}

/// What a step's run found.
struct StepCheck {
    var passed: Bool
    var detail: String
    var mismatches: [String] = []
    /// The daemon misbehaved (died, did not answer): show its log.
    var daemonProblem = false
    /// An admin call's answer, whole (the JSON report's `answer`).
    var answer: JSONValue?

    static func passed(_ detail: String) -> StepCheck { StepCheck(passed: true, detail: detail) }
    static func failed(_ detail: String, _ mismatches: [String] = []) -> StepCheck { StepCheck(passed: false, detail: detail, mismatches: mismatches) }
}

/// The state a flow's steps share.
final class RunContext: @unchecked Sendable {  // used by one flow's steps, one at a time
    let stack: FlowStack
    /// The last event before the flow started: checks look only at later ones.
    let firstSeq: Int64
    /// Requests the mock had logged before the flow started.
    let requestsBefore: Int
    /// A crash point armed and not yet reached, with the step that armed it.
    var armedCrash: (point: String, step: Int)?
    /// The daemon stopped at its armed crash point and has not been restarted yet.
    var crashReached = false
    /// What `protect` steps kept, by their `as` names.
    var kept: [String: [UInt8]] = [:]

    init(stack: FlowStack) async throws(FlowSetupError) {
        self.stack = stack
        guard stack.flow.needsServers else {
            firstSeq = 0
            requestsBefore = 0
            return
        }
        do {
            firstSeq = try await stack.client.health()["lastEventSeq"]?.intValue ?? 0
        } catch {
            throw FlowSetupError("the daemon does not answer: \(error.message)")
        }
        requestsBefore = (try? await stack.admin?.requests().count) ?? 0
    }

    /// Judges the stopped daemon against the armed crash point (``CrashVerdict``): passes
    /// only when it killed itself at that point, and then disarms it.
    func judgeArmedCrash() -> StepCheck {
        guard let armed = armedCrash, let exit = stack.daemonExitStatus else { return .failed("no crash point armed, or the daemon still runs") }
        switch CrashVerdict.judge(armed: armed, exit: exit, marker: stack.takeCrashMarker()) {
        case .reachedArmedPoint:
            armedCrash = nil
            crashReached = true
            return .passed("the daemon stopped at crash point \(armed.point) (armed in step \(armed.step)), as armed")
        case .otherDeath(let why):
            return StepCheck(passed: false, detail: why, daemonProblem: true)
        }
    }

    /// Every event since the flow started, oldest first.
    func events() async throws(ControlClientError) -> [JSONValue] {
        guard stack.flow.needsServers else { return [] }
        var all: [JSONValue] = []
        var cursor = firstSeq
        while true {
            let page = try await stack.client.events(since: cursor, limit: 1000)["events"]?.arrayValue ?? []
            all += page
            guard page.count == 1000, let last = page.last?["seq"]?.intValue else { return all }
            cursor = last
        }
    }
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
