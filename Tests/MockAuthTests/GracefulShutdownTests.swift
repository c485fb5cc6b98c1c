import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
import LocalServers

@testable import MockAuth

@Suite("Service lifecycle")
struct GracefulShutdownTests {
    @Test("graceful shutdown stops the server and frees its port")
    func gracefulShutdown() async throws {
        try await testGracefulShutdown { trigger in
            let (urls, continuation) = AsyncStream.makeStream(of: String.self)
            let configuration = MockAuthConfiguration(fixtures: try TestSupport.fixtures(), signingKey: TestSupport.key)
            let (application, _) = try buildApplication(configuration, logger: TestSupport.logger) { url in
                continuation.yield(url)
                continuation.finish()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { continuation.finish() }
                    try await application.run()
                }
                var iterator = urls.makeAsyncIterator()
                let url = try #require(await iterator.next())
                // Generous bounds: on a loaded machine a first request has taken over 5 s.
                let before = try await Command.run(
                    "/usr/bin/curl", ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", url + "/contoso.com/discovery/v2.0/keys"],
                    timeout: .seconds(90))
                #expect(before.stdout == "200", "\(before.stderr)")
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
                let after = try await Command.run(
                    "/usr/bin/curl", ["-sS", "--max-time", "60", url + "/contoso.com/discovery/v2.0/keys"], timeout: .seconds(90))
                #expect(after.status == 7, "\(after.stderr)")  // curl: failed to connect
            }
        }
    }
}
