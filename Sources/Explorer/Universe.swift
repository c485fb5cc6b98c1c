import ComplianceCore

/// The small world the explorer runs the machine in: the accounts (one of them under two
/// canonically equivalent spellings, one outside the allowed list), the scopes, the policy,
/// and how much of each kind of event one path may use.
public struct Universe: Sendable, Hashable, Codable {
    /// One way to write an account, as a person would type it.
    public struct Spelling: Sendable, Hashable, CustomStringConvertible, Codable {
        /// A short name for traces (`alice`, `josé-nfc`, …).
        public var name: String
        /// The UPN as typed.
        public var upn: String
        public var account: AccountID

        public init(name: String, upn: String) {
            self.name = name
            self.upn = upn
            // The universe's spellings are valid by construction.
            self.account = try! AccountID(upn)
        }

        public var description: String { name }
    }

    public var spellings: [Spelling]
    /// The scope of the app's own API (behind CA for targeted users).
    public var apiScope = "api://contoso-chat/Chat.Read"
    /// The policy's allowed accounts (UPNs); `dave` is not among them.
    public var allowedAccounts: [String]
    /// Accounts targeted for App Protection CA from the start.
    public var caTargeted: [String]
    /// How many of each event one path may use.
    public var budget: Budget
    /// The scripts a path may follow: each a sequence of commands and admin changes, issued in
    /// order (a command while at most ``Budget/concurrentCommands`` are in flight), interleaved
    /// with every order of the I/O answers, timers, failures, crashes and storage failures.
    public var scripts: [Script]
    /// Whether the app has a wipe hook (its answers are explored).
    public var hasWipeHook: Bool
    /// Whether a MAM service is configured (``ComplianceMachine/Configuration/mamService``).
    public var mamService = true
    /// The profile's launch settings (``LaunchSettings``).
    public var launch = LaunchSettings()
    /// The profile's `MultiIdentity` (the app sets its identities).
    public var multiIdentity = false
    /// Whether the app has a restart hook (`restartApplication`): its YES and NO are explored,
    /// and the app's report of a restart it owes.
    public var restartHook = false
    /// Whether the app has an identity hook (`identitySwitchRequired`, `addIdentity`): its
    /// Success and Failed are explored.
    public var identityHook = false
    /// The MAM service may refuse a token with a continuous-access-evaluation claims challenge.
    public var claimsChallenges = false
    /// The app's client capabilities (`MSALClientCapabilities`).
    public var capabilities = [ComplianceCore.protectionCapability]
    /// Whether the service's policy asks the managed identity's PIN (a conditional launch the
    /// user may cancel).
    public var pinRequired = false
    /// Whether the app's hooks may also time out or crash (``HookFailure``) besides YES and NO.
    public var hookFailures = false

    /// How many events of each kind one path may use.
    public struct Budget: Sendable, Hashable, Codable {
        /// Commands in flight at once.
        public var concurrentCommands = 2
        /// Answers other than the normal one (errors, network failures, malformed answers).
        public var failures = 1
        public var crashes = 1
        public var storageFailures = 1
        public var timers = 2

        public init() {}
    }

    /// A named sequence of what people do.
    public struct Script: Sendable, Hashable, CustomStringConvertible, Codable {
        public var name: String
        public var steps: [ScriptStep]

        public init(_ name: String, _ steps: [ScriptStep]) {
            self.name = name
            self.steps = steps
        }

        public var description: String { name }
    }

    /// A command of a caller, or a change an administrator makes.
    public enum ScriptStep: Sendable, Hashable, CustomStringConvertible, Codable {
        case command(Command)
        case admin(AdminChange)

        public var description: String {
            switch self {
            case .command(let command): command.description
            case .admin(let change): change.description
            }
        }
    }

    /// alice (CA-targeted), josé (NFC and NFD spellings), dave (outside the allowed list).
    public static let standard: Universe = {
        let spellings = [
            Spelling(name: "alice", upn: "alice@contoso.com"),
            Spelling(name: "josé-nfc", upn: "jos\u{E9}@contoso.com"),
            Spelling(name: "josé-nfd", upn: "jose\u{301}@contoso.com"),
            Spelling(name: "dave", upn: "dave@contoso.com"),
        ]
        return Universe(
            spellings: spellings, allowedAccounts: ["alice@contoso.com", "jos\u{E9}@contoso.com"], caTargeted: ["alice@contoso.com"],
            budget: Budget(), scripts: standardScripts, hasWipeHook: true)
    }()

