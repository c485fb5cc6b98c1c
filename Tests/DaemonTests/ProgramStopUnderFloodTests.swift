import ChildProcess
import Foundation
import LocalServers
import Testing

/// complianced and mockauth, flooded with connections while SIGTERM arrives, exit 0 and never
/// by a crash signal (issue 50: a connection set up while a server stops trapped the process).
/// `STOP_FLOOD_PROGRAM_ROUNDS` sets the rounds per program (default 20).
@Suite("Programs stop under a flood of connections", .serialized)
struct ProgramStopUnderFloodTests {
    static let rounds = ProcessInfo.processInfo.environment["STOP_FLOOD_PROGRAM_ROUNDS"].flatMap(Int.init) ?? 20

    @Test("complianced: its control socket and its loopback listener flooded")
    func complianced() async throws {
        try await InProcessMockAuth.run { mock in
            for round in 0..<Self.rounds {
                try await CrashResumeTests.withStateDirectory { directory in
                    let daemon = try await DaemonProcess(stateDirectory: directory, authority: mock.authority, extra: ["--listen", "127.0.0.1:0"])
                    let port = try #require(daemon.listeningPort)
                    let floods = [ConnectionFlood(.loopback(port: port)), ConnectionFlood(.unixSocket(directory + "/control.sock"))]
                    for flood in floods { _ = await flood.waitForConnections(8) }
                    daemon.child.child.send(SIGTERM)
                    let exited = await daemon.child.waitForExit(timeout: .seconds(60))
                    for flood in floods { await flood.stop() }
                    #expect(exited, "round \(round): complianced did not stop")
                    #expect(daemon.child.exitStatus == .exited(0), "round \(round): \(daemon.child.stderr.suffix(800))")
                    await daemon.stop()
                }
            }
        }
    }

    @Test("mockauth")
    func mockauth() async throws {
        for round in 0..<Self.rounds {
            let server = try ChildServer("mockauth", arguments: ["serve", "--port", "0", "--fixtures", InProcessMockAuth.fixturesPath])
            let line = await server.firstLine(timeout: .seconds(30)) ?? ""
            let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "round \(round): no ready line: \(line) \(server.stderr)")
            let flood = ConnectionFlood(.loopback(port: port))
            _ = await flood.waitForConnections(8)
            server.child.send(SIGTERM)
            let exited = await server.waitForExit(timeout: .seconds(60))
            await flood.stop()
            #expect(exited, "round \(round): mockauth did not stop")
            #expect(server.exitStatus == .exited(0), "round \(round): \(server.stderr.suffix(800))")
            await server.stop()
        }
    }
}
