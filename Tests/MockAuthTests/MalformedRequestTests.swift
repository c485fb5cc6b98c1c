import Foundation
import Synchronization
import JSON
import Testing
import LocalServers

@testable import MockAuth

/// Bytes the HTTP/1 decoder cannot parse get mockauth's JSON error (``MalformedRequestAnswer``),
/// after the answers the connection still owes, and the connection closes.
@Suite("Requests that are not HTTP")
struct MalformedRequestTests {
    /// One answer of a raw exchange: status code, lowercased header names to values, body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// Splits what the server sent into its answers (each starts with `HTTP/1.1 `).
    static func answers(_ received: String) -> [Answer] {
        received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { text in
            let parts = text.components(separatedBy: "\r\n\r\n")
            let lines = parts[0].components(separatedBy: "\r\n")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let status = Int(lines[0].split(separator: " ").first ?? "") ?? 0
            return Answer(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }

    /// A token request with a chunked body (no Content-Length: the router reads it) whose
    /// first chunk size, `zz`, is not a number.
    static let badChunk = "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"

    static func port(_ server: LiveServer.Running) throws -> Int {
        try #require(server.url.split(separator: ":").last.flatMap { Int($0) })
    }

    @Test("bytes that are not an HTTP request get a JSON 400 invalid_request naming the parse error; the connection closes")
    func garbageGetsAJSONError() async throws {
        try await LiveServer.run(https: false) { server in
            let logged = server.state.requestLogEntries().count
            for bytes in ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n", "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ten\r\n\r\n"] {
                // The exchange returns only once the server has closed the connection.
                let received = try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes)
                let answers = Self.answers(received)
                try #require(answers.count == 1, "\(bytes.debugDescription) → \(received.debugDescription)")
                let answer = answers[0]
                #expect(answer.status == 400, "\(bytes.debugDescription)")
                #expect(answer.headers["connection"] == "close")
                #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
                #expect(answer.headers["content-length"] == String(answer.body.utf8.count))
                #expect(answer.headers["server"] == "mockauth" && answer.headers["date"] != nil)
                #expect(answer.json?["error"] == "invalid_request")
                let description = answer.json?["error_description"]?.stringValue ?? ""
                #expect(description.hasPrefix("The request is not valid HTTP/1.1: ") && description.count > 40, "\(description)")
            }
            // A request without a method or path has no line in the request log.
            #expect(server.state.requestLogEntries().count == logged)
        }
    }

