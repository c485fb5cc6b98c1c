import ChildProcess
import HTTPClient
import Foundation
import JSON
import Testing
import LocalServers

/// The daemon commands of `compliancectl` against a real complianced (child) and mockauth
/// (in-process).
@Suite struct DaemonCommandTests {
    static func withDaemon(_ body: @Sendable (_ stateDirectory: String, InProcessMockAuth.Running) async throws -> Void) async throws {
        try await withDaemonProcess { directory, mock, _ in try await body(directory, mock) }
    }

    /// As ``withDaemon(_:)``, with the daemon's process (to signal it).
    /// `app` is a profile in mocks/fixtures/apps; with `tls` the mock also listens on https.
    static func withDaemonProcess(
        app: String = "chatr-Info.plist", tls: Bool = false,
        _ body: @Sendable (_ stateDirectory: String, InProcessMockAuth.Running, ChildServer) async throws -> Void
    ) async throws {
        try await InProcessMockAuth.run(tls: tls) { mock in
            let directory = NSTemporaryDirectory() + "ctl-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let daemon = try ChildServer("complianced", arguments: [
                "--state-dir", directory, "--app", CLI.root + "/mocks/fixtures/apps/" + app, "--authority", mock.authority,
                "--clock", "virtual", "--log-level", "warning",
            ])
            guard await daemon.firstLine(timeout: .seconds(30)) != nil else {
                await daemon.stop()
                throw CLIError("complianced did not start: \(daemon.stderr)")
            }
            do {
                try await body(directory, mock, daemon)
            } catch {
                await daemon.stop()
                throw error
            }
            await daemon.stop()
        }
    }

    @Test func anEngineerDrivesTheDaemonFromTheCommandLine() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(signIn.stdout.contains("alice@contoso.com: Compliant (0) — signed in"), "\(signIn.stdout)")
            #expect(signIn.stdout.contains("server answer: protectionPolicyRequired [53005] suberror protection_policy_required"))
            #expect(signIn.stdout.contains("remediation: Compliant (0) — Account is compliant"))
            #expect(!signIn.stdout.contains("Passw0rd!") && !signIn.stdout.contains("eyJ"), "no password or token printed")

            let token = try await CLI.run(["token", "ALICE@contoso.com", "--scope", "api://contoso-chat/Chat.Read", "--print-token"] + at)
            #expect(token.status == 0 && token.stdout.hasPrefix("eyJ") && token.stdout.split(separator: ".").count == 3)

            let put = try await CLI.run(["data", "put", "alice@contoso.com", "plan.txt", "--text", "the plan"] + at)
            #expect(put.status == 0 && put.stdout.contains("stored plan.txt for alice@contoso.com: 8 bytes"))
            let get = try await CLI.run(["data", "get", "alice@contoso.com", "plan.txt"] + at)
            #expect(get.stdout == "the plan")
            let list = try await CLI.run(["data", "list", "alice@contoso.com", "--json"] + at)
            #expect(list.json["files"]?[0]?["name"] == "plan.txt")

            let clock = try await CLI.run(["clock", "advance", "8h"] + at)
            #expect(clock.status == 0 && clock.stdout.contains("fired checkIn for alice@contoso.com"), "\(clock.stdout)")

            let accounts = try await CLI.run(["accounts"] + at)
            #expect(accounts.stdout.contains("ACCOUNT"))
            #expect(accounts.stdout.contains("PoliciesHaveNotChanged (101)"), "\(accounts.stdout)")

            let events = try await CLI.run(["events", "--json"] + at)
            let kinds = events.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.compactMap { $0["kind"]?.stringValue }
            #expect(kinds.contains("compliance") && kinds.contains("timerFired"))
            let since = try await CLI.run(["events", "--since", "1000"] + at)
            #expect(since.status == 0 && since.stdout.isEmpty)

            let status = try await CLI.run(["status", "--json"] + at)
            #expect(status.json["health"]?["clock"] == "virtual")
            #expect(status.json["app"]?["managedAccount"] == "alice@contoso.com" && status.json["app"]?["registeredAccounts"] == ["alice@contoso.com"])
            let text = try await CLI.run(["status"] + at)
            #expect(text.stdout.contains("registered accounts: [alice@contoso.com]") && text.stdout.contains("managed account: alice@contoso.com (policy version"), "\(text.stdout)")
            #expect(text.stdout.contains("allowed accounts: [alice@contoso.com, bob@contoso.com, carol@contoso.com]"), "\(text.stdout)")

            let deregister = try await CLI.run(["deregister", "alice@contoso.com", "--wipe"] + at)
            #expect(deregister.status == 0 && deregister.stdout.contains("UnenrollmentSuccess (104), wiped"), "\(deregister.stdout)")
            let gone = try await CLI.run(["data", "get", "alice@contoso.com", "plan.txt"] + at)
            #expect(gone.status == 1 && gone.stderr.contains("plan.txt"))
        }
    }

    @Test func refusalsAndNonCompliantStatusesExitOne() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let carol = try await CLI.run(["sign-in", "carol@contoso.com", "--password-stdin"] + at, input: "Passw0rd!\n")
            #expect(carol.status == 1)
            #expect(carol.stdout.contains("NotCompliant (1) — not signed in") && carol.stdout.contains("LicensedNotTargeted (225)"), "\(carol.stdout)")
            let cancelled = try await CLI.run(["remediate", "alice@contoso.com", "--cancel"] + at)
            #expect(cancelled.status == 1 && cancelled.stdout.contains("UserCancelled (5)"))
            let silent = try await CLI.run(["remediate", "alice@contoso.com", "--silent", "--json"] + at)
            #expect(silent.status == 1 && silent.json["report"]?["status"]?["name"] == "InteractionRequired")
            let badName = try await CLI.run(["data", "put", "alice@contoso.com", "../escape", "--text", "x"] + at)
            #expect(badName.status == 64 && badName.stderr.contains("the file name"), "\(badName.stderr)")
            let spaced = try await CLI.run(["sign-in", "a b@contoso.com", "--silent"] + at)
            #expect(spaced.status == 64 && !spaced.stderr.isEmpty, "a UPN the daemon refuses is a usage error: \(spaced.status) \(spaced.stderr)")
            let notVirtual = try await CLI.run(["clock", "advance", "soon"] + at)
            #expect(notVirtual.status == 64 && notVirtual.stderr.contains("'soon' is not a duration"))
        }
    }

    /// `compliancectl data-protection`: the managed account's answers, an unmanaged one's, a
    /// misspelt account (exit 1, named), a flag without its option (64).
    @Test func dataProtectionShowsWhatThePolicyAllows() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let own = try await CLI.run(["data-protection", "alice@contoso.com", "--owner", "alice@contoso.com", "--scheme", "ms-excel", "--known-managed-app-scheme"] + at)
            #expect(own.status == 0, "\(own.stderr)")
            #expect(own.stdout.contains("alice@contoso.com (managed); owner: alice@contoso.com"), "\(own.stdout)")
            #expect(own.stdout.contains("save to: allowed [oneDriveForBusiness, sharePoint, accountDocument]"), "\(own.stdout)")
            #expect(own.stdout.contains("isFileEncryptionRequired: true") && own.stdout.contains("isURLAllowed: true"), "\(own.stdout)")
            let json = try await CLI.run(["data-protection", "alice@contoso.com", "--json"] + at)
            #expect(json.json["saveTo"]?["oneDriveForBusiness"] == false, "no owner: unmanaged location")
            #expect(json.json["notificationPolicy"] == "allow")
            let nobody = try await CLI.run(["data-protection", "--json"] + at)
            #expect(nobody.status == 0 && nobody.json["managed"] == false && nobody.json["identity"] == .null)
            let typo = try await CLI.run(["data-protection", "alcie@contoso.com"] + at)
            #expect(typo.status == 1 && typo.stderr.contains("alcie@contoso.com"), "\(typo.status) \(typo.stderr)")
            let usage = try await CLI.run(["data-protection", "alice@contoso.com", "--known-managed-app-scheme"] + at)
            #expect(usage.status == 64 && usage.stderr.contains("--known-managed-app-scheme needs --scheme"), "\(usage.stderr)")
        }
    }

    /// The daemon options may come before the command (`compliancectl --state-dir DIR status`,
    /// as `status --help` shows); `accounts` shows the compliance a sign-in printed, also one
    /// that needed no remediation; a token line says where the token came from.
    @Test func daemonOptionsFirstComplianceAfterSignInAndTheTokensSource() async throws {
        try await Self.withDaemon { directory, _ in
            let signIn = try await CLI.run(
                ["--state-dir", directory, "sign-in", "bob@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"], input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stdout)\(signIn.stderr)")
            #expect(signIn.stdout.contains("bob@contoso.com: Compliant (0) — signed in") && signIn.stdout.contains(", from the issuer"), "\(signIn.stdout)")
            #expect(!signIn.stdout.contains("remediation:"), "bob is not CA-targeted: no remediation")

            let accounts = try await CLI.run(["--state-dir", directory, "--json", "accounts", "bob@contoso.com"])
            #expect(accounts.status == 0 && accounts.json["compliance"]?["name"] == "Compliant", "\(accounts.stdout)\(accounts.stderr)")
            let table = try await CLI.run(["--socket=\(directory)/control.sock", "accounts"])
            #expect(table.stdout.contains("Compliant (0)"), "\(table.stdout)\(table.stderr)")

            let status = try await CLI.run(["--state-dir", directory, "status"])
            #expect(status.status == 0 && status.stdout.contains("bob@contoso.com"), "\(status.stdout)\(status.stderr)")

            let cached = try await CLI.run(["--state-dir", directory, "token", "bob@contoso.com", "--scope", "api://contoso-chat/Chat.Read"])
            #expect(cached.stdout.contains(", from the cache"), "\(cached.stdout)")
            let json = try await CLI.run(["token", "bob@contoso.com", "--scope", "api://contoso-chat/Chat.Read", "--state-dir", directory, "--json"])
            #expect(json.json["fromCache"] == true, "\(json.stdout)")
            _ = try await CLI.run(["clock", "advance", "2h", "--state-dir", directory])
            let refreshed = try await CLI.run(["token", "bob@contoso.com", "--scope", "api://contoso-chat/Chat.Read", "--state-dir", directory])
            #expect(refreshed.stdout.contains(", from the issuer"), "the access token expired: \(refreshed.stdout)")

            let unknown = try await CLI.run(["--state-dir", directory, "--frobnicate", "status"])
            #expect(unknown.status == 64, "\(unknown.stderr)")
        }
    }

    /// `compliancectl protect`, `protection-info`, `unprotect` and `data info`: a buffer
    /// round trip through files, a file's owner, and errors named with their exit status.
    @Test func protectUnprotectAndFileOwners() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let blob = directory + "/plan.protected"
            let protect = try await CLI.run(["protect", "--identity", "alice@contoso.com", "--text", "the plan", "-o", blob] + at)
            #expect(protect.status == 0 && protect.stdout.hasPrefix("wrote \(blob) ("), "success goes to stdout: \(protect.stdout)")
            #expect(protect.stdout.contains("bytes): owner: alice@contoso.com; encrypted") && protect.stderr.isEmpty, "\(protect.stderr)")
            let piped = try await CLI.run(["protect", "--identity", "alice@contoso.com", "--text", "the plan"] + at)
            #expect(piped.status == 0 && !piped.stdout.contains("owner:"), "without -o stdout holds the bytes alone")
            #expect(piped.stderr.contains("owner: alice@contoso.com; encrypted"), "\(piped.stderr)")
            let info = try await CLI.run(["protection-info", "--file", blob] + at)
            #expect(info.status == 0 && info.stdout.contains("owner: alice@contoso.com; encrypted"), "\(info.stdout)")
            let plain = try await CLI.run(["unprotect", "--file", blob] + at)
            #expect(plain.status == 0 && plain.stdout == "the plan", "\(plain.stdout) \(plain.stderr)")
            let nobody = try await CLI.run(["protect", "--text", "x", "--json"] + at)
            #expect(nobody.json["owner"] == .null && nobody.json["encrypted"] == false)
            let foreign = try await CLI.run(["protection-info", "--text", "hello"] + at)
            #expect(foreign.stdout.contains("not protected"), "\(foreign.stdout)")
            let broken = try await CLI.run(["unprotect", "--text", "CPRT\u{7}x"] + at)
            #expect(broken.status == 1 && broken.stderr.contains("version 7"), "\(broken.status) \(broken.stderr)")

            let put = try await CLI.run(["data", "put", "alice@contoso.com", "a.txt", "--text", "x"] + at)
            #expect(put.status == 0, "\(put.stderr)")
            let owner = try await CLI.run(["data", "info", "alice@contoso.com", "a.txt"] + at)
            #expect(owner.status == 0 && owner.stdout.contains("a.txt: owner alice@contoso.com, encrypted"), "\(owner.stdout)")
            let list = try await CLI.run(["data", "list", "alice@contoso.com"] + at)
            #expect(list.stdout.contains("OWNER") && list.stdout.contains("alice@contoso.com"), "\(list.stdout)")
            let missing = try await CLI.run(["data", "info", "alice@contoso.com", "b.txt"] + at)
            #expect(missing.status == 1 && missing.stderr.contains("b.txt"), "\(missing.status) \(missing.stderr)")
        }
    }

    /// `-o PATH` that cannot be written (a directory, a missing folder): the path and the
    /// system's reason on stderr, exit 74, no usage text, and no file (partial or temporary)
    /// left; a written file is the owner's alone.
    @Test func anUnwritableOutputIsNamedWithItsReason() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let put = try await CLI.run(["data", "put", "alice@contoso.com", "a.txt", "--text", "x"] + at)
            #expect(put.status == 0, "\(put.stderr)")
            let out = directory + "/out"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            let missing = out + "/no-such-folder/x.protected"
            let blob = out + "/plan.protected"
            let cases: [([String], String, String)] = [
                (["protect", "--identity", "alice@contoso.com", "--text", "the plan", "-o", out], out, "Is a directory"),
                (["protect", "--identity", "alice@contoso.com", "--text", "the plan", "-o", missing], missing, "No such file or directory"),
                (["unprotect", "--text", "plain", "-o", out], out, "Is a directory"),
                (["data", "get", "alice@contoso.com", "a.txt", "-o", out], out, "Is a directory"),
            ]
            for (arguments, path, reason) in cases {
                let result = try await CLI.run(arguments + at)
                #expect(result.status == 74, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr == "compliancectl: cannot write \(path): \(reason)\n", "\(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Usage:") && !result.stdout.contains("wrote"), "\(arguments): \(result.stdout)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "\(arguments): a file was left")
            }
            let written = try await CLI.run(["protect", "--identity", "alice@contoso.com", "--text", "the plan", "-o", blob] + at)
            #expect(written.status == 0 && written.stdout.hasPrefix("wrote \(blob) ("), "\(written.stdout)\(written.stderr)")
            let mode = try FileManager.default.attributesOfItem(atPath: blob)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["plan.protected"])
            let fix = try await CLI.run(["profile", "fix", CLI.root + "/mocks/fixtures/apps/broken-Info.plist", "-o", out])
            #expect(fix.status == 74 && fix.stderr.contains("\(out): cannot write (Is a directory)"), "\(fix.status) \(fix.stderr)")
        }
    }

    /// `compliancectl config`: the configuration the policy brought, one key, a query, errors.
    @Test func configShowsTheAppConfigurationAndOneKey() async throws {
        try await Self.withDaemon { directory, mock in
            let at = ["--state-dir", directory]
            var request = HTTPClientRequest(
                method: .put, url: mock.url + "/_admin/app-config",
                body: Array(#"{"configs": [{"appId": "chatr", "isDefault": true, "settings": {"theme": "light", "size": "3"}}, {"appId": "chatr", "users": ["alice@contoso.com"], "settings": {"size": "10"}}]}"#.utf8))
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            let configured = try await HTTPClient().execute(request)
            #expect(configured.status == 200, "\(configured.bodyText)")
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let all = try await CLI.run(["config", "alice@contoso.com"] + at)
            #expect(all.status == 0 && all.stdout.contains("alice@contoso.com: 2 configuration(s)"), "\(all.stdout)")
            #expect(all.stdout.contains("1. tenant default: theme=light, size=3") && all.stdout.contains("2. targeted: size=10"), "\(all.stdout)")
            let size = try await CLI.run(["config", "alice@contoso.com", "size", "--query", "max"] + at)
            #expect(size.stdout.contains("alice@contoso.com: size = 10 (query max)") && size.stdout.contains("as a number: 10"), "\(size.stdout)")
            let json = try await CLI.run(["config", "alice@contoso.com", "theme", "--json"] + at)
            #expect(json.json["value"]?["string"] == "light" && json.json["value"]?["hasConflict"] == false)
            let unset = try await CLI.run(["config", "alice@contoso.com", "nothing"] + at)
            #expect(unset.status == 0 && unset.stdout.contains("nothing is not set"))
            let usage = try await CLI.run(["config", "alice@contoso.com", "--query", "max"] + at)
            #expect(usage.status == 64 && usage.stderr.contains("--query needs a key"), "\(usage.stderr)")
            let typo = try await CLI.run(["config", "alcie@contoso.com"] + at)
            #expect(typo.status == 1 && typo.stderr.contains("alcie@contoso.com"))
        }
    }

    /// `compliancectl identity` and `sign-in` without an account: the switch results, exit
    /// statuses, usage errors.
    @Test func identityShowsAndSwitchesTheAppsIdentities() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let nobody = try await CLI.run(["sign-in", "--silent"] + at)
            #expect(nobody.status == 1 && nobody.stderr.contains("name the account"), "\(nobody.status) \(nobody.stderr)")
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let shown = try await CLI.run(["identity"] + at)
            #expect(shown.status == 0 && shown.stdout.contains("UI identity:           unset"), "\(shown.stdout)")
            #expect(shown.stdout.contains("effective UI identity: no user  (MultiIdentity)"), "\(shown.stdout)")
            let toAlice = try await CLI.run(["identity", "ui", "alice@contoso.com"] + at)
            #expect(toAlice.status == 0 && toAlice.stdout.contains("setUIPolicyIdentity alice@contoso.com: Success"), "\(toAlice.stdout)")
            let toDave = try await CLI.run(["identity", "ui", "dave@contoso.com", "--json"] + at)
            #expect(toDave.status == 1 && toDave.json["result"] == "NotAllowed", "\(toDave.stdout)")
            let process = try await CLI.run(["identity", "process", "dave@contoso.com"] + at)
            #expect(process.status == 1 && process.stderr.contains("dave@contoso.com is not allowed"), "\(process.stderr)")
            let usage = try await CLI.run(["identity", "ui", "not-an-account"] + at)
            #expect(usage.status == 64 && usage.stderr.contains("is not an account"), "\(usage.stderr)")
            let again = try await CLI.run(["sign-in", "--silent", "--scope", "api://contoso-chat/Chat.Read"] + at)
            #expect(again.status == 0 && again.stdout.contains("alice@contoso.com"), "\(again.stdout) \(again.stderr)")
        }
    }

    /// `webview decide` without `--app` and `clipboard decide` ask the running daemon: its UI
    /// identity and alice's policy decide.
    @Test func webViewAndClipboardDecisionsFollowTheDaemon() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let before = try await CLI.run(["webview", "decide", "--view-policy", "currentIdentity", "--url", "https://www.bing.com/", "--internal-host", "contoso.com"] + at)
            #expect(before.status == 0 && before.stdout.contains("UI identity: none") && before.stdout.contains("→ loadInView"), "\(before.stdout) \(before.stderr)")
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin", "--scope", "api://contoso-chat/Chat.Read"] + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(try await CLI.run(["identity", "ui", "alice@contoso.com"] + at).status == 0)
            let after = try await CLI.run(["webview", "decide", "--view-policy", "currentIdentity", "--url", "https://www.bing.com/", "--internal-host", "contoso.com", "--json"] + at)
            #expect(after.status == 0 && after.json["dataIdentity"]?["kind"] == "managed", "\(after.stdout)")
            #expect(after.json["managedBrowserURL"] == "microsoft-edge-https://www.bing.com/", "\(after.stdout)")
            let copy = try await CLI.run(["clipboard", "decide", "--from", "app", "--to", "unmanagedApp"] + at)
            #expect(copy.status == 0 && copy.stdout.hasPrefix("not allowed (clipboardRestriction: managedAppsWithPasteIn)"), "\(copy.stdout) \(copy.stderr)")
            let paste = try await CLI.run(["clipboard", "decide", "--from", "unmanagedApp", "--to", "webView", "--to-policy", "currentIdentity", "--json"] + at)
            #expect(paste.status == 0 && paste.json["allowed"] == true && paste.json["to"]?["kind"] == "managed", "\(paste.stdout)")
            // Profile-only options go with --app; a bad side is a usage error.
            let offline = try await CLI.run(["webview", "decide", "--ui-identity", "managed"] + at)
            #expect(offline.status == 64 && offline.stderr.contains("--ui-identity describes an app offline and goes with --app"), "\(offline.stderr)")
            let side = try await CLI.run(["clipboard", "decide", "--from", "desk", "--to", "app"] + at)
            #expect(side.status == 64 && side.stderr.contains("--from must be app, webView, managedApp, unmanagedApp, found 'desk'"), "\(side.stderr)")
            let stray = try await CLI.run(["clipboard", "decide", "--from", "app", "--from-policy", "unset", "--to", "managedApp"] + at)
            #expect(stray.status == 64 && stray.stderr.contains("--from-policy goes with --from webView"), "\(stray.stderr)")
            let frame = try await CLI.run(["webview", "decide", "--frame", "iframe"] + at)
            #expect(frame.status == 64 && frame.stderr.contains("go with --url"), "\(frame.stderr)")
        }
    }

    @Test func flowsRunAgainstARunningDaemonGivenBySocket() async throws {
        try await Self.withDaemon { directory, mock in
            let socket = ["--socket", directory + "/control.sock", "--authority", mock.authority]
            let passed = try await CLI.run(["run", CLI.root + "/flows/seed-mam-ca-always-applied.json"] + socket)
            #expect(passed.status == 0, "\(passed.stdout)")
            #expect(!passed.stderr.contains("already knows"), "a fresh daemon gets no note: \(passed.stderr)")
            #expect(passed.stderr.contains("each flow first resets the mock at"), "the given mock's reset is said: \(passed.stderr)")
            let account = try await CLI.run(["accounts", "alice@contoso.com", "--json", "--state-dir", directory])
            #expect(account.json["compliance"]?["name"] == "Compliant", "the flow ran in the given daemon")
            let restart = try await CLI.run(["run", CLI.root + "/flows/restart-graceful-keeps-state.json"] + socket)
            #expect(restart.status == 1)
            // The daemon is no longer fresh: the run says so, naming what it already knows.
            #expect(restart.stderr.contains("compliancectl: note: the daemon at \(directory)/control.sock already knows 1 account (alice@contoso.com)"), "\(restart.stderr)")
            #expect(restart.stdout.contains("restartDaemon needs a daemon started by compliancectl run (not --socket)"), "\(restart.stdout)")
        }
    }

    @Test func eventsFollowPrintsNewEventsAsTheyHappen() async throws {
        try await Self.withDaemon { directory, _ in
            let follower = try ChildProcess(
                executable: ChildServer.executable("compliancectl"), arguments: ["events", "--follow", "--json", "--state-dir", directory])
            try await Task.sleep(for: .milliseconds(300))
            _ = try await CLI.run(["clock", "advance", "1h", "--state-dir", directory])
            let deadline = ContinuousClock.now + .seconds(20)
            while !follower.standardOutput.contains("clockAdvanced"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(follower.standardOutput.contains("\"kind\":\"clockAdvanced\""), "\(follower.standardOutput)")
            #expect(follower.isRunning, "--follow keeps waiting")
            await follower.stop()
        }
    }

    @Test func eventsFollowEndsWhenItsReaderGoesAway() async throws {
        try await Self.withDaemon { directory, _ in
            // No event comes after the first (daemonStarted): without the watch on stdout the
            // follower would wait in its long poll, and the pipeline with it, until the timeout.
            let pipeline = try await Command.run(
                "/bin/sh", ["-c", #""$0" events --follow --state-dir "$1" | head -1"#, ChildServer.executable("compliancectl"), directory],
                timeout: .seconds(25))
            #expect(!pipeline.timedOut, "the follower outlived its reader: \(pipeline.stderr)")
            #expect(pipeline.stderr.isEmpty, "the follower ended without a word: \(pipeline.stderr)")
            #expect(pipeline.stdout.contains("daemonStarted") && pipeline.stdout.split(separator: "\n").count == 1, "\(pipeline.stdout)")
        }
    }

    /// A password given to a silent request was dropped by the command line before the
    /// daemon (which refuses silent requests with credentials) saw it: the cache answered
    /// Compliant, exit 0, whatever the password. Such a request is a usage error (64); with
    /// --interactive the same wrong password goes to the issuer and fails.
    @Test func aPasswordIsNeverDroppedForTheCache() async throws {
        try await Self.withDaemon { directory, _ in
            let at = ["--state-dir", directory]
            let scope = ["--scope", "api://contoso-chat/Chat.Read"]
            let signIn = try await CLI.run(["sign-in", "alice@contoso.com", "--password-stdin"] + scope + at, input: "Passw0rd!\n")
            #expect(signIn.status == 0, "\(signIn.stdout)\(signIn.stderr)")
            for arguments in [
                ["token", "alice@contoso.com", "--password-stdin"] + scope,
                ["sign-in", "alice@contoso.com", "--silent", "--password-stdin"] + scope,
                ["remediate", "alice@contoso.com", "--silent", "--password-stdin"],
            ] {
                let silent = try await CLI.run(arguments + at, input: "wrong-password\n")
                #expect(silent.status == 64 && silent.stderr.contains("--password-stdin has no use with a silent request"),
                        "\(arguments): \(silent.status) \(silent.stdout)\(silent.stderr)")
                #expect(!silent.stdout.contains("Compliant (0)"), "\(arguments): a wrong password answered from the cache")
            }
            let asked = try await CLI.run(["token", "alice@contoso.com", "--interactive", "--password-stdin"] + scope + at, input: "wrong-password\n")
            #expect(asked.status == 1 && asked.stdout.contains("50126"), "\(asked.stdout)\(asked.stderr)")
            let cached = try await CLI.run(["token", "alice@contoso.com"] + scope + at)
            #expect(cached.status == 0 && cached.stdout.contains("from the cache"), "the failed attempt left the session: \(cached.stdout)")
        }
    }

    @Test func anUnreachableDaemonAndUsageErrorsHaveTheirOwnStatus() async throws {
        let unreachable = try await CLI.run(["status", "--socket", "/nonexistent/control.sock"])
        #expect(unreachable.status == 69)
        #expect(unreachable.stderr.contains("complianced is not reachable at its control socket /nonexistent/control.sock"))
        let noDaemon = try await CLI.run(["accounts"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(noDaemon.status == 64 && noDaemon.stderr.contains("--socket"))
        let noScope = try await CLI.run(["token", "alice@contoso.com", "--socket", "/tmp/x.sock"])
        #expect(noScope.status == 64 && noScope.stderr.contains("--scope"))
        let badAccount = try await CLI.run(["sign-in", "alice", "--socket", "/tmp/x.sock"])
        #expect(badAccount.status == 64 && badAccount.stderr.contains("'alice' is not an account"))
        // `clock advance`: a duration with a leading `-` is no option, and gets its own error.
        for (arguments, message) in [
            (["-5"], "'-5': the virtual clock only moves forward"), (["--", "-5h"], "'-5h': the virtual clock only moves forward"),
            (["--sokcet"], "Unknown option '--sokcet'"), (["8h", "2h"], "one duration expected, got '8h' '2h'"),
            ([], "Missing expected argument '<duration>'"), (["soon"], "'soon' is not a duration"),
        ] {
            let advance = try await CLI.run(["clock", "advance", "--socket", "/tmp/x.sock"] + arguments)
            #expect(advance.status == 64 && advance.stderr.contains(message), "\(arguments): \(advance.status) \(advance.stderr)")
        }
        // With no daemon given too: the duration's error, not the help (`-24h` holds `h`).
        let backwardNoDaemon = try await CLI.run(["clock", "advance", "-24h"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(
            backwardNoDaemon.status == 64 && backwardNoDaemon.stderr.contains("'-24h': the virtual clock only moves forward")
                && !backwardNoDaemon.stdout.contains("OVERVIEW"),
            "\(backwardNoDaemon.status) \(backwardNoDaemon.stdout) \(backwardNoDaemon.stderr)")
        let advanceNoDaemon = try await CLI.run(["clock", "advance", "24h"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(advanceNoDaemon.status == 64 && advanceNoDaemon.stderr.contains("no daemon given"), "\(advanceNoDaemon.stderr)")
        let help = try await CLI.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("69  the daemon"))
    }

    /// No daemon at the socket: the error names the socket path and what is wrong with it, and
    /// how to start the daemon or name its socket, not libcurl's "localhost port 80" (the
    /// placeholder URL's); exit 69.
    @Test func anUnreachableDaemonIsNamedByItsSocketPath() async throws {
        let directory = NSTemporaryDirectory() + "ctl-gone-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A socket no daemon listens on any more: bound, never listening, closed.
        let dead = directory + "/control.sock"
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(dead.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(descriptor)
        #expect(bound == 0)
        let plain = directory + "/plain"
        FileManager.default.createFile(atPath: plain, contents: Data())
        let cases: [([String], [String: String]?, String, String)] = [
            (["status", "--socket", "/nonexistent/control.sock"], nil, "/nonexistent/control.sock", "no such file"),
            (["accounts"], ["COMPLIANCED_SOCKET": "/nonexistent/env.sock"], "/nonexistent/env.sock", "no such file"),
            (["--state-dir", directory, "status"], nil, dead, "nothing listens on it"),
            (["status", "--socket", plain], nil, plain, "it is not a socket"),
            (["status", "--socket", directory], nil, directory, "it is a directory"),
        ]
        for (arguments, environment, path, reason) in cases {
            let result = try await CLI.run(arguments, environment: environment)
            #expect(result.status == 69, "\(arguments): \(result.status)")
            #expect(result.stderr.hasPrefix("compliancectl: complianced is not reachable at its control socket \(path): \(reason)"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("COMPLIANCED_SOCKET") && result.stderr.contains("complianced --state-dir"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("port 80") && !result.stderr.contains("localhost"), "\(arguments): \(result.stderr)")
        }
        let json = try await CLI.run(["status", "--json", "--socket", "/nonexistent/control.sock"])
        #expect(json.status == 69 && json.json["error"]?["code"] == "unreachable", "\(json.stdout)")
        let message = json.json["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("/nonexistent/control.sock: no such file") && !message.contains("port 80"), "\(message)")
    }

    /// An event whose text came from an issuer (a suberror, an error description) holding C1
    /// or bidirectional controls, which JSON keeps as they are: `events` prints them escaped.
    /// The daemon here is a one-answer stand-in on a unix socket (Python), so the text can be
    /// anything an issuer could send.
    @Test func eventsPrintsAnIssuersTextEscaped() async throws {
        let directory = NSTemporaryDirectory() + "ctl-events-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            json, socket, sys = (__import__(name) for name in ("json", "socket", "sys"))
            server = socket.socket(socket.AF_UNIX)
            server.bind(sys.argv[1]); server.listen(1); print("ready", flush=True)
            connection, _ = server.accept(); connection.recv(65536)
            body = json.dumps({"events": [{"seq": 7, "time": 0, "account": "alice@contoso.com", "kind": "tokenRefused",
                "payload": {"suberror": "x\\u001b]0;T\\u0007\\u009b31m\\u202e\\u2066y"}}]}, ensure_ascii=False).encode()
            connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body) + body)
            connection.close()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, directory + "/control.sock"]
        let ready = Pipe()
        python.standardOutput = ready
        try python.run()
        defer { if python.isRunning { python.terminate() }; python.waitUntilExit() }
        #expect(String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        let result = try await CLI.run(["events", "--socket", directory + "/control.sock"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("#7 ") && result.stdout.contains("\\u{9B}31m\\u{202E}\\u{2066}y"), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\u{2066}" }, "\(result.stdout)")
    }

    /// Daemon options before the command, and no command: the overview `compliancectl`
    /// alone prints, not "Unknown option" for an option the commands take.
    @Test func daemonOptionsWithoutACommandPrintTheOverview() async throws {
        let alone = try await CLI.run([])
        #expect(alone.status == 0 && alone.stdout.contains("OVERVIEW"), "\(alone.status) \(alone.stderr)")
        for options in [["--state-dir", "/tmp/cd"], ["--socket=/tmp/cd/control.sock"], ["--json"], ["--state-dir", "/tmp/cd", "--json"]] {
            let result = try await CLI.run(options)
            #expect(result.status == alone.status && result.stdout == alone.stdout, "\(options): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Unknown option"), "\(options): \(result.stderr)")
        }
        let unknown = try await CLI.run(["--state-dir", "/tmp/cd", "--frobnicate"])
        #expect(unknown.status == 64 && unknown.stderr.contains("Unknown option '--frobnicate'"), "\(unknown.stderr)")
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
