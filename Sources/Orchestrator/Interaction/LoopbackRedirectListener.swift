import Foundation

/// The loopback redirect of a browser sign-in (RFC 8252 §7.3): a listener on 127.0.0.1 at an
/// ephemeral port that waits, bounded, for the one request the issuer redirects the browser to
/// (`GET /?code=…&state=…`), answers it with a page saying the sign-in may be closed, and
/// stops. Other requests (a favicon, a preconnect that sends nothing) get 404 or are dropped
/// and do not end the wait. It never listens beyond loopback.
final class LoopbackRedirectListener: @unchecked Sendable {  // the descriptor is used by one task at a time
    let port: Int
    private let socket: Int32

    /// Binds 127.0.0.1 with port 0 and listens.
    init() throws(IssuerError) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0,
            withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }) == 0
        else {
            let error = Self.failure("bind 127.0.0.1:0")
            Glibc.close(fd)
            throw error
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { Glibc.close(socket) }

    /// The redirect URI to register and send: `http://127.0.0.1:PORT/`.
    var redirectURI: String { "http://127.0.0.1:\(port)/" }

    /// Waits until the redirect arrives (its request target, e.g. `/?code=…&state=…`), the
    /// deadline passes or `cancelled()` says so (nil then).
    func waitForRedirect(until deadline: ContinuousClock.Instant, cancelled: @Sendable () -> Bool) async -> String? {
        while ContinuousClock.now < deadline, !cancelled(), !Task.isCancelled {
            let connection = accept(socket, nil, nil)  // the listening socket is non-blocking
            guard connection >= 0 else {
                try? await Task.sleep(for: .milliseconds(25))
                continue
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            defer { Glibc.close(connection) }
            guard let target = await Self.requestTarget(connection, until: min(deadline, ContinuousClock.now + .seconds(5))) else { continue }
            let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
            guard path == "/" else {
                Self.respond(connection, status: "404 Not Found", body: "Not found.")
                continue
            }
            let failed = target.contains("error=")
            Self.respond(connection, status: "200 OK", body: failed
                ? "The sign-in did not complete. You can close this window and return to the terminal."
                : "Signed in. You can close this window and return to the terminal.")
            return target
        }
        return nil
    }

    /// The request target of a `GET` request line; nil for anything else or nothing in time.
    private static func requestTarget(_ connection: Int32, until deadline: ContinuousClock.Instant) async -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline, received.count < 16 << 10 {
            let count = read(connection, &buffer, buffer.count)
            if count > 0 {
                received += buffer[0..<count]
                if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: received[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    let parts = line.split(separator: " ")
                    guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
                    return String(parts[1])
                }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return nil
            } else {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return nil
    }

    private static func respond(_ connection: Int32, status: String, body: String) {
        let page = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in</title></head>\
            <body><p id="message">\(body)</p></body></html>
            """
        let bytes = Array(page.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(bytes.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        let all = Array(head.utf8) + bytes
        _ = all.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func failure(_ what: String) -> IssuerError {
        IssuerError(.network, "cannot listen for the sign-in's redirect (\(what)): \(String(cString: strerror(errno)))", endpoint: "http://127.0.0.1")
    }
}
