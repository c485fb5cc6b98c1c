import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a control connection, as the kernel says (Linux).
enum PeerIdentity {
    /// The peer's effective uid: `SO_PEERCRED` for a unix-domain socket, the socket owner in
    /// `/proc/net/tcp` for loopback TCP (`--listen`). nil when the kernel does not say.
    static func uid(of channel: any Channel) async -> uid_t? {
        switch channel.remoteAddress {
        case .unixDomainSocket?:
            guard let provider = channel as? any SocketOptionProvider else { return nil }
            let name = NIOBSDSocket.Option(rawValue: SO_PEERCRED)
            let credentials: PeerCredentials? = try? await provider.unsafeGetSocketOption(level: .socket, name: name).get()
            return credentials.map(\.uid)
        case .v4(let remote)?:
            guard case .v4(let local)? = channel.localAddress else { return nil }
            return tcpOwner(client: remote.address, server: local.address)
        default:
            return nil
        }
    }

    /// `struct ucred` of <sys/socket.h> (glibc hides it behind _GNU_SOURCE): three 32-bit fields.
    struct PeerCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = .max
        var gid: UInt32 = .max
    }

    /// The uid owning the loopback TCP socket whose local end is `client` and remote end
    /// `server`, from `/proc/net/tcp` (addresses as the kernel prints them: hex, host order).
    static func tcpOwner(client: sockaddr_in, server: sockaddr_in, table: String? = nil) -> uid_t? {
        guard let table = table ?? readProcFile("/proc/net/tcp") else { return nil }
        let wanted = (procAddress(client), procAddress(server))
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == wanted.0, fields[2] == wanted.1 else { continue }
            return uid_t(fields[7])
        }
        return nil
    }

    /// The whole of a /proc file: read(2) until end of file (a procfs file reports size 0 and
    /// is produced a page at a time, so size-based readers can stop after the first page).
    static func readProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// `0100007F:1F90` for 127.0.0.1:8080 (the kernel prints the address word in host order).
    static func procAddress(_ address: sockaddr_in) -> String {
        let ip = String(format: "%08X", address.sin_addr.s_addr)
        let port = String(format: "%04X", UInt16(bigEndian: address.sin_port))
        return ip + ":" + port
    }
}