    /// What the standard universe's people do: each defect the composed machine fixes has
    /// a script that reaches it.
    public static let standardScripts: [Script] = [
        Script("alice remediates, then deregisters with wipe", [
            .command(.signIn("alice")), .command(.putData("alice")), .command(.deregister("alice", wipe: true)),
        ]),
        Script("josé signs in under one spelling, is wiped under the other", [
            .command(.signIn("josé-nfc")), .command(.putData("josé-nfd")), .command(.putData("josé-nfc")),
            .command(.deregister("josé-nfd", wipe: true)),
        ]),
        Script("dave is excluded by the policy his own sign-in brings; alice then enrolls", [
            .command(.signIn("dave")), .command(.signIn("alice")),
        ]),
        Script("josé waits for the slot alice holds; alice leaves", [
            .command(.signIn("alice")), .command(.signIn("josé-nfc")), .command(.deregister("alice", wipe: false)),
        ]),
        Script("an admin wipe of alice arrives at her check-in", [
            .command(.signIn("alice")), .command(.putData("alice")), .admin(.queueWipe("alice")),
        ]),
        Script("the allowed list shrinks while josé is signed in", [
            .command(.signIn("josé-nfc")), .command(.putData("josé-nfc")), .admin(.excludeJose),
        ]),
        Script("deregister, then deregister with wipe", [
            .command(.signIn("alice")), .command(.putData("alice")), .command(.deregister("alice", wipe: false)),
            .command(.deregister("alice", wipe: true)),
        ]),
        Script("deregister, then remediate again", [
            .command(.signIn("alice")), .command(.deregister("alice", wipe: false)), .command(.remediate("alice")),
        ]),
        Script("the policy is unassigned, then alice checks in", [
            .command(.signIn("alice")), .admin(.unassignPolicy),
        ]),
        Script("josé registers (his enrollment may fail), then alice remediates", [
            .command(.signIn("josé-nfc")), .command(.signIn("alice")), .command(.token("josé-nfd")),
        ]),
        Script("josé is targeted for CA while alice is managed", [
            .command(.signIn("alice")), .command(.signIn("josé-nfc")), .admin(.targetCA("josé-nfc")), .command(.remediate("josé-nfd")),
        ]),
        Script("alice's files are plain until her check-in brings a policy requiring encryption", [
            .command(.signIn("alice")), .command(.putData("alice")), .admin(.changePolicy),
        ]),
    ]

    public init(spellings: [Spelling], allowedAccounts: [String], caTargeted: [String], budget: Budget, scripts: [Script], hasWipeHook: Bool) {
        self.spellings = spellings
        self.allowedAccounts = allowedAccounts
        self.caTargeted = caTargeted
        self.budget = budget
        self.scripts = scripts
        self.hasWipeHook = hasWipeHook
    }

    /// The machine's configuration in this universe.
    public var configuration: ComplianceMachine.Configuration {
        var configuration = ComplianceMachine.Configuration(
            signInScopes: [apiScope], hasWipeHook: hasWipeHook, hasRestartHook: restartHook, mamService: mamService, launch: launch,
            multiIdentity: multiIdentity)
        configuration.hasIdentityHook = identityHook
        configuration.capabilities = capabilities
        return configuration
    }