    @Test("a header section over the decoder's limit gets a JSON 431, also while the client is still sending")
    func oversizedHeadersGet431() async throws {
        try await LiveServer.run(https: false) { server in
            // 300 KiB more after the headers: unread when the answer goes, they must not turn
            // the end of the connection into a reset (the server shuts its output, reads on).
            let bytes = "GET /contoso.com/discovery/v2.0/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 100 * 1024))\r\n\r\n"
                + String(repeating: "b", count: 300 * 1024)
            let received = try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes)
            let answers = Self.answers(received)
            try #require(answers.count == 1, "\(received.prefix(500).debugDescription)")
            #expect(answers[0].status == 431)
            #expect(answers[0].headers["connection"] == "close")
            #expect(answers[0].json?["error"] == "invalid_request")
            #expect(answers[0].json?["error_description"]?.stringValue?.contains("header section") == true)
        }
    }

    @Test("after pipelined requests, the parse error is answered last, in order, on either lane")
    func pipelinedRequestsAreAnsweredFirst() async throws {
        try await LiveServer.run(https: false) { server in
            let form = TokenFastLaneTests.passwordForm
            let token = "POST /contoso.com/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
            let discovery = "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            // The router owes the discovery answer when the garbage arrives; the token request
            // before it is answered in the pipeline.
            for (bytes, expected) in [(discovery + "GARBAGE\r\n\r\n", "discovery"), (token + "GARBAGE\r\n\r\n", "token"), (token + discovery + "GARBAGE\r\n\r\n", "token discovery")] {
                let received = try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes)
                let answers = Self.answers(received)
                let names = answers.map { answer in
                    answer.body.contains("authorization_endpoint") ? "discovery" : answer.body.contains("access_token") ? "token" : "\(answer.status)"
                }
                #expect(names == expected.split(separator: " ").map(String.init) + ["400"], "\(received.prefix(3000))")
                #expect(answers.last?.json?["error"] == "invalid_request")
                #expect(answers.last?.headers["connection"] == "close")
            }
        }
    }

    @Test("a parse error in the body of a request the router reads is that request's JSON 400, and the connection closes")
    func parseErrorInABodyIsTheRequestsAnswer() async throws {
        try await LiveServer.run(https: false) { server in
            let bytes = Self.badChunk
            let received = try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes, timeout: .seconds(10))
            let answers = Self.answers(received)
            try #require(answers.count == 1, "\(received.debugDescription)")
            #expect(answers[0].status == 400)
            #expect(answers[0].headers["connection"] == "close")
            #expect(answers[0].json?["error"] == "invalid_request")
            #expect(answers[0].json?["error_description"]?.stringValue?.hasPrefix("The request is not valid HTTP/1.1: ") == true)
            #expect(server.state.requestLogEntries().last?.status == 400)

            // A route that answers without reading the body (no such path): its answer, then
            // the JSON 400 in place of Hummingbird's empty one.
            let unread = bytes.replacingOccurrences(of: "/oauth2/v2.0/token", with: "/no/such/path")
            let both = Self.answers(try await RawHTTPClient.exchange(port: Self.port(server), bytes: unread, timeout: .seconds(10)))
            #expect(both.map(\.status) == [404, 400])
            #expect(both.first?.json?["error"] == "not_found")
            #expect(both.last?.json?["error"] == "invalid_request")
            #expect(both.last?.headers["connection"] == "close")
        }
    }

    @Test("a client that goes on sending after a bad chunk is read until it stops, then gets the answer")
    func sendingOnAfterABadChunk() async throws {
        try await LiveServer.run(https: false) { server in
            // 8 MiB after the bad chunk, in one blocking write: more than the kernel buffers
            // hold, so the write ends only if the server reads on after the error. 60 s: under
            // the full parallel test run the write took more than 10 s.
            let bytes = Self.badChunk + String(repeating: "x", count: 8 << 20)
            let answers = Self.answers(try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes, timeout: .seconds(60)))
            #expect(answers.map(\.status) == [400])
            #expect(answers.first?.json?["error"] == "invalid_request")
        }
    }

    @Test("bytes after a request that closes the connection get no answer of their own; the connection ends")
    func nothingIsAnsweredAfterConnectionClose() async throws {
        try await LiveServer.run(https: false) { server in
            // Hummingbird closes after exactly `close`; the other spellings are closed here.
            for closing in ["Connection: close\r\n", "Connection: Close\r\n", "Connection: keep-alive, close\r\n"] {
                let bytes = "GET /contoso.com/v2.0/.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\n\(closing)\r\nGARBAGE\r\n\r\n"
                // Returns once the server has closed the connection (or fails after 10 s).
                let received = try await RawHTTPClient.exchange(port: Self.port(server), bytes: bytes, timeout: .seconds(10))
                let answers = Self.answers(received)
                #expect(answers.count == 1, "\(closing.debugDescription): \(received.prefix(3000))")
                #expect(answers.first?.status == 200 && answers.first?.body.contains("authorization_endpoint") == true)
            }
        }
    }

    @Test("a graceful shutdown while the client still sends after its error answer: it gets the answer and the end of the stream, not a reset")
    func gracefulShutdownWhileLingering() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try Self.port(server)
            // One thread connects, sends the bad request and goes on sending for 1.5 s without
            // reading (as a client still uploading would): no gap between the error answer and
            // the first chunk in which the server's 5 s linger could run out on a loaded machine
            // (a second thread started later once did). The server is told to stop once 20
            // chunks went through. Hummingbird alone closed the connection then.
            let progress = SentChunks()
            let sending = Task {
                try await RawHTTPClient.onThread { () throws -> Int32 in
                    let descriptor = try RawHTTPClient.connected(port: port, sending: "GARBAGE\r\n\r\n", timeout: .seconds(30))
                    do {
                        try Self.sendSlowly(to: descriptor, chunks: 150, pause: 0.01, progress: progress)
                    } catch {
                        close(descriptor)
                        throw error
                    }
                    return descriptor
                }
            }
            // (A sender that failed early ends the wait too: its error then fails the test.)
            while progress.count.withLock({ $0 }) < 20, !progress.ended.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            await server.shutdown()
            let descriptor = try await sending.value
            defer { close(descriptor) }
            Glibc.shutdown(descriptor, Int32(SHUT_WR))
            let received = try await RawHTTPClient.onThread { try RawHTTPClient.receiveToEnd(from: descriptor) }
            let answers = Self.answers(received)
            #expect(answers.map(\.status) == [400], "\(received.prefix(2000))")
            #expect(answers.first?.json?["error"] == "invalid_request")
        }
    }

    @Test("a graceful shutdown after a closing request was answered ends the connection, though the client keeps its side open")
    func gracefulShutdownAfterAClosingRequest() async throws {
        try await LiveServer.run(https: false) { server in
            let port = try Self.port(server)
            let request = "GET /contoso.com/discovery/v2.0/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let descriptor = try await RawHTTPClient.onThread { try RawHTTPClient.connected(port: port, sending: request, timeout: .seconds(20)) }
            // Closed at the end whatever happens, so the server's shutdown can end.
            defer { close(descriptor) }
            let received = try await RawHTTPClient.onThread { try RawHTTPClient.receiveToEnd(from: descriptor) }
            #expect(Self.answers(received).map(\.status) == [200])
            await server.shutdown()
            var waited = 0
            while !server.stopped, waited < 100 {
                try await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            #expect(server.stopped, "the server still waits for a connection whose only request was answered, 10 s after the shutdown began")
        }
    }

    /// Sends `chunks` chunks of 16 KiB to `descriptor`, `pause` seconds apart; throws when one
    /// does not go through (the server reset the connection).
    static func sendSlowly(to descriptor: Int32, chunks: Int, pause: TimeInterval, progress: SentChunks? = nil) throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
        defer { progress?.ended.withLock { $0 = true } }
        for index in 0..<chunks {
            let sent = chunk.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == chunk.count else { throw TestFailure("chunk \(index + 1) of \(chunks): \(sent) of \(chunk.count) bytes sent, errno \(errno)") }
            progress?.count.withLock { $0 = index + 1 }
            Thread.sleep(forTimeInterval: pause)
        }
    }

    @Test("the error answer names the parse error; an oversized header section is 431")
    func responseForEachParseError() {
        let invalid = MalformedRequestAnswer.response(to: .invalidHeaderToken)
        #expect(invalid.status == .badRequest)
        #expect(invalid.body["error_description"] == "The request is not valid HTTP/1.1: invalid character in header.")
        let tooLarge = MalformedRequestAnswer.response(to: .headerOverflow)
        #expect(tooLarge.status == .requestHeaderFieldsTooLarge)
        #expect(tooLarge.body["error"] == "invalid_request")
    }
}

/// How many chunks ``MalformedRequestTests/sendSlowly(to:chunks:pause:progress:)`` sent so far.
final class SentChunks: Sendable {
    let count = Mutex(0)
    /// The sender stopped (all sent, or a chunk did not go through).
    let ended = Mutex(false)
}
