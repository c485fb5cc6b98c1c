import Foundation
import JSON
import Testing
import LocalServers

/// `--event-retention N` bounds the event log of a running daemon: every token request (cache
/// hits too) is an event, so without a bound the store grows for as long as the app runs.
@Suite struct EventRetentionTests {
    @Test func theDaemonKeepsOnlyTheNewestEventsAndSeqKeepsGrowing() async throws {
        try await DaemonProcess.with(extra: ["--event-retention", "4"]) { daemon, _ in
            let signedIn = try await daemon.call(
                .post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
            #expect(signedIn.json["signedIn"] == true, "\(signedIn.json)")
            for _ in 0..<5 {  // one tokenAcquired event each (the first one fetches the token)
                let token = try await daemon.call(.post, "/v1/token", ["account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"]])
                #expect(token.status == 200, "\(token.json)")
            }
            let log = try await daemon.call(.get, "/v1/events?since=0&limit=1000").json
            let seqs = (log["events"]?.arrayValue ?? []).compactMap { $0["seq"]?.intValue }
            let last = try #require(log["lastSeq"]?.intValue)
            #expect(seqs == Array((last - 3)...last), "the newest four, in order: \(seqs), lastSeq \(last)")
            #expect(last > 4, "more events were made than are kept: \(last)")
            #expect(log["events"]?.arrayValue?.last?["kind"] == "tokenAcquired")
        }
    }

    @Test func aRetentionBelowOneIsRefusedNamingTheOption() async throws {
        let base = NSTemporaryDirectory() + "retention-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        for value in ["0", "-3", "many"] {
            let result = try await StartupCheckTests.start(base + "/state", ["--event-retention=\(value)"])
            #expect(result.status == 64, "\(value): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--event-retention"), "\(value): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: base + "/state"), "nothing created for \(value)")
        }
    }
}
