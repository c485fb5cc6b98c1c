import Foundation
import JSON
import Testing
import LocalServers

@testable import Daemon

/// Only the daemon's own user may use its control API: as deployed another user cannot even
/// connect (0600 socket in a 0700 directory); with those permissions loosened, and on
/// `--listen` loopback TCP, the daemon's peer check refuses it.
@Suite struct PeerAccessTests {
    static let setpriv = "/usr/bin/setpriv"
    static let curl = "/usr/bin/curl"
    static let nobody: uid_t = 65534

    /// Whether this machine can act as another user (root, with setpriv and curl): the
    /// condition is shown in the test report when it does not hold, not swallowed.
    static var canActAsAnotherUser: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv) && FileManager.default.isExecutableFile(atPath: curl)
    }

    /// Runs curl as `nobody` (hang guards, not bounds: on a machine whose cores another job
    /// keeps busy an answer took over 10 s).
    static func curlAsNobody(_ arguments: [String]) async throws -> Command.Result {
        try await Command.run(
            setpriv, ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--", curl, "-sS", "--max-time", "120"] + arguments,
            timeout: .seconds(180))
    }

    @Test(.enabled(if: PeerAccessTests.canActAsAnotherUser, "needs root, /usr/bin/setpriv and /usr/bin/curl to act as another user"))
    func anotherUserIsRefusedOnTheSocketAndOnLoopbackTCP() async throws {
        try await DaemonProcess.withListening { daemon in try await Self.check(daemon) }
    }

    static func check(_ daemon: DaemonProcess) async throws {
        let socket = daemon.stateDirectory + "/control.sock"
        let port = try #require(daemon.listeningPort)
        let tcp = "http://127.0.0.1:\(port)/v1/health"
        // The owner gets answers on both.
        #expect(try await daemon.call(.get, "/v1/health").status == 200)
        let ownTCP = try await Command.run(curl, ["-sS", "--max-time", "120", "-o", "/dev/null", "-w", "%{http_code}", tcp], timeout: .seconds(180))
        #expect(ownTCP.stdout == "200", "own user over TCP: \(ownTCP.stdout) \(ownTCP.stderr)")

        let denied = try await curlAsNobody(["--unix-socket", socket, "http://localhost/v1/health"])
        #expect(denied.status == 7, "nobody must not connect to the 0600 socket: exit \(denied.status) \(denied.stdout)")
        #expect(!denied.stdout.contains("\"ok\""))

        // Loosen the permissions as a careless admin might: the daemon still refuses.
        chmod(daemon.stateDirectory, 0o711)
        chmod(socket, 0o666)
        defer {
            chmod(socket, 0o600)
            chmod(daemon.stateDirectory, 0o700)
        }
        for url in ["http://localhost/v1/health", "http://localhost/v1/accounts"] {
            let refused = try await curlAsNobody(["--unix-socket", socket, url])
            #expect((try? JSONValue.parse(refused.stdout))?["error"]?["code"] == "forbidden_peer", "nobody over the socket: \(refused.stdout) \(refused.stderr)")
        }
        let overTCP = try await curlAsNobody([tcp])
        #expect((try? JSONValue.parse(overTCP.stdout))?["error"]?["code"] == "forbidden_peer", "nobody over TCP: \(overTCP.stdout) \(overTCP.stderr)")
        #expect(try await daemon.call(.get, "/v1/health").status == 200)
    }
}

/// The loopback TCP owner lookup, on a table shaped like the kernel's.
@Suite struct PeerIdentityTests {
    @Test func theOwnerOfTheClientsEndIsRead() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 11 1 0 100 0 0 10 0
               1: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 12 1 0 20 4 30 10 -1
               2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 13 1 0 20 4 30 10 -1
            """
        func address(_ port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return address
        }
        #expect(PeerIdentity.procAddress(address(8080)) == "0100007F:1F90")
        #expect(PeerIdentity.tcpOwner(client: address(54321), server: address(8080), table: table) == 65534)
        #expect(PeerIdentity.tcpOwner(client: address(8080), server: address(54321), table: table) == 0)
        #expect(PeerIdentity.tcpOwner(client: address(1), server: address(8080), table: table) == nil)
    }

    /// /proc files report size 0 and come a page at a time; Foundation's String(contentsOfFile:)
    /// stops after the first page, so a busy /proc/net/tcp lost the peer's line.
    @Test func procFilesAreReadPastTheirFirstPage() throws {
        let maps = try #require(PeerIdentity.readProcFile("/proc/self/maps"))
        #expect(maps.utf8.count > 4096 && maps.hasSuffix("\n"), "\(maps.utf8.count) bytes")
    }
}
