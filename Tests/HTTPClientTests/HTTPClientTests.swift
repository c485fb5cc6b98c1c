import Foundation
import HTTPClient
import Testing

@Suite struct HTTPClientTests {
    let client = HTTPClient()

    @Test func getReturnsStatusHeadersAndBody() async throws {
        try await LocalServer.run { base in
            let response = try await client.get("\(base)/hello")
            #expect(response.status == 200)
            #expect(response.headers["x-test"] == "yes")
            #expect(response.bodyText == "hello")
        }
    }

    @Test func postPutDeleteCarryMethodHeadersAndBody() async throws {
        try await LocalServer.run { base in
            for method in [HTTPClientMethod.post, .put, .delete] {
                let request = HTTPClientRequest(
                    method: method, url: "\(base)/echo", headers: ["Authorization": "Bearer abc", "Content-Type": "text/plain"],
                    body: Array("payload-\(method)".utf8))
                let response = try await client.execute(request)
                #expect(response.status == 200)
                #expect(response.headers["X-Method"] == method.rawValue)
                #expect(response.headers["X-Authorization"] == "Bearer abc")
                #expect(response.bodyText == "payload-\(method)")
            }
        }
    }

    @Test func formPostIsURLEncoded() async throws {
        try await LocalServer.run { base in
            let request = HTTPClientRequest.form(url: "\(base)/echo", fields: [("grant_type", "password"), ("scope", "openid profile"), ("x", "a&b=c/é")])
            let response = try await client.execute(request)
            #expect(response.headers["X-Content-Type"] == "application/x-www-form-urlencoded")
            #expect(response.bodyText == "grant_type=password&scope=openid+profile&x=a%26b%3Dc%2F%C3%A9")
            #expect(FormEncoding.decode(response.bodyText).map { "\($0.0)=\($0.1)" } == ["grant_type=password", "scope=openid profile", "x=a&b=c/é"])
        }
    }

    @Test func binaryBodyWithNulBytesArrivesWhole() async throws {
        try await LocalServer.run { base in
            let body: [UInt8] = [0, 1, 2, 0, 255] + Array(repeating: 7, count: 5000)
            let response = try await client.execute(HTTPClientRequest(method: .post, url: "\(base)/echo", body: body))
            #expect(response.body == body)
        }
    }

