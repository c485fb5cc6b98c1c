import Foundation
import HTTPClient

/// The loopback redirect of a browser sign-in (RFC 8252 §7.3): a listener on 127.0.0.1 at an
/// ephemeral port (or a fixed one, for issuers that match redirect URIs exactly) that waits,
/// bounded, for the one request that answers the pending sign-in: `GET /?…` carrying its
/// `state`. Anything else (a bare `GET /`, a favicon, a wrong or missing `state`, a preconnect
/// that sends nothing) gets 404 and does not end the wait. The answer is refused when it repeats
/// a parameter. Its page says what happened (received, refused, an error, cancelled). It never
/// listens beyond loopback.
final class LoopbackRedirectListener: @unchecked Sendable {  // the descriptor is used by one task at a time
    let port: Int
    private let socket: Int32

    /// Binds 127.0.0.1 with `port` (0: an ephemeral one) and listens.
    init(port requested: Int = 0) throws(IssuerError) {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        // A fixed port is bound again right after the last sign-in's connection closed (it
        // lingers in TIME_WAIT): SO_REUSEADDR, as every server on a fixed port does.
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: requested).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0,
            withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }) == 0
        else {
            let error = Self.failure("bind 127.0.0.1:\(requested)")
            Glibc.close(fd)
            throw error
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { Glibc.close(socket) }

    /// The redirect URI to register and send: `http://127.0.0.1:PORT/`.
    var redirectURI: String { "http://127.0.0.1:\(port)/" }

    /// What reached the listener for the pending sign-in.
    enum Answer: Sendable, Hashable {
        /// The request target (`/?code=…&state=…`) carrying the pending `state` once.
        case redirect(String)
        /// An answer carrying the pending `state` that repeats a parameter: refused.
        case repeated(parameter: String)
    }

    /// Waits until the answer to the sign-in whose `state` is `expectedState` arrives, the
    /// deadline passes or `cancelled()` says so (nil then). Requests that do not carry that
    /// `state` (exactly once) are answered 404 and the wait goes on.
    func waitForRedirect(expectedState: String, until deadline: ContinuousClock.Instant, cancelled: @Sendable () -> Bool) async -> Answer? {
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
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let fields = parts.count == 2 ? FormEncoding.decode(parts[1]) : []
            let states = fields.filter { $0.0 == "state" }.map(\.1)
            guard parts.first == "/", states.contains(expectedState) else {
                Self.respond(connection, status: "404 Not Found", body: "Not found: this address only takes the answer to the sign-in the app is waiting for.")
                continue
            }
            var seen: Set<String> = []
            if let repeated = fields.first(where: { !seen.insert($0.0).inserted })?.0 {
                Self.respond(connection, status: "400 Bad Request", body: "The sign-in's answer was refused: it repeats the parameter \(Self.shown(repeated)). Return to the terminal and sign in again.")
                return .repeated(parameter: repeated)
            }
            let error = fields.first { $0.0 == "error" }?.1
            let body: String = switch error {
            case nil: "The sign-in's answer reached the app, which now completes the sign-in. You can close this window and return to the terminal."
            case "access_denied": "The sign-in was cancelled. You can close this window and return to the terminal."
            case let code?: "The sign-in did not complete (\(Self.shown(code))). You can close this window and return to the terminal."
            }
            Self.respond(connection, status: "200 OK", body: body)
            return .redirect(target)
        }
        return nil
    }

    /// An OAuth error code fit to show on the page (RFC 6749 §4.1.2.1: printable ASCII; here
    /// letters, digits, `_`, `-` and `.` only, at most 64), else a neutral word.
    static func shown(_ code: String) -> String {
        let fits = code.utf8.count <= 64 && code.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
        return fits && !code.isEmpty ? code : "an unreadable error"
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
