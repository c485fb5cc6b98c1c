/// What performs a ``ComplianceMachine``'s actions for ``ComplianceHost/drain()``: the
/// Orchestrator's Engine (a SQLite store, HTTP clients, the vault, processes) or the
/// explorer's world (a model of all of them). A host executes; it decides nothing: which
/// action is taken when, what is answered at once and what becomes a job, and what a failed
/// commit does, is the driver's, so the explorer proves the step protocol the Engine runs.
///
/// The step protocol (``drain()``):
/// - take actions until the machine has none; a `.persist` is committed at once, before any of
///   the step's other actions (the machine emits it first);
/// - a failed commit refuses the step: the host answers every waiting caller
///   (``commitFailed(_:)``), and the machine is rebuilt from the committed records
///   (``ComplianceMachine/reloadedAfterFailedCommit(_:)``) and resumed;
/// - store reads and refresh-token removals are answered at once, fed to the machine only
///   once all its actions are taken (a result never meets a pending persist);
/// - every other I/O (grants, MAM calls, a wipe's token, vault and hook steps, the
///   re-protection of plain files, the app's restart hook) becomes a job (``startJob(_:)``) whose result the host feeds back later as
///   the next event (``ComplianceMachine/completed(_:_:now:)``, or for the restart hook
///   ``ComplianceMachine/restartApplicationAnswered(_:now:)``);
/// - a first policy's restart without a restart hook (``ComplianceMachine/Configuration/hasRestartHook``),
///   or during the launch's own work (``ComplianceMachine/asksAppToRestart``), is the SDK's, at
///   once (``ComplianceMachine/appRestarted(now:)``).
public protocol ComplianceHost {
    /// The machine the host runs.
    var machine: ComplianceMachine { get set }
    /// The time results are fed at.
    var driveNow: Instant { get }
    /// Each action as it is taken, before it is performed (a record, a trace).
    mutating func taken(_ action: ComplianceMachine.Action)
    /// Commits one step's changes in one transaction; throws when the store refuses (nothing
    /// of it is then committed).
    mutating func commit(_ changes: ComplianceMachine.Changes) throws
    /// A commit failed with `error`: answer every waiting caller (`storage_unavailable`) and
    /// drop what was under way; return the committed records to rebuild from (throw when they
    /// cannot be read: the machine then starts empty).
    mutating func commitFailed(_ error: any Error) throws -> ComplianceMachine.Stored
    /// The machine was rebuilt after a failed commit, before it resumes; `failure` says why it
    /// had to start empty instead (the records could not be read or restored).
    mutating func reloaded(_ failure: (any Error)?)
    /// The one answer to a caller.
    mutating func deliver(_ ticket: ComplianceMachine.Ticket, _ reply: ComplianceMachine.Reply)
    /// The token cache of `environment` for the account and scopes (a store read): `.cache`
    /// with what it holds, or `.failed` when the store cannot be read (the machine decides
    /// what that means; a host never answers an unreadable cache as an empty one).
    mutating func readTokenCache(_ account: AccountID, scopes: [String], environment: TokenEnvironment) -> ComplianceMachine.StepResult
    /// Drops the account's refresh token of `environment` (a store write): `.done` or `.failed`.
    mutating func removeRefreshToken(_ account: AccountID, environment: TokenEnvironment) -> ComplianceMachine.StepResult
    /// Starts I/O whose result comes back later as an event: `.requestToken`, `.callMAM`,
    /// `.removeTokens`, `.removeVaultFiles`, `.runAppHook`, `.encryptPlainFiles`, `.askApp`, and
    /// `.restartApp` with a restart hook.
    mutating func startJob(_ action: ComplianceMachine.Action)
}

extension ComplianceHost {
    /// Takes the machine's actions until it has none (the step protocol of ``ComplianceHost``).
    public mutating func drain() {
        var instant: [(ComplianceMachine.StepID, ComplianceMachine.StepResult)] = []
        while true {
            let action = machine.nextAction()
            if case .none = action {
                guard !instant.isEmpty else { return }
                let (step, result) = instant.removeFirst()
                machine.completed(step, result, now: driveNow)
                continue
            }
            taken(action)
            switch action {
            case .none:
                return
            case .persist(let changes):
                do {
                    try commit(changes)
                    machine.persisted()
                } catch {
                    instant = []
                    let launching = machine.isLaunching  // a reload during the launch is still the launch
                    var failure: (any Error)?
                    do {
                        machine = try machine.reloadedAfterFailedCommit(try commitFailed(error))
                    } catch let reloadError {
                        failure = reloadError
                        machine = ComplianceMachine(configuration: machine.configuration)
                    }
                    reloaded(failure)
                    machine.resumed(now: driveNow, launch: launching)
                }
            case .reply(let ticket, let reply):
                deliver(ticket, reply)
            case .readTokenCache(let step, let account, let scopes, let environment):
                instant.append((step, readTokenCache(account, scopes: scopes, environment: environment)))
            case .removeRefreshToken(let step, let account, let environment):
                instant.append((step, removeRefreshToken(account, environment: environment)))
            case .restartApp where !machine.asksAppToRestart:
                machine.appRestarted(now: driveNow)
            case .restartApp, .requestToken, .callMAM, .removeTokens, .removeVaultFiles, .runAppHook, .encryptPlainFiles, .askApp:
                startJob(action)
            }
        }
    }
}
