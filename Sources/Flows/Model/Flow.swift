import AppProfile

/// One end-to-end test case: which mock tenant, which app, then steps (flows/README.md).
public struct Flow: Sendable {
    /// The flow's name (from the file, or the file name).
    public var name: String
    public var description: String
    /// The file it came from.
    public var file: String
    /// The mock's fixture file (absolute or relative to the working directory); nil for a flow
    /// of web checks alone that names none (it starts no mock).
    public var fixture: String?
    /// The app's Info.plist.
    public var app: String
    /// Whether the daemon can reach the issuer (`"issuer": "unreachable"` points it at a
    /// loopback port nothing listens on; the mock still runs for admin steps).
    public var issuerReachable: Bool
    /// The app's entitlements (`"entitlements"`), read with the Info.plist for web checks.
    public var entitlements: String?
    /// The app profile the web checks decide from: read when the flow is parsed, nil when it has none.
    public var webApp: AppProfile?
    /// The app's wipe hook (`"wipeHook"`: a command for `/bin/sh -c`), given to the daemon.
    public var wipeHook: String?
    /// The app's restart hook (`"restartHook"`: a command for `/bin/sh -c`), given to the daemon
    /// as `--restart-hook`.
    public var restartHook: String?
    /// The app's identity hook (`"identityHook"`: `identitySwitchRequired` and `addIdentity`),
    /// given to the daemon as `--identity-hook`.
    public var identityHook: String?
    public var steps: [FlowStep]

    public init(
        name: String, description: String, file: String, fixture: String?, app: String, issuerReachable: Bool = true,
        entitlements: String? = nil, webApp: AppProfile? = nil, steps: [FlowStep]
    ) {
        self.name = name
        self.description = description
        self.file = file
        self.fixture = fixture
        self.app = app
        self.issuerReachable = issuerReachable
        self.entitlements = entitlements
        self.webApp = webApp
        self.steps = steps
    }

    /// False when every step is a web check: the runner then starts no mock and no daemon.
    public var needsServers: Bool {
        steps.contains { !$0.isWebCheck }
    }

    /// True when a step needs the daemon's test hooks (crash points, storage faults).
    public var needsTestHooks: Bool {
        steps.contains {
            switch $0.action {
            case .crashAfter, .failStorage: true
            default: false
            }
        }
    }

    /// The accounts the flow's action steps act on (lowercased): those of the daemon actions,
    /// the users of admin paths (`users/{upn}/…`) and the UPNs an admin body lists
    /// (`allowedAccounts`). A check may name these even when nothing about them was logged.
    public var actedAccounts: Set<String> {
        var names: Set<String> = []
        for step in steps {
            switch step.action {
            case .signIn(let account?, _, _, _), .token(let account, _, _, _, _), .remediate(let account, _, _), .deregister(let account, _),
                 .putData(let account, _, _), .removeData(let account, _), .readData(let account, _), .sdkEnrolls(let account):
                names.insert(account.lowercased())
            case .setUIIdentity(let identity, _), .setProcessIdentity(let identity):
                if !identity.isEmpty { names.insert(identity.lowercased()) }
            case .admin(_, let path, let body, _):
                let segments = path.split(separator: "/")
                if segments.count >= 2, segments[0] == "users" { names.insert(segments[1].lowercased()) }
                for value in body?["allowedAccounts"]?.arrayValue ?? [] { if let upn = value.stringValue { names.insert(upn.lowercased()) } }
            default:
                break
            }
        }
        return names
    }

    /// True when a step stops or starts the daemon (only possible with a daemon `run` started).
    public var controlsDaemon: Bool {
        steps.contains {
            switch $0.action {
            case .crashAfter, .restartDaemon: return true
            default: return false
            }
        }
    }
}

/// One step: what to do, what to expect of its answer, and an optional note for the reader.
public struct FlowStep: Sendable {
    /// 1-based position in the flow (what messages show).
    public var index: Int
    public var action: StepAction
    public var expect: StepExpectation
    public var note: String?

    public init(index: Int, action: StepAction, expect: StepExpectation = StepExpectation(), note: String? = nil) {
        self.index = index
        self.action = action
        self.expect = expect
        self.note = note
    }
}
