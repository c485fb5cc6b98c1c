import Foundation
import JSON
import MockAuth
import Synchronization

/// Issue 3's goal: password-grant tokens/s issued by mockauth under concurrent load (wrk, a
/// separate C process on loopback) against bare RS256 signatures/s of the same key and library,
/// with as many signing threads as cores, in the same run. Each request asks for one access
/// token only (no `openid`, no `offline_access`), so one token costs one signature.
enum IssuanceBenchmark {
    static func run(seconds: Int, connections: Int) async throws {
        guard let wrk = which("wrk") else {
            print("issuance: skipped: wrk is not installed (apt-get install wrk)")
            return
        }
        try await BenchMock.run { mock in
            let body = "grant_type=password&client_id=chatr&username=bob%40contoso.com&password=Passw0rd%21&scope=api%3A%2F%2Fcontoso-chat%2FChat.Read"
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("mockauth-bench-\(getpid()).lua")
            try """
                wrk.method = "POST"
                wrk.body = "\(body)"
                wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
                """.write(to: script, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: script) }
            _ = try await BlockingQueue.run { try runWrk(wrk, url: mock.tokenURL, script: script.path, seconds: 1, connections: connections) }  // warm-up
            let (tokensPerSecond, non2xx) = try await BlockingQueue.run {
                try runWrk(wrk, url: mock.tokenURL, script: script.path, seconds: seconds, connections: connections)
            }
            let signaturesPerSecond = try signatureRate(key: mock.key, seconds: seconds)
            print("mockauth issuance, password grant, \(connections) connections for \(seconds) s (wrk, loopback)")
            print("  tokens/s issued by mockauth : \(Int(tokensPerSecond))\(non2xx > 0 ? "  (\(non2xx) non-2xx answers!)" : "")")
            print("  bare RS256 signatures/s     : \(Int(signaturesPerSecond))  (\(ProcessInfo.processInfo.activeProcessorCount) threads, same key, swift-crypto)")
            print("  ratio tokens / signatures   : \(ratio(tokensPerSecond, signaturesPerSecond))  (goal ≥ 0.80)")
        }
    }

    /// Runs wrk and returns (requests/s, non-2xx count).
    private static func runWrk(_ wrk: String, url: String, script: String, seconds: Int, connections: Int) throws -> (Double, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t1", "-c\(connections)", "-d\(seconds)s", "-s", script, url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var rate = 0.0
        var non2xx = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rate = Double(fields[1]) ?? 0 }
            if line.contains("Non-2xx"), let last = fields.last { non2xx = Int(last) ?? 0 }
        }
        return (rate, non2xx)
    }

    /// Bare RS256 signatures/s (the key's own `sign`, no JWT assembly) over a token-sized
    /// signing input, one thread per core.
    private static func signatureRate(key: SigningKey, seconds: Int) throws -> Double {
        let claims: JSONValue = [
            "aud": "api://contoso-chat", "iss": "http://127.0.0.1/8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d/v2.0",
            "iat": 1_800_000_000, "nbf": 1_800_000_000, "exp": 1_800_003_600, "oid": "00000000-0000-0000-0000-000000000b0b",
            "preferred_username": "bob@contoso.com", "scp": "Chat.Read", "sub": "subject", "tid": "8d5e2b1c-4f3a-4c7e-9b6d-2a1f0e3c5b7d",
            "upn": "bob@contoso.com", "ver": "2.0", "xms_cc": ["protapp"],
        ]
        let signingInput = Array((Base64URL.encode(#"{"typ":"JWT","alg":"RS256","kid":"k"}"#.utf8) + "." + Base64URL.encode(claims.encoded())).utf8)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let deadline = ContinuousClock.now + .seconds(seconds)
        let total = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                var count = 0
                while ContinuousClock.now < deadline {
                    _ = try? key.sign(signingInput)
                    count += 1
                }
                total.withLock { $0 += count }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return Double(total.withLock { $0 }) / Double(seconds)
    }

    private static func which(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
