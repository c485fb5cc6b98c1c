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
    ///
    /// Connections are served side by side: a client that connects and sends nothing (a
    /// preconnect, or a hostile one holding many open) delays no other; each gets at most
    /// ``requestTime`` to send its request line, and at most ``maxOpen`` wait at once (the
    /// oldest is dropped for a new one).
    func waitForRedirect(expectedState: String, until deadline: ContinuousClock.Instant, cancelled: @Sendable () -> Bool) async -> Answer? {
        var open: [Pending] = []
        defer { for pending in open { Glibc.close(pending.fd) } }
        while ContinuousClock.now < deadline, !cancelled(), !Task.isCancelled {
            while true {
                let connection = accept(socket, nil, nil)  // the listening socket is non-blocking
                guard connection >= 0 else { break }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
                open.append(Pending(fd: connection, opened: .now))
                if open.count > Self.maxOpen { Glibc.close(open.removeFirst().fd) }
            }
            var index = 0
            while index < open.count {
                switch Self.readRequestLine(&open[index]) {
                case .waiting where ContinuousClock.now - open[index].opened < Self.requestTime:
                    index += 1
                case .waiting, .unusable:
                    Glibc.close(open.remove(at: index).fd)
                case .target(let target):
                    let connection = open.remove(at: index).fd
                    defer { Glibc.close(connection) }
                    if let answer = Self.answer(connection, target: target, expectedState: expectedState) { return answer }
                }
            }
            try? await Task.sleep(for: .milliseconds(open.isEmpty ? 25 : 10))
        }
        return nil
    }

    /// How long a connection may take to send its request line.
    static let requestTime: Duration = .seconds(5)
    /// How many connections may wait for their request line at once.
    static let maxOpen = 64

    /// A connection and what it has sent so far.
    private struct Pending {
        let fd: Int32
        let opened: ContinuousClock.Instant
        var received: [UInt8] = []
    }

    private enum ReadState {
        case waiting
        case unusable
        case target(String)
    }

    /// Reads what `pending` has sent: its `GET` request target once the request line is
    /// complete; unusable when it closed, failed, sent something else or too much.
    private static func readRequestLine(_ pending: inout Pending) -> ReadState {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending.received.count < 16 << 10 {
            let count = read(pending.fd, &buffer, buffer.count)
            if count > 0 {
                pending.received += buffer[0..<count]
                if let end = pending.received.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending.received[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    let parts = line.split(separator: " ")
                    guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return .unusable }
                    return .target(String(parts[1]))
                }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return .unusable
            } else {
                return .waiting
            }
        }
        return .unusable
    }

    /// Answers one request: the pending sign-in's answer (or its refusal) ends the wait; any
    /// other request gets 404 and nil.
    private static func answer(_ connection: Int32, target: String, expectedState: String) -> Answer? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let fields = parts.count == 2 ? FormEncoding.decode(parts[1]) : []
        let states = fields.filter { $0.0 == "state" }.map(\.1)
        guard parts.first == "/", states.contains(expectedState) else {
            respond(connection, status: "404 Not Found", body: "Not found: this address only takes the answer to the sign-in the app is waiting for.")
            return nil
        }
        var seen: Set<String> = []
        if let repeated = fields.first(where: { !seen.insert($0.0).inserted })?.0 {
            respond(connection, status: "400 Bad Request", body: "The sign-in's answer was refused: it repeats the parameter \(shown(repeated)). Return to the terminal and sign in again.")
            return .repeated(parameter: repeated)
        }
        let error = fields.first { $0.0 == "error" }?.1
        let body: String = switch error {
        case nil: "The sign-in's answer reached the app, which now completes the sign-in. You can close this window and return to the terminal."
        case "access_denied": "The sign-in was cancelled. You can close this window and return to the terminal."
        case let code?: "The sign-in did not complete (\(shown(code))). You can close this window and return to the terminal."
        }
        respond(connection, status: "200 OK", body: body)
        return .redirect(target)
    }

    /// An OAuth error code fit to show on the page (RFC 6749 §4.1.2.1: printable ASCII; here
    /// letters, digits, `_`, `-` and `.` only, at most 64), else a neutral word.
    static func shown(_ code: String) -> String {
        let fits = code.utf8.count <= 64 && code.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
        return fits && !code.isEmpty ? code : "an unreadable error"
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
