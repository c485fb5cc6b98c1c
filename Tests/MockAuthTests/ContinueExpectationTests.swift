import Foundation
import Testing
import LocalServers

#if canImport(Glibc)
import Glibc
#endif

@testable import MockAuth

/// `Expect: 100-continue`: the client sends the head, waits for `100 Continue`, then sends
/// the body (``ContinueExpectation``).
@Suite("Expect: 100-continue")
struct ContinueExpectationTests {
    static let continueLine = "HTTP/1.1 100 Continue\r\n\r\n"

    /// The head of a password-grant token request expecting `100-continue` (spelt `expect`).
    static func tokenHead(expect: String, length: Int) -> String {
        "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(length)\r\nExpect: \(expect)\r\nConnection: close\r\n\r\n"
    }

    /// Sends `before` (earlier requests, if any) and `head`, reads through the `100 Continue`,
    /// sends `body`, and reads the rest until the server closes: (read before the body, read after).
    static func exchange(port: Int, before: String = "", head: String, body: String) async throws -> (String, String) {
        try await RawHTTPClient.onThread {
            // A server that sends no 100 fails the read after 10 s instead of hanging the test.
            let descriptor = try RawHTTPClient.connected(port: port, sending: before + head, timeout: .seconds(10))
            defer { close(descriptor) }
            let interim = try RawHTTPClient.receive(from: descriptor, through: continueLine)
            try RawHTTPClient.send(body, to: descriptor)
            return (interim, try RawHTTPClient.receiveToEnd(from: descriptor))
        }
    }

    @Test("a request expecting 100-continue gets 100 Continue before it sends its body, then its answer", arguments: ["100-continue", "100-Continue"])
    func continueBeforeTheBody(expect: String) async throws {
        try await LiveServer.run(https: false) { server in
            let form = TokenFastLaneTests.passwordForm
            let (interim, rest) = try await Self.exchange(
                port: MalformedRequestTests.port(server), head: Self.tokenHead(expect: expect, length: form.utf8.count), body: form)
            #expect(interim == Self.continueLine)
            let answers = MalformedRequestTests.answers(rest)
            try #require(answers.count == 1, "\(rest.debugDescription)")
            #expect(answers[0].status == 200)
            #expect(answers[0].json?["access_token"]?.stringValue?.isEmpty == false)
        }
    }

    @Test("the 100 Continue comes after the answers the connection owes")
    func continueInOrder() async throws {
        try await LiveServer.run(https: false) { server in
            let discovery = "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let form = TokenFastLaneTests.passwordForm
            let (interim, rest) = try await Self.exchange(
                port: MalformedRequestTests.port(server), before: discovery,
                head: Self.tokenHead(expect: "100-continue", length: form.utf8.count), body: form)
            // The discovery answer, whole, then the interim answer.
            let owed = MalformedRequestTests.answers(String(decoding: interim.utf8.dropLast(Self.continueLine.utf8.count), as: UTF8.self))
            #expect(owed.map(\.status) == [200] && owed.first?.json?["token_endpoint"] != nil, "\(interim.prefix(300).debugDescription)")
            #expect(MalformedRequestTests.answers(rest).map(\.status) == [200])
        }
    }

    @Test("a Content-Length over the limit gets its 413 at once, with no 100 and no body sent")
    func tooLargeGetsNoContinue() async throws {
        try await LiveServer.run(https: false) { server in
            // Only the head is sent; the exchange reads until the server closes (10 s at most).
            let head = Self.tokenHead(expect: "100-continue", length: MockAuthLimits.maxRequestBodyBytes + 1)
            let received = try await RawHTTPClient.exchange(port: MalformedRequestTests.port(server), bytes: head, timeout: .seconds(10))
            let answers = MalformedRequestTests.answers(received)
            #expect(answers.map(\.status) == [413], "\(received.prefix(300).debugDescription)")
            #expect(answers.first?.json?["error"] == "invalid_request")
        }
    }
}
