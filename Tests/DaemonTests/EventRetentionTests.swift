import Foundation
import JSON
import Testing
import LocalServers

/// `--event-retention N` bounds the event log of a running daemon: every token request the
/// issuer answers is an event, so without a bound the store grows for as long as the app runs.
/// A cache hit is none: it commits nothing.
@Suite struct EventRetentionTests {
    @Test func theDaemonKeepsOnlyTheNewestEventsAndSeqKeepsGrowing() async throws {
        try await DaemonProcess.with(extra: ["--event-retention", "4"]) { daemon, _ in
            let signedIn = try await daemon.call(
                .post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
            #expect(signedIn.json["signedIn"] == true, "\(signedIn.json)")
            let first = try await daemon.call(.post, "/v1/token", ["account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"]])
            #expect(first.status == 200, "\(first.json)")
            let log = try await daemon.call(.get, "/v1/events?since=0&limit=1000").json
            let seqs = (log["events"]?.arrayValue ?? []).compactMap { $0["seq"]?.intValue }
            let last = try #require(log["lastSeq"]?.intValue)
            #expect(seqs == Array((last - 3)...last), "the newest four, in order: \(seqs), lastSeq \(last)")
            #expect(last > 4, "more events were made than are kept: \(last)")
            #expect(log["events"]?.arrayValue?.last?["kind"] == "tokenAcquired")
        }
    }

    /// A token served from the cache writes nothing: no event, and the database and its log
    /// are untouched (the same size and modification time).
    @Test func aCacheHitCommitsNothing() async throws {
        try await DaemonProcess.with { daemon, _ in
            let signedIn = try await daemon.call(
                .post, "/v1/sign-in", ["account": "bob@contoso.com", "user": ["action": "signIn", "password": "Passw0rd!"]])
            #expect(signedIn.json["signedIn"] == true, "\(signedIn.json)")
            let request: JSONValue = ["account": "bob@contoso.com", "scopes": ["api://contoso-chat/Chat.Read"]]
            let fetched = try await daemon.call(.post, "/v1/token", request)
            #expect(fetched.status == 200, "\(fetched.json)")
            let lastSeq = try await daemon.call(.get, "/v1/health").json["lastEventSeq"]
            let files = ["state.sqlite", "state.sqlite-wal"].map { daemon.stateDirectory + "/" + $0 }
            func stamps() throws -> [String] {
                try files.map { path in
                    let attributes = try FileManager.default.attributesOfItem(atPath: path)
                    return "\(attributes[.size] ?? "?") \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
                }
            }
            let before = try stamps()
            for _ in 0..<5 {
                let hit = try await daemon.call(.post, "/v1/token", request)
                #expect(hit.status == 200 && hit.json["token"]?["accessToken"] == fetched.json["token"]?["accessToken"], "\(hit.json)")
            }
            #expect(try await daemon.call(.get, "/v1/health").json["lastEventSeq"] == lastSeq)
            #expect(try stamps() == before, "\(files)")
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
