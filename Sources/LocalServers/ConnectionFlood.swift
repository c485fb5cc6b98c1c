import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Opens connections to a local server in a tight loop, on threads of its own, until stopped:
/// each connects, sends the start of a request and closes, so a server is handed connections
/// at every moment of its stop (issue 50: a connection accepted while a server stops must not
/// trap it). Threads, not tasks: the flood goes on while the cooperative pool is busy.
public final class ConnectionFlood: Sendable {
    /// Where the connections go.
    public enum Target: Sendable {
        /// 127.0.0.1 and this port.
        case loopback(port: Int)
        /// A unix-domain socket at this path.
        case unixSocket(String)
    }

    private let state = Mutex<(stopping: Bool, running: Int, connected: Int)>((false, 0, 0))
    private let target: Target

    /// Starts `threads` threads flooding `target`.
    public init(_ target: Target, threads: Int = 4) {
        self.target = target
        state.withLock { $0.running = threads }
        for index in 0..<threads {
            let thread = Thread { [self] in flood() }
            thread.name = "connection-flood-\(index)"
            thread.start()
        }
    }

    /// How many connections were established so far.
    public var connected: Int { state.withLock { $0.connected } }

    /// Waits (bounded) until at least `count` connections were established; true when they were.
    public func waitForConnections(_ count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while connected < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        return connected >= count
    }

    /// Stops every thread and waits for them to end (bounded by one connection attempt each).
    public func stop() async {
        state.withLock { $0.stopping = true }
        while state.withLock({ $0.running }) > 0 { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private func flood() {
        defer { state.withLock { $0.running -= 1 } }
        let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        while !state.withLock({ $0.stopping }) {
            let descriptor = connectOnce()
            guard descriptor >= 0 else {
                usleep(200)  // refused (the server has stopped listening) or out of descriptors
                continue
            }
            state.withLock { $0.connected += 1 }
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(descriptor)
        }
    }

    /// A socket of `family` whose connect gives up after 20 ms (a listener whose backlog is
    /// full drops the SYN, and the kernel's retry comes only after a second), or -1.
    private func makeSocket(_ family: Int32) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var limit = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// A connected socket, or -1.
    private func connectOnce() -> Int32 {
        switch target {
        case .loopback(let port):
            let descriptor = makeSocket(AF_INET)
            guard descriptor >= 0 else { return -1 }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if result != 0 { close(descriptor); return -1 }
            return descriptor
        case .unixSocket(let path):
            let descriptor = makeSocket(AF_UNIX)
            guard descriptor >= 0 else { return -1 }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(descriptor); return -1 }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if result != 0 { close(descriptor); return -1 }
            return descriptor
        }
    }
}
