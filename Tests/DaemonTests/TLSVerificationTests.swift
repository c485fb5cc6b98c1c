import Foundation
import JSON
import Testing
import LocalServers
import ChildProcess

/// TLS verification cannot be turned off: no flag does it, the environment adds no trust,
/// only `--ca-file` makes the daemon trust a certificate, and the HTTP client's easy handle is
/// the only code that sets curl's verification options, always to "verify".
@Suite struct TLSVerificationTests {
    @Test func noFlagDisablesVerification() async throws {
        for flag in ["--insecure", "-k", "--no-verify-tls", "--tls-verify=false", "--skip-tls-verify"] {
            let child = try ChildServer("complianced", arguments: [flag, "--state-dir", NSTemporaryDirectory() + "never-" + UUID().uuidString, "--app", "x"])
            #expect(await child.waitForExit(timeout: .seconds(120)))  // a hang guard: exec of a debug build under load
            #expect(child.exitStatus == .exited(64), "\(flag): \(String(describing: child.exitStatus))")
            await child.stop()
        }
    }

    @Test func theEnvironmentAddsNoTrustAndTheCAFileDoes() async throws {
        try await InProcessMockAuth.run(tls: true) { mock in
            let tls = try #require(mock.tlsURL)
            let caFile = try #require(mock.caFile)
            var environment = ProcessInfo.processInfo.environment
            environment["SSL_CERT_FILE"] = caFile
            environment["CURL_CA_BUNDLE"] = caFile
            environment["SSL_CERT_DIR"] = (caFile as NSString).deletingLastPathComponent
            let user: JSONValue = ["action": "signIn", "password": "Passw0rd!"]
            try await CrashResumeTests.withStateDirectory { directory in
                let untrusting = try await DaemonProcess(stateDirectory: directory, authority: tls + "/contoso.com", environment: environment)
                let refused = try await untrusting.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": user])
                await untrusting.stop()
                #expect(refused.json["status"]?["name"] == "NetworkFailure", "\(refused.json)")
                #expect(refused.json["failure"]?["message"]?.stringValue?.contains("TLS") == true, "\(refused.json)")
            }
            try await CrashResumeTests.withStateDirectory { directory in
                let trusting = try await DaemonProcess(stateDirectory: directory, authority: tls + "/contoso.com", extra: ["--ca-file", caFile])
                let accepted = try await trusting.call(.post, "/v1/sign-in", ["account": "bob@contoso.com", "user": user])
                await trusting.stop()
                #expect(accepted.json["status"]?["name"] == "Compliant" && accepted.json["signedIn"] == true, "\(accepted.json)")
            }
        }
    }

    @Test func noProductCodeSkipsVerification() throws {
        let sources = InProcessMockAuth.packageRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        var checkedEasyHandle = false
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? NSEnumerator() where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            guard text.contains("SSL_VERIFYPEER") || text.contains("SSL_VERIFYHOST") else { continue }
            // Only the easy handle sets them, and only to "verify".
            let verifies = text.contains("set(CURLOPT_SSL_VERIFYPEER, 1)") && text.contains("set(CURLOPT_SSL_VERIFYHOST, 2)")
            let lines = text.split(separator: "\n").filter { $0.contains("SSL_VERIFYPEER") || $0.contains("SSL_VERIFYHOST") }
            if path != "HTTPClient/EasyHandle.swift" || !verifies || lines.count != 2 {
                offenders.append(path)
            } else {
                checkedEasyHandle = true
            }
        }
        #expect(offenders.isEmpty, "TLS verification switched off in \(offenders)")
        #expect(checkedEasyHandle, "the easy handle sets CURLOPT_SSL_VERIFYPEER 1 and CURLOPT_SSL_VERIFYHOST 2")
    }
}
