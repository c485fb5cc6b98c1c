import Foundation
import JSON
import Testing
@testable import Flows

/// The flow format: valid files parse to steps; every mistake names the file, the step and why.
@Suite struct FlowParserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// A flow "in" flows/ (not written to disk), so defaults find mocks/fixtures.
    static let file = root + "/flows/test-flow.json"

    static func parse(_ text: String) throws(FlowError) -> Flow {
        try FlowParser.parse(Array(text.utf8), file: file)
    }

    static func error(_ text: String) -> FlowError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidFlowParsesWithDefaultsFoundAboveIt() throws {
        let flow = try Self.parse("""
            {"name": "n", "steps": [
              {"do": "signIn", "account": "alice@contoso.com", "password": "p", "expect": {"status": "Compliant", "token": {"xms_cc": ["protapp"]}}},
              {"do": "advanceClock", "by": "1d2h"},
              {"do": "targetCA", "account": "bob@contoso.com", "targeted": false},
              {"do": "expectAccount", "account": "alice@contoso.com", "compliance": 0, "lastEnrollmentStatus": "newpoliciesreceived"}
            ]}
            """)
        #expect(flow.name == "n")
        #expect(flow.fixture == Self.root + "/mocks/fixtures/contoso.json")
        #expect(flow.app == Self.root + "/mocks/fixtures/apps/chatr-Info.plist")
        #expect(flow.steps.map(\.index) == [1, 2, 3, 4])
        guard case .signIn(let account, .password("p"), false, nil) = flow.steps[0].action else {
            Issue.record("step 1: \(flow.steps[0].action)")
            return
        }
        #expect(account == "alice@contoso.com")
        #expect(flow.steps[0].expect.status == .int(0))
        guard case .advanceClock(93_600, "1d2h") = flow.steps[1].action else { Issue.record("step 2"); return }
        guard case .admin("POST", "users/bob@contoso.com/ca", let body, _) = flow.steps[2].action else { Issue.record("step 3"); return }
        #expect(body == ["targeted": false])
        guard case .expectAccount(_, let fields) = flow.steps[3].action else { Issue.record("step 4"); return }
        #expect(fields["compliance"] == 0 && fields["lastEnrollmentStatus"] == 100)
    }

    /// A flow saved by an editor that writes a UTF-8 byte-order mark (EF BB BF) first: the
    /// mark is skipped, from bytes and from a file; one anywhere else is still invalid JSON.
    @Test func aLeadingByteOrderMarkIsSkipped() throws {
        let text = #"{"name": "bom", "steps": [{"do": "advanceClock", "by": "1h"}]}"#
        let marked = JSONValue.byteOrderMark + Array(text.utf8)
        let flow = try FlowParser.parse(marked, file: Self.file)
        #expect(flow.name == "bom" && flow.steps.count == 1)
        let directory = NSTemporaryDirectory() + "flow-bom-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bom.json"
        try Data(marked).write(to: URL(fileURLWithPath: path))
        let app = Self.root + "/mocks/fixtures/apps/chatr-Info.plist"
        let loaded = try FlowParser.load(path, defaults: FlowDefaults(app: app, issuerGiven: true))
        #expect(loaded.name == "bom")
        let twice = JSONValue.byteOrderMark + marked
        #expect(throws: FlowError.self) { try FlowParser.parse(twice, file: Self.file) }
    }

    @Test func identityStepsParse() throws {
        let flow = try Self.parse("""
            {"steps": [
              {"do": "signIn", "account": null, "silent": true},
              {"do": "setUIIdentity", "identity": "", "conditionalLaunch": "cancel", "expect": {"result": "Canceled"}},
              {"do": "setProcessIdentity", "identity": "alice@contoso.com", "expect": {"error": "identity_not_allowed"}},
              {"do": "readData", "account": "alice@contoso.com", "name": "a.txt", "expect": {"text": "hello"}},
              {"do": "expectIdentity", "processIdentity": "Alice@Contoso.com", "uiIdentity": null, "effectiveUIIdentity": ""}
            ]}
            """)
        guard case .signIn(nil, .none, true, nil) = flow.steps[0].action else { Issue.record("step 1: \(flow.steps[0].action)"); return }
        guard case .setUIIdentity("", true) = flow.steps[1].action else { Issue.record("step 2"); return }
        #expect(flow.steps[1].expect.result == "Canceled")
        guard case .setProcessIdentity("alice@contoso.com") = flow.steps[2].action else { Issue.record("step 3"); return }
        guard case .readData("alice@contoso.com", "a.txt") = flow.steps[3].action else { Issue.record("step 4"); return }
        #expect(flow.steps[3].expect.text == "hello")
        guard case .expectIdentity(let expected) = flow.steps[4].action else { Issue.record("step 5"); return }
        #expect(expected == ["processIdentity": "alice@contoso.com", "uiIdentity": .null, "effectiveUIIdentity": ""])
        #expect(flow.actedAccounts == ["alice@contoso.com"])
    }

    @Test func countedPatternsParseWithoutTheirCount() throws {
        let flow = try Self.parse("""
            {"steps": [
              {"do": "expectEvents", "counts": [{"kind": "enrollment", "account": "bob@contoso.com", "count": 1}]},
              {"do": "expectRequests", "requests": [{"route": "token"}], "counts": [{"route": "token", "status": 200, "count": 0}]}
            ]}
            """)
        guard case .expectEvents(let events, let absent, let counts) = flow.steps[0].action else { Issue.record("step 1"); return }
        #expect(events.isEmpty && absent.isEmpty)
        #expect(counts == [CountedPattern(pattern: ["kind": "enrollment", "account": "bob@contoso.com"], count: 1)])
        guard case .expectRequests(let requests, _, let counted) = flow.steps[1].action else { Issue.record("step 2"); return }
        #expect(requests == [["route": "token"]])
        #expect(counted == [CountedPattern(pattern: ["route": "token", "status": 200], count: 0)])
    }

    @Test(arguments: [
        (#"{"steps": [{"do": "signIn", "account": "a@b.c"}, {"do": "signin", "account": "a@b.c"}]}"#, 2, "unknown step 'signin'"),
        (#"{"steps": [{"do": "expectDataProtection", "account": "a@b.c", "saveTo": {"oneDrive": true}}]}"#, 1, "'saveTo' names an unknown location \"oneDrive\""),
        (#"{"steps": [{"do": "expectDataProtection", "account": "a@b.c", "openFrom": {"camera": "yes"}}]}"#, 1, "'openFrom'.camera must be true or false"),
        (#"{"steps": [{"do": "expectDataProtection", "account": "a@b.c", "isURLAllowed": true}]}"#, 1, "'isURLAllowed' needs 'scheme'"),
        (#"{"steps": [{"do": "expectDataProtection", "account": "a@b.c", "notificationPolicy": "quiet"}]}"#, 1, "'notificationPolicy' must be one of allow, blockOrgData, block"),
        (#"{"steps": [{"do": "expectDataProtection", "account": "a@b.c"}]}"#, 1, "expectDataProtection: name at least one of"),
        (#"{"steps": [{"do": "expectAppConfig", "account": "a@b.c", "string": "x"}]}"#, 1, "'string', 'number', 'bool', 'all' and 'hasConflict' need 'key'"),
        (#"{"steps": [{"do": "expectAppConfig", "account": "a@b.c", "key": "k", "query": "first", "string": "x"}]}"#, 1, "'query' must be any, min, max, or or and"),
        (#"{"steps": [{"do": "expectAppConfig", "account": "a@b.c", "key": "k", "bool": "yes"}]}"#, 1, "'bool' must be a boolean or null"),
        (#"{"steps": [{"do": "expectAppConfig", "account": "a@b.c"}]}"#, 1, "expectAppConfig: name at least one of"),
        (#"{"steps": [{"do": "expectApp"}]}"#, 1, "expectApp: name at least one of registeredAccounts, allowedAccounts, managedAccount"),
        (#"{"steps": [{"do": "expectApp", "registeredAccounts": null}]}"#, 1, "expectApp: 'registeredAccounts' must be an array of UPNs"),
        (#"{"steps": [{"do": "expectApp", "managedAccount": 3}]}"#, 1, "expectApp: 'managedAccount' must be a UPN or null"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "pasword": "x"}]}"#, 1, "signIn: unknown field 'pasword' (closest known: 'password'; known: "),
        // A misspelt required field is an unknown name, with the known one it misspells.
        (#"{"steps": [{"do": "putData", "acount": "a@b.c", "name": "n", "text": "t"}]}"#, 1,
         "putData: unknown field 'acount' (closest known: 'account', which is required)"),
        (#"{"steps": [{"do": "token", "account": "a@b.c", "scope": ["api://x/Read"]}]}"#, 1,
         "token: unknown field 'scope' (closest known: 'scopes', which is required)"),
        (#"{"steps": [{"do": "changePolicy", "setings": {"pinRequired": true}}]}"#, 1,
         "changePolicy: unknown field 'setings' (closest known: 'settings', which is required)"),
        (#"{"steps": [{"do": "putData", "account": "a@b.c", "name": "n", "colour": "t"}]}"#, 1, "putData: field 'text' is required"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "silent": "yes"}]}"#, 1, "field 'silent' must be true or false, found string"),
        (#"{"steps": [{"do": "signIn", "account": 5}]}"#, 1, "field 'account' must be a string or null"),
        (#"{"steps": [{"do": "setUIIdentity"}]}"#, 1, "field 'identity' is required"),
        (#"{"steps": [{"do": "setUIIdentity", "identity": "a@b.c", "conditionalLaunch": "skip"}]}"#, 1, "'conditionalLaunch' must be \"complete\" or \"cancel\""),
        (#"{"steps": [{"do": "setUIIdentity", "identity": "a@b.c", "expect": {"result": "Ok"}}]}"#, 1, "'result' must be one of Success, Canceled, NotAllowed, Failed"),
        (#"{"steps": [{"do": "setProcessIdentity", "identity": null}]}"#, 1, "field 'identity' must be a string"),
        (#"{"steps": [{"do": "readData", "account": "a@b.c"}]}"#, 1, "field 'name' is required"),
        (#"{"steps": [{"do": "overrideSettings"}]}"#, 1, "overrideSettings: name at least one of aadAuthorityUriOverride"),
        (#"{"steps": [{"do": "overrideSettings", "aadClientIdOverride": 3}]}"#, 1, "'aadClientIdOverride' must be a string (set) or null (clear)"),
        (#"{"steps": [{"do": "expectSettings", "overrides": {"clientId": "x"}}]}"#, 1, "'overrides' has no 'clientId'"),
        (#"{"steps": [{"do": "expectSettings"}]}"#, 1, "expectSettings: name at least one of clientId, redirectUri, authorityPath, overrides"),
        (#"{"steps": [{"do": "expectIdentity"}]}"#, 1, "expectIdentity: name at least one of processIdentity, uiIdentity, effectiveUIIdentity"),
        (#"{"steps": [{"do": "expectIdentity", "effectiveUIIdentity": null}]}"#, 1, "'effectiveUIIdentity' must be a UPN or \"\" (no user)"),
        (#"{"steps": [{"do": "token", "account": "a@b.c", "scopes": []}]}"#, 1, "field 'scopes' is required"),
        (#"{"steps": [{"account": "a@b.c"}]}"#, 1, "field 'do' (the step's name) is required"),
        (#"{"steps": ["signIn"]}"#, 1, "a step must be a JSON object, found string"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "expect": {"status": "Compliantish"}}]}"#, 1, "'status': \"Compliantish\" is not a compliance status"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "expect": {"stauts": 0}}]}"#, 1, "signIn: expect: unknown field 'stauts'"),
        (#"{"steps": [{"do": "sigIn", "account": "a@b.c"}]}"#, 1, "unknown step 'sigIn' (closest known: 'signIn'; known: signIn, token"),
        (#"{"steps": [{"do": "expectaccount", "account": "a@b.c"}]}"#, 1, "unknown step 'expectaccount' (closest known: 'expectAccount';"),
        (#"{"steps": [{"do": "expectAccount", "account": "a@b.c", "compliance": 0, "expect": {"status": 0}}]}"#, 1, "unknown field 'expect'"),
        (#"{"steps": [{"do": "advanceClock", "by": "8 hours"}]}"#, 1, "'8 hours' is not a duration"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "password": "p", "cancel": true}]}"#, 1, "give 'password' or 'cancel', not both"),
        // A password on a silent request would be refused by the daemon as the flow runs: it is invalid when read.
        (#"{"steps": [{"do": "token", "account": "a@b.c", "scopes": ["s"], "password": "p"}]}"#, 1, "add \"interactive\": true to send it to the issuer"),
        (#"{"steps": [{"do": "token", "account": "a@b.c", "scopes": ["s"], "grant": "password", "password": "p"}]}"#, 1, "a silent request carries no credentials"),
        (#"{"steps": [{"do": "signIn", "account": "a@b.c", "silent": true, "password": "p"}]}"#, 1, "leave out \"silent\": true"),
        (#"{"steps": [{"do": "remediate", "account": "a@b.c", "silent": true, "password": "p"}]}"#, 1, "its 'password' would not be checked"),
        (#"{"steps": [{"do": "injectFault", "route": "token", "action": "explode"}]}"#, 1, "field 'action' must be one of"),
        (#"{"steps": [{"do": "expectEvents", "events": [{"kind": "x", "acount": "a"}]}]}"#, 1, "event pattern 1: unknown field 'acount'"),
        (#"{"steps": [{"do": "expectEvents", "absent": [{"kind": "x"}]}]}"#, 1, "field 'events' (patterns in order) or 'counts'"),
        (#"{"steps": [{"do": "expectEvents", "counts": [{"kind": "x"}]}]}"#, 1, "counted event pattern 1: field 'count' (how many must match) is required"),
        (#"{"steps": [{"do": "expectEvents", "counts": [{"kind": "x", "count": -1}]}]}"#, 1, "field 'count' must be an integer from 0 to 1000000, found -1"),
        (#"{"steps": [{"do": "expectEvents", "counts": [{"kind": "x", "count": 1.5}]}]}"#, 1, "field 'count' must be an integer"),
        (#"{"steps": [{"do": "expectEvents", "counts": [{"count": 1}]}]}"#, 1, "counted event pattern 1: field 'kind' (a string) is required"),
        (#"{"steps": [{"do": "expectRequests", "counts": [{"route": "token", "cuont": 1}]}]}"#, 1, "counted request pattern 1: field 'count' (how many"),
        (#"{"steps": [{"do": "expectRequests", "counts": [{"rute": "token", "count": 1}]}]}"#, 1, "counted request pattern 1: unknown field 'rute'"),
        (#"{"steps": [{"do": "expectRequests", "counts": {"route": "token", "count": 1}}]}"#, 1, "field 'counts' must be an array"),
        (#"{"steps": [{"do": "expectEnrollmentStatuses", "account": "a@b.c", "codes": [999]}]}"#, 1, "999 is not an enrollment status"),
        (#"{"steps": [{"do": "crashAfter", "point": "nowhere"}]}"#, 1, "must be MACHINE:STATE"),
        (#"{"steps": [{"do": "admin", "method": "GET", "path": "../etc"}]}"#, 1, "relative to /_admin/"),
        (#"{"steps": [{"do": "protect", "identity": "a@b.c", "text": "x", "as": "k"}, {"do": "unprotect", "data": "kk", "text": "x"}]}"#, 2,
         "field 'data' names \"kk\", which no earlier protect step keeps ('as'); kept so far: k"),
        (#"{"steps": [{"do": "expectProtectionInfo", "data": "k", "protected": true}, {"do": "protect", "text": "x", "as": "k"}]}"#, 1,
         "no earlier protect step keeps a result"),
        (#"{"steps": [{"do": "protect", "text": "x"}]}"#, 1, "field 'as' is required"),
        (#"{"steps": [{"do": "protect", "identity": 3, "text": "x", "as": "k"}]}"#, 1, "'identity' must be a UPN or null"),
        (#"{"steps": [{"do": "unprotect", "input": "x"}]}"#, 1, "unprotect: name at least one of text, protected"),
        (#"{"steps": [{"do": "unprotect", "input": "x", "data": "k", "text": "x"}]}"#, 1, "give 'data' (a name an earlier protect kept) or 'input'"),
        (#"{"steps": [{"do": "expectProtectionInfo", "input": "x", "error": "tampered", "owner": null}]}"#, 1, "'error' (the call is refused) cannot be given"),
        (#"{"steps": [{"do": "expectData", "account": "a@b.c", "owners": {"f": 3}}]}"#, 1, "'owners'.f must be a UPN"),
    ])
    func aBadStepNamesItsIndexAndTheReason(text: String, step: Int, reason: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.file == Self.file)
        #expect(error.step == step)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.hasPrefix("\(Self.file): step \(step): "))
    }

    @Test(arguments: [
        ("{\"steps\": [\n  {\"do\": \"signIn\",}\n]}", "not valid JSON at line 2"),
        (#"{"name": "x"}"#, "field 'steps' is required"),
        (#"{"steps": []}"#, "'steps' is empty"),
        (#"{"steps": [{"do": "clearFaults"}], "fixtures": "x.json"}"#, "the flow: unknown field 'fixtures'"),
        (#"{"steps": [{"do": "clearFaults"}], "fixture": "nowhere.json"}"#, "field 'fixture'"),
        (#"{"steps": [{"do": "clearFaults"}], "issuer": "down"}"#, "field 'issuer' must be"),
        (#"[1, 2]"#, "the flow must be a JSON object, found array"),
    ])
    func aBadFileNamesTheFileAndTheReason(text: String, reason: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.step == nil)
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func aFlowOfWebChecksAloneNeedsNoFixture() throws {
        // Outside any folder with mocks/fixtures (never written to disk).
        let directory = "/nonexistent-\(UUID().uuidString)"
        let file = directory + "/web-only.json"
        let app = Self.root + "/mocks/fixtures/apps/appbound-shop-Info.plist"
        let web = #"{"do": "expectAppBound", "events": [{"navigate": "https://shop.example/", "expect": "load"}]}"#
        func parse(_ text: String) throws(FlowError) -> Flow { try FlowParser.parse(Array(text.utf8), file: file) }

        let flow = try parse(#"{"app": "\#(app)", "steps": [\#(web)]}"#)
        #expect(flow.fixture == nil)
        #expect(!flow.needsServers)

        // A fixture the flow names is still checked.
        #expect(throws: FlowError(file: file, step: nil, reason: "field 'fixture': \(directory)/nowhere.json does not exist")) {
            try parse(#"{"app": "\#(app)", "fixture": "nowhere.json", "steps": [\#(web)]}"#)
        }
        // A step that needs mockauth: the file, the field, what is missing and the step that needs it.
        #expect(throws: FlowError(file: file, step: nil, reason: "field 'fixture': not given, and no mocks/fixtures/contoso.json above \(directory); "
            + "step 2 (signIn alice@contoso.com) runs against mockauth, which serves a tenant fixture; give \"fixture\" (a path relative to the flow file), or run it with --authority against a running mock")) {
            try parse(#"{"app": "\#(app)", "steps": [\#(web), {"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}"#)
        }
    }

    /// A flow in an app's own repository: no fixture when the run names the issuer, the run's
    /// app when it names none, and the installed demo files when nothing else is found.
    @Test func aFlowOutsideTheCheckoutTakesTheRunsIssuerAppAndInstalledDefaults() throws {
        let directory = "/nonexistent-\(UUID().uuidString)"
        let file = directory + "/my-flow.json"
        let app = Self.root + "/mocks/fixtures/apps/chatr-Info.plist"
        let text = #"{"steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}"#
        func parse(_ defaults: FlowDefaults) throws(FlowError) -> Flow { try FlowParser.parse(Array(text.utf8), file: file, defaults: defaults) }

        let given = try parse(FlowDefaults(app: app, issuerGiven: true))
        #expect(given.fixture == nil && given.app == app)
        #expect(throws: FlowError(file: file, step: nil, reason: "field 'app': not given, and no mocks/fixtures/apps/chatr-Info.plist above \(directory); "
            + "give \"app\" (a path relative to the flow file), or run --app PLIST")) {
            try parse(FlowDefaults(issuerGiven: true))
        }
        // Installed: PREFIX/share/compliance-orchestrator holds mocks/fixtures (this checkout stands in).
        let installed = try parse(FlowDefaults(dataDirectories: [Self.root]))
        #expect(installed.fixture == Self.root + "/mocks/fixtures/contoso.json" && installed.app == app)
    }

    /// `${NAME}` reaches every path field: fixture, app, entitlements and the hooks.
    @Test func parametersReachThePathFields() throws {
        let directory = "/nonexistent-\(UUID().uuidString)"
        let text = #"""
            {"fixture": "${repo}/mocks/fixtures/contoso.json", "app": "${repo}/mocks/fixtures/apps/${app}",
             "entitlements": "${repo}/mocks/fixtures/apps/chatr.entitlements", "wipeHook": "echo ${who}", "restartHook": "exit ${yes}",
             "parameters": {"app": "chatr-Info.plist", "yes": "0"},
             "steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}
            """#
        let flow = try FlowParser.parse(Array(text.utf8), file: directory + "/f.json", parameters: ["repo": Self.root, "who": "me"])
        #expect(flow.fixture == Self.root + "/mocks/fixtures/contoso.json")
        #expect(flow.app == Self.root + "/mocks/fixtures/apps/chatr-Info.plist")
        #expect(flow.entitlements == Self.root + "/mocks/fixtures/apps/chatr.entitlements")
        #expect(flow.wipeHook == "echo me" && flow.restartHook == "exit 0")
        #expect(throws: FlowError(file: directory + "/f.json", step: nil, reason: "the flow: field 'fixture': unknown parameter '${repo}': "
            + "give it with --param repo=VALUE or a default in the flow's 'parameters'")) {
            try FlowParser.parse(Array(text.utf8), file: directory + "/f.json", parameters: ["who": "me"])
        }
    }

    /// A hook of blanks would answer every question Success (`/bin/sh -c "  "` exits 0): the
    /// flow is invalid (65), as the daemon's option is a usage error.
    @Test(arguments: ["wipeHook", "restartHook", "identityHook"])
    func aBlankHookIsAnInvalidFlow(_ field: String) {
        for (value, reason) in [
            (#" \t "#, "the flow: field '\(field)' is blank (leave it out for \(Self.hookless[field]!))"),
            (#"exit 0\u0000"#, "the flow: field '\(field)' holds a NUL (a path or command would be cut there)"),
        ] {
            let text = #"{"\#(field)": "\#(value)", "steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}"#
            #expect(throws: FlowError(file: "/x/f.json", step: nil, reason: reason)) {
                try FlowParser.parse(Array(text.utf8), file: "/x/f.json")
            }
        }
    }

    static let hookless = [
        "wipeHook": "an app without a hook", "restartHook": "an app the daemon restarts itself",
        "identityHook": "an app whose answers the daemon gives",
    ]

    /// A NUL in a path field would cut the path there: the run used another file than the one
    /// the flow names.
    @Test(arguments: ["fixture", "app", "entitlements"])
    func aNULInAPathFieldIsAnInvalidFlow(_ field: String) {
        let text = #"{"\#(field)": "/tmp/a.json\u0000/elsewhere", "steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}"#
        #expect(throws: FlowError(file: "/x/f.json", step: nil, reason: "the flow: field '\(field)' holds a NUL (a path or command would be cut there)")) {
            try FlowParser.parse(Array(text.utf8), file: "/x/f.json")
        }
    }

    /// A flow file whose name is one character (`f`): swift-corelibs-foundation's NSString path
    /// trimming traps on it (`compliancectl run f` crashed with SIGILL).
    @Test func aOneCharacterFileNameParses() throws {
        let flow = try FlowParser.parse(Array(#"{"steps": [{"do": "signIn", "account": "alice@contoso.com", "password": "p"}]}"#.utf8), file: "f")
        #expect(flow.name == "f")
    }

    @Test func everyFlowInTheRepositoryParses() throws {
        let files = try FlowSuite.files([Self.root + "/flows"])
        #expect(files.count >= 20)
        let flows = try FlowSuite.load(files).get()
        #expect(Set(flows.map(\.name)).count == flows.count, "flow names are unique")
    }

    @Test func aMissingPathIsNamed() {
        #expect(throws: FlowError(file: "/nowhere/flows", step: nil, reason: "no such file or directory")) { try FlowSuite.files(["/nowhere/flows"]) }
    }
}

/// `${NAME}` parameters and `"grant": "password"`.
@Suite struct FlowParameterTests {
    static func parse(_ text: String, _ parameters: [String: String] = [:]) throws(FlowError) -> Flow {
        try FlowParser.parse(Array(text.utf8), file: FlowParserTests.file, parameters: parameters)
    }

    static let flow = """
        {"parameters": {"account": "erin@example.org", "pw": "default"},
         "steps": [{"do": "signIn", "account": "${account}", "password": "x${pw}y", "grant": "password", "note": "${un closed"}]}
        """

    @Test func placeholdersTakeTheGivenValueElseTheDefault() throws {
        guard case .signIn("erin@example.org", .passwordGrant("xdefaulty"), false, nil) = try Self.parse(Self.flow).steps[0].action else {
            Issue.record("defaults: \(try Self.parse(Self.flow).steps[0].action)")
            return
        }
        let given = try Self.parse(Self.flow, ["pw": "s3cret", "unused": "1"])
        guard case .signIn(_, .passwordGrant("xs3crety"), _, _) = given.steps[0].action else {
            Issue.record("given: \(given.steps[0].action)")
            return
        }
        #expect(given.steps[0].note == "${un closed", "an unclosed placeholder is text")
    }

    @Test func aMissingParameterOrABadGrantNamesTheStep() {
        let missing = #expect(throws: FlowError.self) {
            try Self.parse(#"{"steps": [{"do": "advanceClock", "by": "1h"}, {"do": "signIn", "account": "${who}"}]}"#)
        }
        #expect(missing?.step == 2 && missing?.reason.contains("unknown parameter '${who}'") == true, "\(String(describing: missing))")
        let notString = #expect(throws: FlowError.self) { try Self.parse(#"{"parameters": {"n": 1}, "steps": [{"do": "advanceClock", "by": "1h"}]}"#) }
        #expect(notString?.reason.contains("parameter 'n' must be a string") == true)
        for step in [
            #"{"do": "signIn", "account": "a@b.c", "password": "p", "grant": "device"}"#,
            #"{"do": "signIn", "account": "a@b.c", "grant": "password"}"#,
            #"{"do": "signIn", "account": "a@b.c", "password": "p", "cancel": true, "grant": "password"}"#,
        ] {
            let error = #expect(throws: FlowError.self) { try Self.parse(#"{"steps": [\#(step)]}"#) }
            #expect(error?.reason.contains("grant") == true, "\(step): \(String(describing: error))")
        }
    }
}
