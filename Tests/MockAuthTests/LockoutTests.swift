import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import Testing

@testable import MockAuth

/// Issue 41 point 9: wrong passwords lock the account (AADSTS50053); device codes cannot be guessed.
@Suite("Smart lockout")
struct LockoutTests {
    @Test("10 wrong passwords lock bob for 60 s, even with the right one; a success resets the count")
    func passwordLockout() async throws {
        try await TestSupport.withRouterApp { client, state in
            for attempt in 1...9 { _ = try await client.passwordToken("bob@contoso.com", password: "wrong\(attempt)") }
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok, "9 failures, then a success: not locked")
            for attempt in 1...10 {
                let (_, body) = try await client.passwordToken("bob@contoso.com", password: "wrong\(attempt)")
                #expect(body["error_codes"] == [50126], "attempt \(attempt)")
            }
            let (status, locked) = try await client.passwordToken("bob@contoso.com")
            #expect(status == .badRequest)
            #expect(locked["error"] == "invalid_grant" && locked["error_codes"] == [50053], "\(locked)")
            let page = try await Browser(client: client).signIn(query: Browser.authorizeQuery(), login: "bob@contoso.com")
            #expect(page.headers[.location] == nil && String(buffer: page.body).contains("AADSTS50053"))
            #expect(try await client.passwordToken("alice@contoso.com", scope: TestSupport.mamScope).0 == .ok, "others are not locked")
            state.advanceClock(seconds: 61)
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok)
        }
    }

    @Test("one stale password retried is counted once (Entra keeps the last three bad password hashes): 50126, never a lockout")
    func stalePasswordNeverLocks() async throws {
        try await TestSupport.withRouterApp { client, _ in
            for attempt in 1...25 {
                let (_, body) = try await client.passwordToken("bob@contoso.com", password: "last-year's")
                #expect(body["error_codes"] == [50126], "attempt \(attempt)")
            }
            // Three wrong passwords in turn are each remembered: still one count apiece.
            for attempt in 1...15 {
                let (_, body) = try await client.passwordToken("bob@contoso.com", password: ["a-wrong", "b-wrong", "c-wrong"][attempt % 3])
                #expect(body["error_codes"] == [50126], "rotation \(attempt)")
            }
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok)
            // Distinct wrong passwords still lock: 10 of them.
            for attempt in 1...10 { _ = try await client.passwordToken("bob@contoso.com", password: "guess\(attempt)") }
            #expect(try await client.passwordToken("bob@contoso.com").1["error_codes"] == [50053])
        }
    }

    @Test("threshold 0 (PUT /_admin/lockout) turns lockout off; bad values are 400")
    func lockoutOff() async throws {
        try await TestSupport.withRouterApp { client, _ in
            let (set, policy) = try await client.sendJSON("/_admin/lockout", method: .put, ["threshold": 0])
            #expect(set == .ok && policy["threshold"] == 0 && policy["durationSeconds"] == 60)
            for attempt in 1...15 { _ = try await client.passwordToken("bob@contoso.com", password: "wrong\(attempt)") }
            #expect(try await client.passwordToken("bob@contoso.com").0 == .ok)
            for body: JSONValue in [["threshold": -1], ["durationSeconds": 0], ["threshold": "3"], ["lockout": 3]] {
                #expect(try await client.sendJSON("/_admin/lockout", method: .put, body).0 == .badRequest, "\(body)")
            }
        }
    }

    @Test("5 wrong user codes in a row close the device page for 60 s, even for the right code")
    func deviceCodeGuesses() async throws {
        try await TestSupport.withRouterApp { client, state in
            let (_, started) = try await client.postForm("/contoso.com/oauth2/v2.0/devicecode", [("client_id", "chatr"), ("scope", TestSupport.chatScope)])
            let userCode = try #require(started["user_code"]?.stringValue)
            func submit(_ code: String) async throws -> String {
                let response = try await client.execute(
                    uri: "/contoso.com/oauth2/v2.0/deviceauth", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: FormParameters.encode([("user_code", code), ("login", "bob@contoso.com"), ("passwd", "Passw0rd!")])))
                return String(buffer: response.body)
            }
            for guess in 1...5 { #expect(try await submit("GUESS\(guess)").contains("not valid or has expired")) }
            #expect(try await submit(userCode).contains("Too many codes"))
            state.advanceClock(seconds: 61)
            #expect(try await submit(userCode).contains("You have signed in"))
        }
    }
}
