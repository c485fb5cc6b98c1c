import Foundation
import JSON
import Testing
import LocalServers

@testable import MockAuth

/// HTTP/1.0 requests (``HTTP10Semantics``, ``ListeningAuthority``): the connection closes
/// after the answer unless the client asked for keep-alive, an `Expect` is ignored, and URLs
/// in answers to a request without `Host` carry the server's own address and port.
@Suite("HTTP/1.0 requests")
struct HTTP10Tests {
    @Test("an HTTP/1.0 request without Host or keep-alive gets URLs with the server's port, then the connection closes")
    func closesAndNamesThePort() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try MalformedRequestTests.port(server)
            let issuer = "http://127.0.0.1:\(port)/\(TestSupport.tenantId)/v2.0"
            // Each exchange returns only once the server has closed the connection (a server
            // that keeps it open fails the read after 10 s).
            let discovery = MalformedRequestTests.answers(
                try await RawHTTPClient.exchange(
                    port: port, bytes: "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.0\r\n\r\n", timeout: .seconds(10)))
            try #require(discovery.count == 1)
            #expect(discovery[0].json?["issuer"] == .string(issuer))

            // The token request, with an expectation an HTTP/1.0 server ignores: no 100.
            let form = TokenFastLaneTests.passwordForm
            let received = try await RawHTTPClient.exchange(
                port: port,
                bytes: "POST /contoso.com/oauth2/v2.0/token HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: \(form.utf8.count)\r\nExpect: 100-continue\r\n\r\n\(form)",
                timeout: .seconds(10))
            let token = MalformedRequestTests.answers(received)
            #expect(token.map(\.status) == [200], "\(received.prefix(300).debugDescription)")
            #expect(token.first?.json?.jwtClaims("access_token")?["iss"] == .string(issuer))
        }
    }

    @Test("a connection's last request answered before its body was read: the rest of the body is read and dropped, the connection ends")
    func lastAnswerBeforeTheBody() async throws {
        try await LiveServer.run(https: false) { server in
            // 8 MiB in one blocking write: more than the kernel buffers hold, so the write
            // ends (before its timeout) only if the server reads on after answering. Alone it
            // takes well under a second; under the full parallel test run it took up to 28 s,
            // hence the 60 s timeout (a server that stops reading still fails the test).
            let body = String(repeating: "x", count: 8 << 20)
            let cases = [
                ("POST /contoso.com/no/such/path HTTP/1.0\r\n", 404),  // HTTP/1.0: closes after the answer
                ("POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n", 413),
            ]
            for (start, status) in cases {
                let received = try await RawHTTPClient.exchange(
                    port: try MalformedRequestTests.port(server), bytes: start + "Content-Length: \(body.utf8.count)\r\n\r\n" + body,
                    timeout: .seconds(60))
                #expect(MalformedRequestTests.answers(received).map(\.status) == [status], "\(start)")
            }
        }
    }

    @Test("an HTTP/1.0 request with Transfer-Encoding is the connection's last, even with keep-alive; an empty Host is no authority")
    func transferEncodingCloses() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try MalformedRequestTests.port(server)
            let chunked = "POST /contoso.com/no/such/path HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            let received = try await RawHTTPClient.exchange(
                port: port, bytes: chunked + "GET /contoso.com/discovery/v2.0/keys HTTP/1.0\r\n\r\n", timeout: .seconds(10))
            let answers = MalformedRequestTests.answers(received)
            #expect(answers.map(\.status) == [404] && answers.first?.headers["connection"] != "keep-alive", "\(received.prefix(300).debugDescription)")

            let emptyHost = MalformedRequestTests.answers(
                try await RawHTTPClient.exchange(
                    port: port, bytes: "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
                    timeout: .seconds(10)))
            #expect(emptyHost.first?.json?["issuer"] == .string("http://127.0.0.1:\(port)/\(TestSupport.tenantId)/v2.0"))
        }
    }

    @Test("an HTTP/1.0 request with keep-alive is answered with keep-alive and keeps the connection, on either lane")
    func keepAliveKeepsTheConnection() async throws {
        try await LiveServer.run(https: false) { server in
            let form = TokenFastLaneTests.passwordForm
            let token = "POST /contoso.com/oauth2/v2.0/token HTTP/1.0\r\nConnection: Keep-Alive\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
            let keys = "GET /contoso.com/discovery/v2.0/keys HTTP/1.0\r\n"
            // An HTTP/1.0 client keeps the connection only when the answer says keep-alive
            // (ApacheBench's `ab -k` waits for the close otherwise); the last request has none.
            let received = try await RawHTTPClient.exchange(
                port: try MalformedRequestTests.port(server), bytes: token + keys + "Connection: keep-alive\r\n\r\n" + keys + "\r\n",
                timeout: .seconds(10))
            let answers = MalformedRequestTests.answers(received)
            #expect(answers.map(\.status) == [200, 200, 200], "\(received.prefix(300).debugDescription)")
            #expect(answers.map { $0.headers["connection"] ?? "-" } == ["keep-alive", "keep-alive", "-"])
            #expect(answers.first?.json?["access_token"] != nil)
        }
    }
}
