import Foundation
import HTTPClient
import JSON
import Testing
import LocalServers
import ChildProcess

/// Hostile requests to the real daemon's control API (beyond ControlAPITests): malformed and
/// oversized bodies, hostile account names, path tricks in vault names. Each gets a 4xx with a
/// JSON error, and no account's data or the state directory changes.
@Suite struct ControlAPIHostileTests {
    static let malformedBodies: [(String, [UInt8])] = [
        ("deep nesting", Array(("{\"account\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}").utf8)),
        ("invalid UTF-8", [0x7B, 0x22, 0x61, 0x63, 0x63, 0x6F, 0x75, 0x6E, 0x74, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]),
        ("duplicate keys", Array(#"{"account":"bob@contoso.com","account":"alice@contoso.com"}"#.utf8)),
        ("NUL in a key", Array("{\"acc\\u0000ount\":\"bob@contoso.com\"}".utf8)),
        ("array", Array("[]".utf8)),
        ("null", Array("null".utf8)),
        ("two documents", Array("{} {}".utf8)),
        ("NUL in the account", Array("{\"account\":\"bob\\u0000@contoso.com\"}".utf8)),
        ("fullwidth at", Array("{\"account\":\"bob\u{FF20}contoso.com\"}".utf8)),
        ("huge account", Array(("{\"account\":\"" + String(repeating: "b", count: 60_000) + "@contoso.com\"}").utf8)),
        ("number overflow", Array(#"{"account":"bob@contoso.com","silent":1e400}"#.utf8)),
        ("wrong user shape", Array(#"{"account":"bob@contoso.com","user":{"action":"signIn","password":7}}"#.utf8)),
    ]

    static let hostileNames = [
        "..%2F..%2Fstate.sqlite", "%2E%2E", "%2e%2e%2f%2e%2e%2fcomplianced.lock", "a%00b", "%2F", "..%5C..%5Cstate.sqlite",
        String(repeating: "n", count: 300), ".key", ".manifest.json", "x%2F..%2F..%2F..%2Fetc%2Fpasswd",
        // Outside the documented rule ([A-Za-z0-9._-], no '..', at most 128): a space, a
        // newline, a tab, a backslash, a colon, a non-ASCII letter, '..' inside, 129 characters.
        "x%20y", "a%0Ab", "a%09b", "a%5Cb", "a%3Ab", "%C3%A9", "a..b", String(repeating: "n", count: 129),
    ]

    @Test func malformedBodiesHostileNamesAndHugeUploadsAreRefusedWithoutSideEffects() async throws {
        try await ControlAPITests.withDaemon { daemon, _ in
            let user: JSONValue = ["action": "signIn", "password": "Passw0rd!"]
            #expect(try await daemon.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": user]).json["signedIn"] == true)
            let (stored, _) = try await ControlAPITests.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/keep.txt", body: Array("keep".utf8))
            #expect(stored == 201)
            let topLevel = try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory).sorted()
            let accountsBefore = try await daemon.call(.get, "/v1/accounts").json

            for (name, body) in Self.malformedBodies {
                for route in ["/v1/sign-in", "/v1/token", "/v1/deregister"] {
                    let (status, answer) = try await ControlAPITests.raw(daemon, .post, route, body: body)
                    #expect((400..<500).contains(status), "\(name) on \(route): HTTP \(status)")
                    #expect(answer["error"]?["code"]?.stringValue != nil && answer["error"]?["message"]?.stringValue?.isEmpty == false, "\(name) on \(route): \(answer)")
                }
            }
            for name in Self.hostileNames {
                let (status, answer) = try await ControlAPITests.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/\(name)", body: [1, 2, 3])
                #expect(status == 400 || status == 404, "vault name \(name): HTTP \(status) \(answer)")
                let (read, _) = try await ControlAPITests.raw(daemon, .get, "/v1/accounts/bob@contoso.com/data/\(name)", body: [])
                #expect(read == 400 || read == 404, "reading \(name): HTTP \(read)")
            }
            for account in ["..%2F..%2Fetc", "bob@contoso.com%2F..%2F..", "%2E%2E@contoso.com", "bob%40contoso.com%00"] {
                let (status, _) = try await ControlAPITests.raw(daemon, .put, "/v1/accounts/\(account)/data/x.txt", body: [1])
                #expect(status == 400 || status == 404, "account path \(account): HTTP \(status)")
            }
            let (spaced, spacedAnswer) = try await ControlAPITests.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/x%20y", body: [1])
            #expect(spaced == 400 && spacedAnswer["error"]?["message"]?.stringValue?.contains("may hold only letters") == true, "\(spacedAnswer)")
            let (longest, _) = try await ControlAPITests.raw(
                daemon, .put, "/v1/accounts/bob@contoso.com/data/" + String(repeating: "n", count: 128), body: [1])
            #expect(longest == 201, "128 characters are allowed")
            _ = try await ControlAPITests.raw(daemon, .delete, "/v1/accounts/bob@contoso.com/data/" + String(repeating: "n", count: 128), body: [])
            let oversized = [UInt8](repeating: 0x41, count: (16 << 20) + 1)
            let (tooBig, tooBigBody) = try await ControlAPITests.raw(daemon, .put, "/v1/accounts/bob@contoso.com/data/big.bin", body: oversized)
            #expect(tooBig == 413 && tooBigBody["error"]?["code"] == "payload_too_large")

            // Nothing changed: the state directory, bob's files, the accounts.
            #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.stateDirectory).sorted() == topLevel)
            let files = try await daemon.call(.get, "/v1/accounts/bob@contoso.com/data").json["files"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(files == ["keep.txt"])
            let kept = try await daemon.client.execute(HTTPClientRequest(url: "http://localhost/v1/accounts/bob@contoso.com/data/keep.txt"))
            #expect(kept.bodyText == "keep")
            #expect(try await daemon.call(.get, "/v1/accounts").json == accountsBefore)
            #expect(try await daemon.call(.get, "/v1/health").status == 200)
        }
    }

    @Test func aMalformedAppProfileIsRefusedAtStartAndEveryAccountsDataStays() async throws {
        try await InProcessMockAuth.run { mock in
            try await CrashResumeTests.withStateDirectory { directory in
                let first = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let user: JSONValue = ["action": "signIn", "password": "Passw0rd!"]
                _ = try await first.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": user])
                let (stored, _) = try await ControlAPITests.raw(first, .put, "/v1/accounts/bob@contoso.com/data/keep.txt", body: Array("keep".utf8))
                #expect(stored == 201)
                await first.stop()

                let profiles = NSTemporaryDirectory() + "bad-profiles-" + UUID().uuidString
                try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: profiles) }
                let bad: [(String, String)] = [
                    ("truncated", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>IntuneMAMSettings</key><dict>"),
                    ("array-root", "<?xml version=\"1.0\"?><plist version=\"1.0\"><array/></plist>"),
                    ("no-client-id", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>IntuneMAMSettings</key><dict/></dict></plist>"),
                    ("openstep", "{ IntuneMAMSettings = { ADALClientId = chatr; }; }"),
                ]
                for (name, text) in bad {
                    let path = profiles + "/" + name + "-Info.plist"
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                    let child = try ChildServer("complianced", arguments: ["--state-dir", directory, "--app", path, "--authority", mock.authority])
                    #expect(await child.waitForExit(timeout: .seconds(20)), "\(name): the daemon did not stop")
                    #expect(child.exitStatus == .exited(2), "\(name): \(String(describing: child.exitStatus))")
                    #expect(child.stderr.contains(path), "\(name): the error names the profile: \(child.stderr)")
                    await child.stop()
                }

                let again = try await DaemonProcess(stateDirectory: directory, authority: mock.authority)
                let kept = try await again.client.execute(HTTPClientRequest(url: "http://localhost/v1/accounts/bob@contoso.com/data/keep.txt"))
                #expect(kept.status == 200 && kept.bodyText == "keep")
                #expect(try await again.call(.get, "/v1/accounts/bob@contoso.com").json["signedIn"] == true)
                await again.stop()
            }
        }
    }
}