    @Test func totalTimeoutGivesTimeoutError() async throws {
        try await LocalServer.run { base in
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.execute(HTTPClientRequest(url: "\(base)/slow", timeout: .milliseconds(300)))
            }
            #expect(error?.code == .timeout)
            #expect(error?.message.contains("/slow") == true)
        }
    }

    @Test func refusedConnectionIsNamed() async throws {
        let port = try closedPort()
        let error = await #expect(throws: HTTPClientError.self) {
            try await client.get("http://127.0.0.1:\(port)/x?secret=1")
        }
        #expect(error?.code == .connectionRefused)
        #expect(error?.url == "http://127.0.0.1:\(port)/x")
        #expect(error?.description.contains("secret") == false)
    }

    @Test func oversizedResponseIsRefused() async throws {
        var configuration = HTTPClientConfiguration()
        configuration.maxResponseBytes = 64 * 1024
        let small = HTTPClient(configuration: configuration)
        try await LocalServer.run { base in
            let error = await #expect(throws: HTTPClientError.self) { try await small.get("\(base)/big") }
            #expect(error?.code == .responseTooLarge)
            // The same client still works afterwards.
            let again = try await small.get("\(base)/hello")
            #expect(again.status == 200)
        }
    }

    @Test func invalidURLIsRefusedBeforeConnecting() async throws {
        let error = await #expect(throws: HTTPClientError.self) { try await client.get("ftp://127.0.0.1/file") }
        #expect(error?.code == .invalidURL)
    }

    @Test(arguments: [
        ("http://ops:S3cret@127.0.0.1:8080/a?b=c", "http://***@127.0.0.1:8080/a?b=c"),
        ("https://ops@host/x", "https://***@host/x"),
        ("http://a:b@c:d@host:1", "http://***@host:1"),
        ("http://127.0.0.1:8080/users/alice@contoso.com", "http://127.0.0.1:8080/users/alice@contoso.com"),
        ("http://host?next=a@b", "http://host?next=a@b"),
        ("not a url", "not a url"),
    ])
    func userInformationIsHidden(url: String, shown: String) {
        #expect(URLRedaction.hidingUserInfo(url) == shown)
    }

    /// A refused request to a URL with a password: neither the message nor the URL shows it.
    @Test func anErrorNeverShowsThePasswordOfItsURL() async throws {
        let port = try closedPort()
        let error = await #expect(throws: HTTPClientError.self) { try await client.get("http://ops:S3cret@127.0.0.1:\(port)/x?token=t") }
        #expect(error?.code == .connectionRefused)
        #expect(error?.url == "http://***@127.0.0.1:\(port)/x")
        #expect(error.map { !"\($0)".contains("S3cret") && !"\($0)".contains("ops:") } == true, "\(String(describing: error))")
    }

    @Test func unixDomainSocket() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("httpclient-\(UUID().uuidString.prefix(8)).sock").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await LocalServer.run(address: .unixDomainSocket(path: path)) { _ in
            var configuration = HTTPClientConfiguration()
            configuration.unixSocketPath = path
            let socketClient = HTTPClient(configuration: configuration)
            let response = try await socketClient.get("http://localhost/hello")
            #expect(response.bodyText == "hello")
        }
        var missing = HTTPClientConfiguration()
        missing.unixSocketPath = path + ".missing"
        let error = await #expect(throws: HTTPClientError.self) { try await HTTPClient(configuration: missing).get("http://localhost/hello") }
        #expect(error?.code == .connectionRefused)
        #expect(error?.message.contains(".missing") == true)
    }

    @Test func keepAliveReusesTheConnection() async throws {
        try await LocalServer.run { base in
            let first = try await client.get("\(base)/hello")
            let second = try await client.get("\(base)/hello")
            let third = try await client.execute(.form(url: "\(base)/echo", fields: [("a", "b")]))
            #expect(first.connectCount == 1)
            #expect(second.connectCount == 0)
            #expect(third.connectCount == 0)
        }
    }

    @Test func concurrentRequestsFromManyTasks() async throws {
        try await LocalServer.run { base in
            try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let response = try await client.execute(HTTPClientRequest(method: .post, url: "\(base)/echo", body: Array("n\(index)".utf8)))
                        return response.bodyText
                    }
                }
                var seen = Set<String>()
                for try await text in group { seen.insert(text) }
                #expect(seen == Set((0..<64).map { "n\($0)" }))
            }
        }
    }

    @Test func redirectsAreNotFollowedUnlessAsked() async throws {
        try await LocalServer.run { base in
            let response = try await client.get("\(base)/redirect")
            #expect(response.status == 302)
            #expect(response.headers["Location"] == "/hello")
            var configuration = HTTPClientConfiguration()
            configuration.followRedirects = true
            let following = try await HTTPClient(configuration: configuration).get("\(base)/redirect")
            #expect(following.status == 200)
            #expect(following.bodyText == "hello")
        }
    }

    @Test func retryAfterIsParsed() async throws {
        try await LocalServer.run { base in
            let response = try await client.get("\(base)/busy")
            #expect(response.status == 503)
            #expect(response.retryAfter() == .seconds(7))
        }
        let now = Date(timeIntervalSince1970: 1_445_412_400)  // Wed, 21 Oct 2015 07:26:40 GMT
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(80))
        #expect(RetryAfter.parse("soon", now: now) == nil)
    }

    @Test func cancellationAbortsTheTransfer() async throws {
        try await LocalServer.run { base in
            let task = Task { try await client.get("\(base)/slow") }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let error = await #expect(throws: HTTPClientError.self) { try await task.value }
            #expect(error?.code == .cancelled)
        }
    }

    /// A loopback port that nothing listens on: bind, read the port, close.
    private func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, getsockname(fd, $0, &length) == 0 else { throw POSIXError(.EADDRINUSE) }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
