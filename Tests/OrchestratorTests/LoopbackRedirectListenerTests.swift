import Foundation
import Testing

@testable import Orchestrator

/// The loopback listener waits for the answer to its own sign-in: other requests get 404 and
/// the wait goes on; a repeated parameter is refused; the page says what happened (issue 36,
/// point 9).
@Suite struct LoopbackRedirectListenerTests {
    static let state = "s-12345"

    /// Sends `targets` to the listener one after another while it waits; returns its answer
    /// and the pages the requests got.
    /// The requests go out from a thread of their own with blocking sockets, so a busy
    /// cooperative pool (the whole suite runs in parallel) cannot starve either side.
    static func answer(to targets: [String], port: Int = 0) async throws -> (LoopbackRedirectListener.Answer?, [Page]) {
        let listener = try LoopbackRedirectListener(port: port)
        let listenerPort = listener.port
        async let answer = listener.waitForRedirect(expectedState: state, until: ContinuousClock.now + .seconds(600), cancelled: { false })
        let pages = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: targets.map { Page.get(port: listenerPort, target: $0) })
            }
        }
        return (await answer, pages)
    }

    /// One HTTP/1.0 GET with a blocking socket: the status and the body.
    struct Page: Sendable {
        var status: Int
        var bodyText: String

        static func get(port: Int, target: String) -> Page {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var timeout = timeval(tv_sec: 300, tv_usec: 0)  // the explorer's tests can hold both cores a minute
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { return Page(status: 0, bodyText: "cannot connect") }
            let request = Array("GET \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            let text = String(decoding: received, as: UTF8.self)
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
            let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
            return Page(status: status, bodyText: body)
        }
    }

    /// Connections that send nothing delay no other: with 40 of them held open (which, served
    /// one after another for up to 5 s each, took 200 s), the answer still arrives within the
    /// 120 s wait (issue 36's attack: one connection at a time). 120 s, not less: on a busy
    /// machine (a full run beside other work) 60 s ran out; served in turn it would still
    /// take 200 s.
    @Test func silentConnectionsDoNotHoldTheAnswerBack() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        async let answer = listener.waitForRedirect(expectedState: Self.state, until: ContinuousClock.now + .seconds(120), cancelled: { false })
        let page = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let silent = (0..<40).map { _ in Self.connected(port: port) }
                let page = Page.get(port: port, target: "/?code=c9&state=\(Self.state)")
                for fd in silent { close(fd) }
                continuation.resume(returning: page)
            }
        }
        #expect(await answer == .redirect("/?code=c9&state=\(Self.state)"))
        #expect(page.status == 200)
    }

    /// A blocking socket connected to the listener that sends nothing.
    static func connected(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }

    @Test func strayRequestsGet404AndTheWaitGoesOn() async throws {
        let (answer, pages) = try await Self.answer(to: ["/", "/favicon.ico", "/?code=c1&state=wrong", "/?code=c1", "/?code=c2&state=\(Self.state)"])
        #expect(answer == .redirect("/?code=c2&state=\(Self.state)"))
        #expect(pages.map(\.status) == [404, 404, 404, 404, 200])
        #expect(pages.last?.bodyText.contains("reached the app") == true)
        #expect(pages.last?.bodyText.contains("Signed in") == false, "the page does not claim a sign-in the app has not finished")
    }

    @Test func aRepeatedParameterIsRefused() async throws {
        let (answer, pages) = try await Self.answer(to: ["/?code=evil&code=c1&state=\(Self.state)"])
        #expect(answer == .repeated(parameter: "code"))
        #expect(pages.first?.status == 400)
        #expect(pages.first?.bodyText.contains("refused") == true)
    }

    @Test func thePageSaysWhatHappened() async throws {
        let (_, cancelled) = try await Self.answer(to: ["/?error=access_denied&state=\(Self.state)"])
        #expect(cancelled.first?.bodyText.contains("cancelled") == true)
        let (_, failed) = try await Self.answer(to: ["/?error=%3Cscript%3E&state=\(Self.state)"])
        #expect(failed.first?.bodyText.contains("did not complete (an unreadable error)") == true, "\(failed.first?.bodyText ?? "")")
        let (_, refused) = try await Self.answer(to: ["/?error=server_error&state=\(Self.state)"])
        #expect(refused.first?.bodyText.contains("did not complete (server_error)") == true)
    }

    /// `--redirect-port`: the listener binds the port it is given.
    @Test func aFixedPortIsBound() async throws {
        let probe = try LoopbackRedirectListener()
        let port = probe.port
        _ = consume probe  // frees the port
        let listener = try LoopbackRedirectListener(port: port)
        #expect(listener.port == port && listener.redirectURI == "http://127.0.0.1:\(port)/")
        #expect(throws: IssuerError.self) { _ = try LoopbackRedirectListener(port: port) }
    }

    @Test func aRedirectThatRepeatsAParameterIsRefusedWhenRead() {
        #expect(throws: IssuerError.self) {
            _ = try AuthorizationRedirect.parse("http://127.0.0.1:1/?code=a&code=b&state=s", redirectURI: "http://127.0.0.1:1/", expectedState: "s")
        }
        #expect(throws: IssuerError.self) {
            _ = try AuthorizationRedirect.parse("http://127.0.0.1:1/?code=a&state=s&state=s", redirectURI: "http://127.0.0.1:1/", expectedState: "s")
        }
    }
}