    /// A `MultiIdentity` app with an identity hook (`identitySwitchRequired`, `addIdentity`)
    /// whose Success and Failed are explored: a PIN cancelled while the UI shows another
    /// account, and accounts the SDK enrolls on its own (invariant 23).
    public static let withIdentityHook: Universe = {
        var universe = Universe.standard
        universe.multiIdentity = true
        universe.identityHook = true
        universe.pinRequired = true
        universe.budget.failures = 0
        universe.budget.storageFailures = 0
        universe.budget.timers = 1
        universe.scripts = [
            Script("identity hook: the UI shows josé, the user cancels alice's PIN, the SDK asks for no user; alice's data is read", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.signIn("josé-nfc")), .command(.switchUI("josé-nfd")),
                .command(.switchUICancelled("alice")), .command(.readData("alice")),
            ]),
            Script("identity hook: josé leaves without a wipe, the SDK enrolls him again, alice signs in", [
                .command(.signIn("josé-nfc")), .command(.deregister("josé-nfd", wipe: false)), .command(.sdkEnrolls("josé-nfc")),
                .command(.signIn("alice")),
            ]),
        ]
        return universe
    }()

    /// The standard people with an app whose profile sets `MAMPolicyRequired`: tokens are
    /// asked for before any policy, while one is in force, and after it left.
    public static let withPolicyRequired: Universe = {
        var universe = Universe.standard
        universe.launch = LaunchSettings(autoEnrollOnLaunch: true, policyRequired: true)
        universe.scripts = [
            Script("MAMPolicyRequired: josé asks a token before any policy, signs in (his enrollment brings one), asks again", [
                .command(.token("josé-nfc")), .command(.signIn("josé-nfc")), .command(.token("josé-nfd")),
            ]),
            Script("MAMPolicyRequired: alice remediates through a token request, then leaves with wipe", [
                .command(.token("alice")), .command(.deregister("alice", wipe: true)), .command(.token("alice")),
            ]),
            Script("MAMPolicyRequired: alice stores data under the policy, deregisters keeping it, reads it", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.deregister("alice", wipe: false)), .command(.readData("alice")),
            ]),
        ]
        return universe
    }()

    /// The standard people in a `MultiIdentity` app that switches its UI and process identities
    /// and reads managed data while accounts are wiped, excluded or wait for the managed slot.
    /// Reads follow the process identity (the file identity); the UI identity plays no part.
    public static let withMultiIdentity: Universe = {
        var universe = Universe.standard
        universe.multiIdentity = true
        universe.scripts = [
            Script("the UI shows alice, the process runs as no user, and reads alice's data; then the other way round", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.switchUI("alice")), .command(.switchProcess(nil)),
                .command(.readData("alice")), .command(.switchUI(nil)), .command(.switchProcess("alice")), .command(.readData("alice")),
            ]),
            Script("the process runs as alice and reads her data; an admin wipe arrives at her check-in", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.switchProcess("alice")), .command(.readData("alice")),
                .admin(.queueWipe("alice")), .command(.readData("alice")),
            ]),
            Script("the UI and the process show josé; the allowed list excludes him", [
                .command(.signIn("josé-nfc")), .command(.putData("josé-nfd")), .command(.switchUI("josé-nfd")),
                .command(.switchProcess("josé-nfc")), .admin(.excludeJose), .command(.readData("josé-nfc")),
            ]),
            Script("alice is managed; the process asks for josé (registered), then dave, then no user, and reads alice's data", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.signIn("josé-nfc")), .command(.switchProcess("josé-nfc")),
                .command(.switchProcess("dave")), .command(.switchProcess(nil)), .command(.readData("alice")),
            ]),
            Script("the process runs as alice, she deregisters with wipe, then signs in again", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.switchProcess("alice")), .command(.deregister("alice", wipe: true)),
                .command(.readData("alice")), .command(.signIn("alice")), .command(.readData("alice")),
            ]),
            Script("alice's wipe stops on a full disk; her file is read while the wipe waits", [
                .command(.signIn("alice")), .command(.putData("alice")), .command(.deregister("alice", wipe: true)),
                .command(.readData("alice")),
            ]),
        ]
        return universe
    }()

    /// The standard people with an app whose restart hook answers `restartApplication`: YES
    /// (the app owes the restart until it reports it, across crashes) or NO (the SDK restarts).
    public static let withRestartHook: Universe = {
        var universe = Universe.standard
        universe.restartHook = true
        // The answers of the services are the standard universe's business: here the hook's
        // answers, the app's report and a crash interleave with normal answers and timers.
        universe.budget.failures = 0
        universe.budget.storageFailures = 0
        universe.budget.timers = 1
        universe.scripts = [
            Script("restart hook: alice remediates at sign-in, asks a token, leaves with wipe", [
                .command(.signIn("alice")), .command(.token("alice")), .command(.deregister("alice", wipe: true)),
            ]),
            Script("restart hook: josé's registration brings his first policy; alice signs in", [
                .command(.signIn("josé-nfc")), .command(.token("josé-nfd")), .command(.signIn("alice")),
            ]),
        ]
        return universe
    }()

    /// The authority of the second issuer the app's override moves to.
    public static let secondAuthority = "https://login.second.example/contoso.com"

    /// The standard people with an app that moves its authority to a second issuer
    /// (`aadAuthorityUriOverride`) and back: tokens stay with the issuer that issued them; and
    /// a person who signs in again with credentials, right or wrong, while a session is cached.
    public static let withSecondIssuer: Universe = {
        var universe = Universe.standard
        universe.budget.timers = 1
        universe.scripts = [
            Script("alice signs in; the authority moves to a second issuer; she asks a token there and back", [
                .command(.signIn("alice")), .command(.overrideAuthority(secondAuthority)), .command(.token("alice")),
                .command(.overrideAuthority(nil)), .command(.token("alice")),
            ]),
            Script("alice signs in, then signs in again (her password may be wrong) and asks a token", [
                .command(.signIn("alice")), .command(.signIn("alice")), .command(.token("alice")),
            ]),
            Script("josé signs in; the authority moves while his token request is under way; he signs in again", [
                .command(.signIn("josé-nfc")), .command(.token("josé-nfd")), .command(.overrideAuthority(secondAuthority)),
                .command(.signIn("josé-nfc")), .command(.overrideAuthority(nil)), .command(.token("josé-nfc")),
            ]),
        ]
        return universe
    }()

    /// The edges together: the three people, both hooks answering YES, NO, timing out and
    /// crashing, the authority moved to a second issuer and back, wrong passwords (an answer
    /// of every interactive sign-in), a crash and a failed commit at any point.
    public static let wide: Universe = {
        var universe = Universe.standard
        universe.restartHook = true
        universe.hookFailures = true
        universe.budget.timers = 1
        universe.scripts = [
            Script("wide: alice signs in; the authority moves to a second issuer; she asks a token there; she leaves with wipe", [
                .command(.signIn("alice")), .command(.overrideAuthority(secondAuthority)), .command(.token("alice")),
                .command(.deregister("alice", wipe: true)),
            ]),
            Script("wide: josé signs in (his password may be wrong), dave signs in, josé leaves with wipe", [
                .command(.signIn("josé-nfc")), .command(.signIn("dave")), .command(.deregister("josé-nfd", wipe: true)),
            ]),
            Script("wide: alice signs in twice, josé waits for her slot, the authority moves back, alice leaves", [
                .command(.signIn("alice")), .command(.signIn("alice")), .command(.signIn("josé-nfc")),
                .command(.overrideAuthority(nil)), .command(.deregister("alice", wipe: false)),
            ]),
        ]
        return universe
    }()

    /// An app declaring `cp1` beside `protapp` whose MAM calls the service may refuse with a
    /// continuous-access-evaluation claims challenge (a revoked session): the call is sent again
    /// with a token asked of the issuer with the challenge's claims, whose refresh may be refused
    /// in turn (invalid_grant: the user must sign in). Invariant 24.
    public static let withContinuousAccess: Universe = {
        var universe = Universe.standard
        universe.capabilities = [ComplianceCore.continuousAccessCapability, ComplianceCore.protectionCapability]
        universe.claimsChallenges = true
        universe.budget.storageFailures = 0
        universe.budget.timers = 1
        universe.scripts = [
            Script("continuous access: alice remediates at sign-in, asks a token, leaves", [
                .command(.signIn("alice")), .command(.token("alice")), .command(.deregister("alice", wipe: true)),
            ]),
            Script("continuous access: josé registers at sign-in; dave signs in", [
                .command(.signIn("josé-nfc")), .command(.signIn("dave")),
            ]),
        ]
        return universe
    }()

    /// The standard universe with no MAM service: an OpenID Connect issuer without a MAM URL.
    public static let withoutMAMService: Universe = {
        var universe = Universe.standard
        universe.mamService = false
        return universe
    }()

    public func spelling(named name: String) -> Spelling? { spellings.first { $0.name == name } }
}
